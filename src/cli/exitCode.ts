/**
 * A run that finished but left slices failed (or could not rebuild the catalog): bin.ts turns it
 * into exit code 1 (the summary has been printed and the other slices are committed).
 */
import { Data } from "effect"

export class RunFailed extends Data.TaggedError("RunFailed")<{
  readonly reason: "SlicesFailed"
  readonly failed: ReadonlyArray<string>
  readonly error?: string
  readonly report: string
}> {
  override get message(): string {
    // a few names, so the message stays short whatever the slice count (the report has them all)
    const names = this.failed.length > 5 ? `${this.failed.slice(0, 5).join(", ")} and ${this.failed.length - 5} more` : this.failed.join(", ")
    const slices = this.failed.length === 0 ? [] : [`${this.failed.length} slice(s) failed: ${names}.`]
    const other = this.error === undefined ? [] : [`${this.error}.`]
    return `${[...slices, ...other].join(" ")} Details in ${this.report}; rerun the same command to resume them.`
  }
}
