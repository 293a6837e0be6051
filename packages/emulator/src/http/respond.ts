/**
 * Writes an answer to the socket, honestly or in one of the two broken ways a real network
 * produces: a connection reset mid-body, or a correctly framed body that is cut short.
 */
import type { ServerResponse } from "node:http"
import type { Host } from "./contract.ts"
import { errorBody, type ErrorBody } from "./errors.ts"
import { stringifyExact } from "./exactJson.ts"
import type { HttpError } from "./contract.ts"

export interface Outcome {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** JSON text (bigints written as exact integer literals). */
  readonly body: string
}

export type Delivery = "whole" | "reset" | "truncate"

export const jsonOutcome = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Outcome => ({
  status,
  headers,
  body: stringifyExact(body)
})

export const errorOutcome = (host: Host, err: HttpError): Outcome =>
  jsonOutcome(err.status, errorBody(host, err.status, err.detail) satisfies ErrorBody, err.headers)

export const send = (res: ServerResponse, outcome: Outcome, delivery: Delivery = "whole"): void => {
  const full = Buffer.from(outcome.body, "utf8")
  // a body of one byte cannot be cut short; it goes out whole
  const cut = full.length > 1 ? Math.max(1, Math.floor(full.length / 2)) : full.length
  const body = delivery === "truncate" ? full.subarray(0, cut) : full
  res.writeHead(outcome.status, {
    ...outcome.headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(body.length)
  })
  if (delivery === "reset" && cut < full.length) {
    // headers promise the full length; the peer sees the connection die part-way through the body
    res.write(full.subarray(0, cut), () => res.destroy())
    return
  }
  res.end(body)
}
