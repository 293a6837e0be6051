/**
 * How a run's planned slices get crawled: the one step where a local run and a distributed one
 * differ. Runner.ts does the rest the same for both (leftovers cleared and slices planned before;
 * compaction, the catalog and the run report after); between the two it hands the plan to a
 * SliceExecution:
 *  - `hold` is step 1, holding the output for the run's scope: a local run takes the writer lock
 *    (Runner.ts `localSlices`), a distributed one its hold in PostgreSQL (distributed/Enqueuer.ts
 *    `queuedSlices`), which it shares with the workers while they crawl;
 *  - the `crawl` it returns is step 4: every planned slice's outcome, in plan order, whether the
 *    slices ran in this process or in workers that took them from the queue, and the result that
 *    stopped the run if one did (a service refused our credentials: no slice starts after it).
 */
import type { Effect, Scope } from "effect"
import type { AnyDataset } from "./crawl/Dataset.ts"
import type { ProbedPages } from "./crawl/ProbedPages.ts"
import type { Slice } from "./crawl/Slice.ts"
import type { SliceResult } from "./crawl/SliceResult.ts"
import type { RunPace } from "./CrawlPace.ts"
import type { CheckpointError, SinkError } from "./Errors.ts"

/** A dataset's slices for this run, or why it could not be planned (its slices then empty). */
export interface PlannedDataset {
  readonly dataset: AnyDataset
  readonly slices: ReadonlyArray<Slice>
  readonly error?: CheckpointError | SinkError
  /** The slices its checkpoints name, when it was planned from them (windows, heights). */
  readonly checkpointed?: ReadonlySet<string>
}

/** What step 4 is given: the plan and what every slice of the run shares. */
export interface SliceRun {
  readonly runId: string
  readonly asOf: number
  /** When the run started: its rows' ingested_at. */
  readonly started: Date
  readonly partRows: number
  readonly partBytes?: number
  readonly plan: ReadonlyArray<PlannedDataset>
  /** First pages the backfill's probes asked (crawl/ProbedPages.ts): a local crawl hands them to their slices. */
  readonly probed?: ProbedPages
}

export interface CrawledSlices {
  /** Per planned dataset, in plan order, its slices' outcomes in its slices' order (a slice not started: `not_run`). */
  readonly results: ReadonlyArray<ReadonlyArray<SliceResult>>
  /** The result that stopped the run, if one did. */
  readonly stoppedBy: SliceResult | undefined
  /** The crawl's pace, where it was measured (a local run: the crawl is this process's). */
  readonly pace?: RunPace
}

/** A run whose process died, taken over by this one (said when it starts, and in its report). */
export interface TookOver {
  readonly runId: string
  readonly pid: number
  readonly hostname: string
  /** At once: its death was proved (its session ended, its pid gone); after its lease: it fell silent. */
  readonly when: "at once" | "after its lease"
  readonly why: string
}

/** The output held for the run's scope, and step 4 to run through it. */
export interface HeldOutput<E, R> {
  readonly crawl: (run: SliceRun) => Effect.Effect<CrawledSlices, E, R>
  /**
   * Others still write the output while this run prepares: a distributed run that took over one
   * whose workers are still crawling holds it shared. Step 2 then clears nothing they may be
   * writing (staging, temporary files, parts of refetched slices, a killed compaction's files);
   * the next run holding it alone does.
   */
  readonly shared: boolean
  readonly tookOver?: TookOver
}

export interface SliceExecution<E, R> {
  /** Holds the output for the run's scope (step 1); step 4 runs through what it returns. */
  readonly hold: (out: string, runId: string) => Effect.Effect<HeldOutput<E, R>, E, R | Scope.Scope>
}
