/**
 * `--dry-run`: the slices a run would crawl and a lower bound of its requests, without a single
 * request. Slices come from the job and the checkpoints on disk (windows already final are not
 * planned). A slice the crawler will skip (finished and final: a snapshot already taken today, a
 * settled month, a contract's metadata) is listed as such and costs nothing. A slice to crawl costs
 * at least its first request, except where that bound is not sure:
 *  - fan-outs whose keys come from the output (KEYS_FROM_OUTPUT): none may be new, no request;
 *  - a slice resuming from a saved cursor (an interrupted run): what is left may be nothing.
 * So the total is a true lower bound: test/cli/nightly.test.ts holds it ≤ the requests the run
 * then makes, per dataset, night after night.
 */
import { Effect } from "effect"
import { CheckpointStore, isFinal } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { isoSeconds } from "../Time.ts"
import { table } from "./table.ts"

/** Fan-outs that look up keys found in the output (none new: no request at all). */
export const KEYS_FROM_OUTPUT: ReadonlyArray<string> = ["validators", "aggregated_signatures", "evm_transactions", "nft_tokens", "node_transactions", "assets"]

/** What the run will do with a slice, from its checkpoint. */
export type SliceState = "new" | "resume" | "rerun" | "final"

export interface DryRunSlice {
  readonly dataset: string
  readonly slice: string
  readonly params: Readonly<Record<string, string>>
  readonly state: SliceState
  readonly atLeastRequests: number
}

export interface DryRunLine {
  readonly dataset: string
  /** Slices planned (windows already final are not even planned). */
  readonly slices: number
  /** Of those, the ones the run crawls. */
  readonly crawl: number
  /** Of those, the ones it skips as final. */
  readonly final: number
  readonly atLeastRequests: number
}

export interface DryRun {
  readonly asOf: number
  readonly datasets: ReadonlyArray<DryRunLine>
  readonly slices: ReadonlyArray<DryRunSlice>
  readonly atLeastRequests: number
}

const sliceOf = (dataset: AnyDataset, slice: Slice, state: DryRunSlice["state"], resumedMidListing: boolean): DryRunSlice => ({
  dataset: dataset.name,
  slice: slice.id,
  params: slice.params,
  state,
  atLeastRequests: state === "final" || resumedMidListing || KEYS_FROM_OUTPUT.includes(dataset.name) ? 0 : 1
})

/** Each planned slice against its checkpoint: what the crawler will do with it, and what that costs at least. */
export const plan = (planned: ReadonlyArray<{ readonly dataset: AnyDataset; readonly slices: ReadonlyArray<Slice> }>, asOf: number) =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    const lines: DryRunLine[] = []
    const all: DryRunSlice[] = []
    for (const { dataset, slices } of planned) {
      const states = new Map((yield* store.list(dataset.name)).map((c) => [c.slice, c]))
      const these = slices.map((slice) => {
        const state = states.get(slice.id)
        if (state === undefined) return sliceOf(dataset, slice, "new", false)
        if (isFinal(state, slice, dataset.rerun)) return sliceOf(dataset, slice, "final", false)
        // a finished slice that reruns starts from its first page again; an interrupted one from its cursor
        if (state.status === "done") return sliceOf(dataset, slice, "rerun", false)
        return sliceOf(dataset, slice, "resume", state.cursor !== null)
      })
      all.push(...these)
      lines.push({
        dataset: dataset.name,
        slices: these.length,
        crawl: these.filter((s) => s.state !== "final").length,
        final: these.filter((s) => s.state === "final").length,
        atLeastRequests: these.reduce((n, s) => n + s.atLeastRequests, 0)
      })
    }
    return { asOf, datasets: lines, slices: all, atLeastRequests: lines.reduce((n, l) => n + l.atLeastRequests, 0) } satisfies DryRun
  })

const showParams = (params: Readonly<Record<string, string>>): string =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ")

export const printPlan = (dry: DryRun, json: boolean): void => {
  if (json) {
    console.log(JSON.stringify(dry, null, 2))
    return
  }
  if (dry.slices.length > 0) {
    console.log(table(["dataset", "slice", "will", "requests (at least)"], dry.slices.map((s) => [s.dataset, showParams(s.params), s.state === "final" ? "skip (final)" : s.state, s.atLeastRequests])))
    console.log("")
  }
  console.log(
    table(
      ["dataset", "slices", "to crawl", "final", "requests (at least)"],
      dry.datasets.map((l) => [l.dataset, l.slices, l.crawl, l.final, l.atLeastRequests])
    )
  )
  const crawl = dry.datasets.reduce((n, l) => n + l.crawl, 0)
  console.log(
    `\ndry run as of ${isoSeconds(dry.asOf)}: ${dry.datasets.length} datasets, ${crawl} slices to crawl, at least ${dry.atLeastRequests} requests ` +
      `(a slice's first request; none for a final slice, a fan-out whose keys come from the output, or a slice resumed mid-listing); nothing was fetched or written`
  )
}
