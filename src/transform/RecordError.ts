/** A key a fan-out looked up that the service does not know (404): becomes a reject, not a failure. */
export class NotFoundRecord {
  readonly _tag = "NotFoundRecord"
  constructor(
    readonly key: string,
    readonly request: string
  ) {}
}

/**
 * A record that cannot become a row: goes to `_rejects` with this reason. `settled`: the record is
 * the service's final answer for its key (the node has no such transaction), which no later run
 * asks again: a reject, but not a hole of its slice.
 */
export class RecordError extends Error {
  readonly _tag = "RecordError"
  constructor(
    readonly reason: string,
    readonly settled: boolean = false
  ) {
    super(reason)
  }
}
