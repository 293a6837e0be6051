/**
 * `--dry-run`: the slices a run would crawl and a lower bound of its requests, without a single
 * request. Slices come from the job and the checkpoints on disk (windows already final are not
 * planned). A slice the crawler will skip (finished and final: a snapshot already taken today, a
 * settled month, a contract's metadata) is listed as such and costs nothing. A finished slice with
 * holes (crawl/Holes.ts: records rejected and not written since) is never final: it is listed as a
 * retry with its holes, since the run asks for them again. A slice to crawl costs
 * at least its first request, except where that bound is not sure:
 *  - fan-outs whose keys come from the output (KEYS_FROM_OUTPUT): none may be new, no request;
 *  - a slice resuming from a saved cursor (an interrupted run): what is left may be nothing.
 * So the total is a true lower bound: test/cli/nightly.test.ts holds it ≤ the requests the run
 * then makes, per dataset, night after night.
 */
import { Effect } from "effect"
import { type CheckpointState, CheckpointStore, isFinal } from "../crawl/Checkpoint.ts"
import { openHoles } from "../crawl/Holes.ts"
import { SHOWN_HOLE_KEYS } from "../crawl/SliceResult.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { isoSeconds } from "../Time.ts"
import { table } from "./table.ts"
import { type DryRunPace, paceLines } from "./dryRunPace.ts"

/** Fan-outs that look up keys found in the output (none new: no request at all). */
export const KEYS_FROM_OUTPUT: ReadonlyArray<string> = ["validators", "aggregated_signatures", "evm_transactions", "nft_tokens", "node_transactions", "assets"]

/** What the run will do with a slice, from its checkpoint ("retry": finished, but with holes). */
export type SliceState = "new" | "resume" | "rerun" | "retry" | "final"

export interface DryRunSlice {
  readonly dataset: string
  readonly slice: string
  readonly params: Readonly<Record<string, string>>
  readonly state: SliceState
  readonly atLeastRequests: number
  /** Its holes (rejected records the run asks for again); null when an older checkpoint did not count them. */
  readonly holes: number | null
  /** Their first keys (heights of a height walk), where the listing names them. */
  readonly holeKeys: ReadonlyArray<string>
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
  /** Holes of its planned slices, asked for again; null when some are not counted yet. */
  readonly holes: number | null
}

export interface DryRun {
  readonly asOf: number
  readonly datasets: ReadonlyArray<DryRunLine>
  readonly slices: ReadonlyArray<DryRunSlice>
  readonly atLeastRequests: number
}

const sliceOf = (dataset: AnyDataset, slice: Slice, state: DryRunSlice["state"], resumedMidListing: boolean, checkpoint?: CheckpointState): DryRunSlice => ({
  dataset: dataset.name,
  slice: slice.id,
  params: slice.params,
  state,
  atLeastRequests: state === "final" || resumedMidListing || KEYS_FROM_OUTPUT.includes(dataset.name) ? 0 : 1,
  holes: checkpoint === undefined ? 0 : (openHoles(checkpoint) ?? null),
  holeKeys: checkpoint?.holeKeys?.slice(0, SHOWN_HOLE_KEYS) ?? []
})

/** Holes summed; null when some are not counted. */
const sum = (holes: ReadonlyArray<number | null>): number | null => (holes.some((h) => h === null) ? null : holes.reduce<number>((n, h) => n + (h ?? 0), 0))

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
        if (isFinal(state, slice, dataset.rerun)) return sliceOf(dataset, slice, "final", false, state)
        // a finished slice that reruns starts from its first page again (one with holes to ask
        // for them again); an interrupted one from its cursor
        if (state.status === "done") return sliceOf(dataset, slice, openHoles(state) === 0 ? "rerun" : "retry", false, state)
        return sliceOf(dataset, slice, "resume", state.cursor !== null, state)
      })
      all.push(...these)
      lines.push({
        dataset: dataset.name,
        slices: these.length,
        crawl: these.filter((s) => s.state !== "final").length,
        final: these.filter((s) => s.state === "final").length,
        atLeastRequests: these.reduce((n, s) => n + s.atLeastRequests, 0),
        holes: sum(these.map((s) => s.holes))
      })
    }
    return { asOf, datasets: lines, slices: all, atLeastRequests: lines.reduce((n, l) => n + l.atLeastRequests, 0) } satisfies DryRun
  })

/** What the run will do with a slice, as the plan shows it. */
const will = (s: DryRunSlice): string => {
  if (s.state === "final") return "skip (final)"
  if (s.state !== "retry") return s.state
  const keys = s.holeKeys.length === 0 ? "" : `: ${s.holeKeys.slice(0, 5).join(", ")}${(s.holes ?? 0) > 5 ? ", …" : ""}`
  return `retry (${s.holes ?? "?"} holes${keys})`
}

const showParams = (params: Readonly<Record<string, string>>): string =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ")

export const printPlan = (dry: DryRun, json: boolean, pace?: DryRunPace): void => {
  if (json) {
    console.log(JSON.stringify(pace === undefined ? dry : { ...dry, estimate: pace.estimate, probes: pace.probes, probeFailures: pace.failures }, null, 2))
    return
  }
  if (dry.slices.length > 0) {
    console.log(table(["dataset", "slice", "will", "requests (at least)"], dry.slices.map((s) => [s.dataset, showParams(s.params), will(s), s.atLeastRequests])))
    console.log("")
  }
  console.log(
    table(
      ["dataset", "slices", "to crawl", "final", "requests (at least)", "holes"],
      dry.datasets.map((l) => [l.dataset, l.slices, l.crawl, l.final, l.atLeastRequests, l.holes === null ? "?" : l.holes === 0 ? "" : String(l.holes)])
    )
  )
  const holes = sum(dry.datasets.map((l) => l.holes))
  if (holes !== 0) {
    console.log(`\nholes: ${holes ?? "some (not counted yet by an older checkpoint)"} rejected record(s) not written since; their slices are not complete and the run asks for them again`)
  }
  const crawl = dry.datasets.reduce((n, l) => n + l.crawl, 0)
  console.log(
    `\ndry run as of ${isoSeconds(dry.asOf)}: ${dry.datasets.length} datasets, ${crawl} slices to crawl, at least ${dry.atLeastRequests} requests ` +
      `(a slice's first request; none for a final slice, a fan-out whose keys come from the output, or a slice resumed mid-listing); ` +
      (pace === undefined || pace.offline || pace.probes.length === 0 ? "nothing was fetched or written" : `${pace.probes.length} first page(s) were read to measure the pace; nothing was written`)
  )
  if (pace !== undefined) console.log(`\n${paceLines(pace).join("\n")}`)
}
