/**
 * A backfill's plan with its long listings cut (Split.ts), from what the windows' first pages say
 * (Probe.ts): the round trip is the least probe's, the cap the pages a listing may take within the
 * rate's part of the run's wall time (the likely requests of the whole plan over `rate`), and never
 * under `minSeconds` of round trips. Only when the newest whole new window of some listing (the densest,
 * mostly) would take longer than `minSeconds` is anything cut. The dry run cuts the same way
 * (src/cli/dryRunPace.ts), so its estimate is of the plan the backfill will crawl.
 */
import { Effect } from "effect"
import { likelyPages, type PagesGuess } from "../pace/Estimate.ts"
import type { AnyDataset } from "./Dataset.ts"
import { guessPages } from "./Probe.ts"
import type { ProbedPages } from "./ProbedPages.ts"
import type { Slice } from "./Slice.ts"
import { cutLongListings, listingCap, MIN_LISTING_SECONDS } from "./Split.ts"
import { baseOf, windowOf } from "./Windows.ts"

type Planned = { readonly dataset: AnyDataset; readonly slices: ReadonlyArray<Slice>; readonly checkpointed?: ReadonlySet<string> }

export interface PlanCut<P> {
  readonly plan: ReadonlyArray<P>
  /** Every listed slice's guess, the pieces' included. */
  readonly guesses: ReadonlyMap<string, PagesGuess>
  /** Windows cut, and the slices they became. */
  readonly cut: number
  readonly into: number
}

/**
 * Each listing's newest whole window among `fresh` (a dataset's new windows): the newest of its
 * longest, the one probed first. Not a range's last window when that one is shorter (a `--to` off
 * the windows' grid): a day's stub says little of its 14-day neighbours, and a whole window is
 * the listing the crawl waits on longest, whose first page the probe then hands it.
 */
export const newestWindows = (slices: ReadonlyArray<Slice>, fresh: ReadonlySet<string>): ReadonlySet<string> => {
  const seconds = (s: Slice) => { const w = windowOf(s.params)!; return w.to - w.from }
  const best = new Map<string, Slice>()
  for (const s of slices) {
    const w = windowOf(s.params)
    if (w === undefined || !fresh.has(s.id)) continue
    const at = best.get(baseOf(s.params))
    const longer = at === undefined || seconds(s) > seconds(at)
    if (longer || (seconds(s) === seconds(at) && w.from > windowOf(at.params)!.from)) best.set(baseOf(s.params), s)
  }
  return new Set([...best.values()].map((s) => s.id))
}

/** Whether any of `guesses` (the newest windows') takes longer than `minSeconds` of round trips: then cutting may pay. */
export const worthCutting = (guesses: Iterable<PagesGuess>, roundTripMs: number | null, minSeconds: number): boolean =>
  roundTripMs !== null && [...guesses].some((g) => (likelyPages(g) * roundTripMs) / 1000 > minSeconds)

/** `planned` with the listed new windows past the cap cut (pure); `fresh`: a dataset's new windows. */
export const cutPlan = <P extends Planned>(planned: ReadonlyArray<P>, guesses: ReadonlyMap<string, PagesGuess>, fresh: (dataset: string) => ReadonlySet<string>, cap: number): PlanCut<P> => {
  // each dataset's cut takes the guesses as the ones before left them (their slices are its own)
  let all = guesses
  let cut = 0
  let into = 0
  const plan = planned.map((p) => {
    const mine = fresh(p.dataset.name)
    const known = new Set(p.slices.filter((s) => !mine.has(s.id)).map((s) => s.id))
    const c = cutLongListings(p.slices, all, cap, known)
    if (c.cut === 0) return p
    all = c.guesses
    cut += c.cut
    into += c.into
    return { ...p, slices: c.slices }
  })
  return { plan, guesses: all, cut, into }
}

/** The cap over a plan's guesses (listingCap). */
export const capOf = (guesses: ReadonlyMap<string, PagesGuess>, rate: number, roundTripMs: number, minSeconds: number): number =>
  listingCap([...guesses.values()].reduce((n, g) => n + likelyPages(g), 0), rate, roundTripMs, minSeconds)

/**
 * A backfill's plan with its new windows cut where their first page says their listing alone
 * would set the wall time (Runner.ts, before the crawl); a window a checkpoint names keeps its
 * bounds (`checkpointed`, read when the plan was made). The probes are asked in two steps: the
 * newest whole new window of each listing first (its first page alone), and windows spread over the
 * range (up to Probe.ts's PROBES a dataset, a long window's other end too) only when worthCutting
 * says so. With `keep`, each window's first page is kept for its crawl (ProbedPages.ts; a window
 * cut into pieces has its page dropped when the crawl starts) and the spread step does not ask a
 * window the first step asked again: a backfill whose listings are short then pays nothing
 * beyond the probes' round trip. Without it the pages are dropped (one request a listing more).
 */
export const cutBackfill = <P extends Planned>(plan: ReadonlyArray<P>, rate: number, minSeconds = MIN_LISTING_SECONDS, keep?: ProbedPages) =>
  Effect.gen(function* () {
    const fresh = new Map<string, ReadonlySet<string>>()
    const newest = new Map<string, ReadonlyMap<string, number>>()
    for (const { dataset, slices, checkpointed } of plan) {
      if (dataset.windows === undefined) continue
      const named = checkpointed ?? new Set<string>()
      const mine = new Set(slices.filter((s) => !named.has(s.id) && windowOf(s.params) !== undefined).map((s) => s.id))
      fresh.set(dataset.name, mine)
      newest.set(dataset.name, new Map([...newestWindows(slices, mine)].map((id) => [id, 1])))
    }
    const none = new Set<string>()
    // one request a listing: its first page alone, which if anything overstates the window
    const first = yield* guessPages(plan, (d) => newest.get(d) ?? new Map(), false, false, keep)
    const firstTrip = first.roundTrips.length === 0 ? null : Math.min(...first.roundTrips)
    if (!worthCutting(first.bySlice.values(), firstTrip, minSeconds)) return plan
    const listed = (d: string) => new Map([...(fresh.get(d) ?? none)].map((id) => [id, 1]))
    const spread = yield* guessPages(plan, listed, false, true, keep)
    const guesses = spread.bySlice
    const roundTripMs = Math.min(firstTrip!, ...spread.roundTrips)
    const c = cutPlan(plan, guesses, (d) => fresh.get(d) ?? none, capOf(guesses, rate, roundTripMs, minSeconds))
    if (c.cut > 0) {
      const pages = first.roundTrips.length + spread.roundTrips.length
      yield* Effect.logInfo(`${c.cut} window(s) whose listing alone would set the wall time (round trip ${Math.round(roundTripMs)} ms) cut into ${c.into} before the crawl; ${pages} first page(s) asked to tell`)
    }
    return c.plan
  })
