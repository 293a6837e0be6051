/**
 * The few error classes of chainetl. Each carries a literal `reason` so callers can match on it
 * and a message that says what failed and what to do about it.
 */
import { Data } from "effect"

/** A request to one of the three services failed (after retries, where retrying applies). */
export class SourceError extends Data.TaggedError("SourceError")<{
  readonly reason:
    | "Transport" // connection refused or reset, DNS
    | "Timeout"
    | "HttpStatus" // a non-2xx the client does not retry, or retries exhausted
    | "RateLimited" // 429 beyond the retry budget
    | "Decode" // body is not the JSON we expect (truncated, not JSON)
    | "TokenExpired" // the service says the page token is invalid or expired
    | "Rpc" // JSON-RPC error object
    | "TokenRepeated" // a listing answered a page token it had already answered in this pass (a cycle)
    | "NoProgress" // a listing went on for too many pages without a key new to this pass
    | "Auth" // 401/403: the service refused our credentials; the run stops (crawl/RunStop.ts)
    | "TooLarge" // an answer's body is past the cap (CHAINETL_MAX_BODY_MB)
    | "KeyBudget" // the API keys' shared budget (PostgreSQL) could not be asked for a token
  /** Which request: method, service and path (never the API key). */
  readonly request: string
  readonly status?: number
  readonly detail: string
}> {
  override get message(): string {
    return `${this.reason} on ${this.request}${this.status === undefined ? "" : ` (HTTP ${this.status})`}: ${this.detail}`
  }
}

/** Bad flags, environment or job file: names the field and the fix. Exit code 2. */
export class ConfigError extends Data.TaggedError("ConfigError")<{
  readonly reason: "Missing" | "Invalid" | "Unknown"
  readonly field: string
  readonly detail: string
  readonly fix: string
}> {
  override get message(): string {
    return `${this.field}: ${this.detail}. Fix: ${this.fix}`
  }
}

/** Writing Parquet parts, staging, renaming or the catalog failed. */
export class SinkError extends Data.TaggedError("SinkError")<{
  readonly reason: "Io" | "Encode" | "Catalog" | "Locked"
  readonly path: string
  readonly detail: string
}> {
  override get message(): string {
    return `${this.reason} at ${this.path}: ${this.detail}`
  }
}

/** The checkpoint store could not be read or written. */
export class CheckpointError extends Data.TaggedError("CheckpointError")<{
  readonly reason: "Io" | "Corrupt"
  readonly slice: string
  readonly detail: string
  /** The checkpoint file, when one file is at fault. */
  readonly file?: string
}> {
  override get message(): string {
    if (this.reason === "Corrupt" && this.file !== undefined) {
      return `checkpoint ${this.file} is broken (${this.detail}). Fix: delete it to refetch that slice (the next run removes the slice's parts and fetches it again)`
    }
    return `checkpoint of ${this.slice}: ${this.reason}: ${this.detail}`
  }
}

/** `chainetl report` could not read a figure from the catalog, draw a chart or write the page. */
export class ReportError extends Data.TaggedError("ReportError")<{
  readonly reason: "Read" | "Render" | "Write"
  /** What was being read, drawn or written: a dataset, a chart id or a file. */
  readonly what: string
  readonly detail: string
}> {
  override get message(): string {
    return `report: ${this.reason} ${this.what}: ${this.detail}`
  }
}
