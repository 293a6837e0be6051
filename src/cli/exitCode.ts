/**
 * A run that finished but left slices failed: bin.ts turns it into exit code 1 (the summary has
 * been printed and the other slices are committed).
 */
import { Data } from "effect"

export class RunFailed extends Data.TaggedError("RunFailed")<{
  readonly reason: "SlicesFailed"
  readonly failed: ReadonlyArray<string>
  readonly report: string
}> {
  override get message(): string {
    return `${this.failed.length} slice(s) failed: ${this.failed.join(", ")}. Details in ${this.report}; rerun the same command to resume them.`
  }
}
