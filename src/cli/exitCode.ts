/**
 * How a run that finished tells cron what it left, beyond its summary: bin.ts (through main.ts)
 * turns these into exit codes. 1: slices failed (or the catalog could not be rebuilt); the others
 * are committed. 3: every slice done, but records could not be mapped (rejects), so the output
 * has holes the next run asks for again. 0 and 2 (bad usage) are main.ts's own.
 */
import { Data } from "effect"

/** Exit code of a run that failed slices (docs/cli.md#the-cli, exit codes). */
export const EXIT_FAILED = 1
/** Exit code of a run that finished with rejects (docs/cli.md#the-cli, exit codes). */
export const EXIT_REJECTS = 3

/** A few names, so a message stays short whatever the count (the report has them all). */
const some = (names: ReadonlyArray<string>): string =>
  names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ")

export class RunFailed extends Data.TaggedError("RunFailed")<{
  readonly reason: "SlicesFailed"
  readonly failed: ReadonlyArray<string>
  readonly error?: string
  readonly report: string
  /** Broken checkpoints among the failures, each naming its file and the fix (brokenCheckpoints). */
  readonly broken?: ReadonlyArray<string>
}> {
  override get message(): string {
    const slices = this.failed.length === 0 ? [] : [`${this.failed.length} slice(s) failed: ${some(this.failed)}.`]
    const broken = (this.broken ?? []).map((b) => (b.endsWith(".") ? b : `${b}.`))
    // a rerun alone fails them again: the fix is on the last line, where cron's log shows it
    const fixes = broken.length > 3 ? [...broken.slice(0, 3), `${broken.length - 3} more broken checkpoint(s) in the report.`] : broken
    const other = this.error === undefined ? [] : [`${this.error}.`]
    const then = broken.length > 0 ? "once fixed, rerun the same command" : "rerun the same command to resume them"
    return `${[...slices, ...fixes, ...other].join(" ")} Details in ${this.report}; ${then}.`
  }
}

/** What a broken checkpoint says (CheckpointError "Corrupt", its file and fix), found in failed slices' errors. */
const BROKEN = /checkpoint .+ is broken \(.*\)\. Fix: .*$/s

/** The broken-checkpoint errors of a run's failed slices (a windowed dataset's: its "not planned" line), each once. */
export const brokenCheckpoints = (slices: ReadonlyArray<{ readonly status: string; readonly error?: string }>): ReadonlyArray<string> => [
  ...new Set(slices.filter((s) => s.status === "failed").flatMap((s) => BROKEN.exec(s.error ?? "")?.[0] ?? []))
]

/** Per dataset what a run could not map: rejects written, and holes its slices were left with. */
export interface RejectedIn {
  readonly dataset: string
  /** `_rejects` rows this run wrote. */
  readonly rejects: number
  /** Records rejected and not written, in the slices this run crawled (Holes.ts). */
  readonly holes: number
  /** The first keys of those holes (heights of a height walk), where the listing names them. */
  readonly keys: ReadonlyArray<string>
}

export class RunRejected extends Data.TaggedError("RunRejected")<{
  readonly reason: "Rejects"
  readonly datasets: ReadonlyArray<RejectedIn>
  readonly runId: string
  /** The output folder, for the query that lists them. */
  readonly out: string
}> {
  override get message(): string {
    const each = this.datasets.map((d) => {
      const keys = d.keys.length === 0 ? "" : ` (${some(d.keys)})`
      return `${d.dataset}: ${d.rejects} reject(s) written, ${d.holes} hole(s) left${keys}`
    })
    return (
      `run ${this.runId} finished with records it could not map: ${each.join("; ")}. ` +
      `The reasons are in _rejects: chainetl query --out ${this.out} "SELECT dataset, reason, raw FROM _rejects WHERE run_id = '${this.runId}'". ` +
      `A hole is missing from its dataset and never counted as done: the next run asks for it again (exit code ${EXIT_REJECTS})`
    )
  }
}
