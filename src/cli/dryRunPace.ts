/**
 * What `--dry-run` says of a run's pace: the requests it will make (at least, likely, at most),
 * the allowance it will use and the wall time that follows (src/pace/Estimate.ts). Unless
 * `--offline`, it asks windows spread over each windowed listing's time for their first page
 * (src/crawl/Probe.ts): the round trip, and how many pages each window takes. A backfill's long
 * listings are cut as the backfill will cut them (src/crawl/SplitListings.ts). Nothing is written;
 * the pages are read and dropped.
 */
import { Effect } from "effect"
import { allowedRate, type SourceSettings } from "../Config.ts"
import type { AnyDataset, SourceClients } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { coreShare } from "../pace/CoreShare.ts"
import { type DatasetGuess, type Estimate, estimate } from "../pace/Estimate.ts"
import { stagesOf } from "../pace/Order.ts"
import { guessPages } from "../crawl/Probe.ts"
import { MIN_LISTING_SECONDS } from "../crawl/Split.ts"
import { capOf, cutPlan, newestWindows, worthCutting } from "../crawl/SplitListings.ts"
import type { DryRun } from "./dryRun.ts"

export interface DryRunPace {
  readonly estimate: Estimate
  /** Round trips of the probes, ms. */
  readonly probes: ReadonlyArray<number>
  /** Probes that failed (the estimate then leans on the others, or on the plan alone). */
  readonly failures: ReadonlyArray<string>
  readonly offline: boolean
  /** Windows whose listing alone would set the wall time, cut before the crawl, and the windows they became. */
  readonly cut: { readonly windows: number; readonly into: number }
}

/**
 * The estimate of the planned run; the rate is CHAINETL_RATE_LIMIT, or the API keys' budgets
 * together. `cuts`: the run is a backfill of time windows, which cuts its long listings
 * (src/crawl/SplitListings.ts): the estimate is of the pieces.
 */
export const dryRunPace = (
  planned: ReadonlyArray<{ readonly dataset: AnyDataset; readonly slices: ReadonlyArray<Slice> }>,
  dry: DryRun,
  settings: SourceSettings,
  offline: boolean,
  cuts = false
): Effect.Effect<DryRunPace, never, SourceClients> =>
  Effect.gen(function* () {
    const rate = allowedRate(settings)
    const listed = (name: string) => new Map(dry.slices.filter((s) => s.dataset === name && s.state !== "final").map((s) => [s.slice, s.atLeastRequests]))
    const guessed = yield* guessPages(planned, listed, offline)
    const roundTripMs = guessed.roundTrips.length === 0 ? null : Math.min(...guessed.roundTrips)
    // the backfill's cut (src/crawl/SplitListings.ts): its new windows, gated by each listing's newest
    const fresh = (name: string) => new Set(dry.slices.filter((s) => s.dataset === name && s.state === "new").map((s) => s.slice))
    const newest = planned.flatMap((p) => [...newestWindows(p.slices, fresh(p.dataset.name))].flatMap((id) => guessed.bySlice.get(id) ?? []))
    const split = cuts && roundTripMs !== null && worthCutting(newest, roundTripMs, MIN_LISTING_SECONDS)
      ? cutPlan(planned, guessed.bySlice, fresh, capOf(guessed.bySlice, rate, roundTripMs, MIN_LISTING_SECONDS))
      : { plan: planned, guesses: guessed.bySlice, cut: 0, into: 0 }
    const stages = stagesOf(planned.map((p) => p.dataset))
    const datasets = split.plan.map((p, d): DatasetGuess => ({
      dataset: p.dataset.name,
      listings: p.slices.flatMap((s) => split.guesses.get(s.id) ?? []),
      stage: stages[d]!
    }))
    // after the probes: the busy loops would have delayed their answers, taken for round trips
    const e = estimate(datasets, rate, roundTripMs, yield* coreShare)
    return { estimate: e, probes: guessed.roundTrips, failures: guessed.failures, offline, cut: { windows: split.cut, into: split.into } }
  })

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export const paceLines = (p: DryRunPace): ReadonlyArray<string> => {
  const e = p.estimate
  const rt = e.roundTripMs === null
    ? p.offline ? "round trip not measured (--offline): the wall time is the rate's part alone, a lower bound" : `round trip not measured (no windowed dataset to probe${p.failures.length > 0 ? `; ${p.failures[0]}` : ""})`
    : `round trip ${Math.round(e.roundTripMs)} ms (least of ${p.probes.length} first page(s) asked)`
  return [
    `requests: at least ${e.requests.low}, likely ${e.requests.likely}, at most ${e.requests.high} (${p.probes.length} window(s) asked for their first page, the others interpolated between them)`,
    `allowance: ${e.rate} requests/s; ${rt}`,
    `wall time of the crawl: likely ${s(e.wallMs.likely)} (${s(e.wallMs.low)} – ${s(e.wallMs.high)}), bound by the ${e.by === "rate" ? "rate" : e.by === "CPU" ? "CPU" : "round trip of the longest listing"}, using ${Math.round(e.share * 100)} % of the allowance`,
    `CPU of the crawl: likely ${s(e.cpuMs)} (${e.requests.likely} requests, ${e.slices} slices); at the ${Math.round(e.coreShare * 100)} % of a core this process gets now, ${s(e.cpuMs / e.coreShare)} of wall time`,
    `a listing is sequential (each page's token comes from the page before): its longest, likely ${e.longestListing.likely} page(s), takes at least that many round trips however many requests are in flight`,
    ...(p.cut.windows === 0 ? [] : [`${p.cut.windows} window(s) whose listing alone would set the wall time are cut into ${p.cut.into} smaller ones before the crawl (the figures above are of those)`])
  ]
}
