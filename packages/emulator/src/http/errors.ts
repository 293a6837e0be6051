/**
 * The one error body of the REST services (seed: Conventions): {message, statusCode, error}, with
 * `message` an array of strings on the metrics service.
 */
import { STATUS_CODES } from "node:http"
import { HttpError, type Host } from "./contract.ts"

export interface ErrorBody {
  readonly message: string | ReadonlyArray<string>
  readonly statusCode: number
  readonly error: string
}

/** The HTTP reason phrase, e.g. 429 → "Too Many Requests". */
export const reasonPhrase = (status: number): string => STATUS_CODES[status] ?? "Error"

export const errorBody = (host: Host, status: number, message: string): ErrorBody => ({
  message: host === "metrics" ? [message] : message,
  statusCode: status,
  error: reasonPhrase(status)
})

/** Metrics paths are /v2/… plus the older /v1/avg_tps route; everything else is chain-data. */
export const hostOfPath = (path: string): Host =>
  path.startsWith("/v2/") || path.startsWith("/v1/avg_tps/") ? "metrics" : "data"

/**
 * What a thrown value becomes: an HttpError keeps its status, anything else is the route's bug
 * and answers 500 with its message so the route's author sees it.
 */
export const asHttpError = (err: unknown): HttpError => {
  if (err instanceof HttpError) return err
  const detail = err instanceof Error ? err.message : String(err)
  return new HttpError(500, `internal error: ${detail}`)
}

export const badRequest = (detail: string): HttpError => new HttpError(400, detail)
