/**
 * What an HTTP answer means for the caller: a JSON value, or a failure with its retryability.
 * Pure, so every status rule is testable without a server.
 */
import { Either } from "effect"
import { SourceError } from "../Errors.ts"
import { type AttemptFailure, attemptFailure, parseRetryAfter } from "./Retry.ts"
import { parseJsonLossless } from "./LosslessJson.ts"
import { markInvalidText } from "./InvalidText.ts"
import { rememberText } from "./SourceText.ts"
import { parseSplit } from "./SplitJson.ts"

// Gateway and server trouble that tends to pass; 501/505 and friends do not.
const transientStatuses = new Set([500, 502, 503, 504])

// A 400 about the page token means the listing must restart, not that our request was malformed.
// Only "page token"/"pageToken" counts: the token-transfer routes also speak of (ERC) tokens.
const mentionsPageToken = /page[\s_-]*token/i
const tokenIsBad = /\b(invalid|expired|malformed|unknown|not valid|no longer valid)\b/i

const maxDetail = 500

const clip = (text: string): string => (text.length > maxDetail ? `${text.slice(0, maxDetail)}…` : text)

export const decodeText = (bytes: Uint8Array): string => new TextDecoder("utf-8").decode(bytes)

/**
 * The service's own words from an error body {message, statusCode, error}; `message` may be an
 * array (metrics service) and a JSON-RPC body carries {error: {code, message}}.
 */
export const errorDetail = (text: string): string => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return clip(text.trim() === "" ? "(empty body)" : text.trim())
  }
  if (typeof body !== "object" || body === null) return clip(text.trim())
  const { message, error } = body as { message?: unknown; error?: unknown }
  const words = Array.isArray(message) ? message.map(String).join("; ") : typeof message === "string" ? message : undefined
  if (typeof error === "object" && error !== null && "message" in error) {
    return clip(String((error as { message: unknown }).message))
  }
  const kind = typeof error === "string" ? error : undefined
  if (kind !== undefined && words !== undefined) return clip(`${kind}: ${words}`)
  return clip(words ?? kind ?? text.trim())
}

export const isTokenProblem = (detail: string): boolean => mentionsPageToken.test(detail) && tokenIsBad.test(detail)

/** Parses a 2xx body (integers above 2^53 as bigint); a body that is not JSON (truncated, an HTML error page) is worth a retry. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

export const parseJson = (request: string, status: number, bytes: Uint8Array): Either.Either<unknown, AttemptFailure> => {
  const split = parsedInPieces(bytes)
  if (split !== undefined) return Either.right(split)
  let text: string
  let validUtf8 = true
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    // bytes that are not UTF-8: the records holding them become rejects (InvalidText.ts), the rest of the page stays
    text = decodeText(bytes)
    validUtf8 = false
  }
  try {
    const body = parseJsonLossless(text)
    if (!validUtf8) markInvalidText(body)
    // a reject's raw text is cut from this text (SourceText.ts): the record exactly as sent
    rememberText(body, text)
    return Either.right(body)
  } catch (cause) {
    return Either.left(
      attemptFailure(
        new SourceError({
          reason: "Decode",
          request,
          status,
          detail: `body is not valid JSON (${bytes.length} bytes): ${cause instanceof Error ? cause.message : String(cause)}`
        }),
        "transient"
      )
    )
  }
}

/**
 * A large body parsed piece by piece (SplitJson.ts), with the same value and the same marks as a
 * whole parse; undefined when the body is small, not shaped for it, or not JSON (then the whole
 * parse runs and reports the error as ever).
 */
const parsedInPieces = (bytes: Uint8Array): unknown => {
  let split
  try {
    split = parseSplit(bytes)
  } catch {
    return undefined
  }
  if (split === undefined) return undefined
  const { value, validUtf8 } = split
  if (!validUtf8) markInvalidText(value)
  rememberText(value, () => (validUtf8 ? strictUtf8.decode(bytes) : decodeText(bytes)))
  return value
}

/** The failure a non-2xx answer stands for. */
export const statusFailure = (
  request: string,
  status: number,
  retryAfterHeader: string | undefined,
  bytes: Uint8Array,
  nowMs: number
): AttemptFailure => {
  const detail = errorDetail(decodeText(bytes))
  if (status === 429) {
    return attemptFailure(
      new SourceError({ reason: "RateLimited", request, status, detail }),
      "rateLimited",
      parseRetryAfter(retryAfterHeader, nowMs)
    )
  }
  // our credentials, not the request: retrying or asking again for other slices cannot help
  if (status === 401 || status === 403) {
    return attemptFailure(new SourceError({ reason: "Auth", request, status, detail }), "never")
  }
  if (status === 400 && isTokenProblem(detail)) {
    return attemptFailure(new SourceError({ reason: "TokenExpired", request, status, detail }), "never")
  }
  return attemptFailure(
    new SourceError({ reason: "HttpStatus", request, status, detail }),
    transientStatuses.has(status) ? "transient" : "never"
  )
}
