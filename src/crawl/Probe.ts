/**
 * What a listing's first page says of it before a run: windows spread over each windowed
 * listing's time (network, chain…; the newest whole one among them) are asked for their first
 * page, up to PROBES per dataset. The least answer's time is the round trip, and the time a page's
 * records cover says how many pages its window takes; the other windows are likely what the probed
 * ones around them were, at most the densest (src/pace/Estimate.ts). Used by the dry run's
 * estimate (src/cli/dryRunPace.ts), which drops the pages, and by a backfill that cuts its long
 * listings (SplitListings.ts), which keeps each window's first page for its crawl (ProbedPages.ts);
 * a window's other end is asked over a stretch no slice lists, so that page is always dropped.
 */
import { Type } from "apache-arrow/enum"
import { Clock, Effect, Either } from "effect"
import type { AnyDataset } from "./Dataset.ts"
import { isoSeconds } from "../Time.ts"
import { makeSlice, type Slice } from "./Slice.ts"
import { baseOf, FROM, TO, windowOf } from "./Windows.ts"
import { type DatasetGuess, interpolate, likelyPages, pagesFromFirstPage, type PagesGuess, spread } from "../pace/Estimate.ts"
import { stagesOf, startOrder } from "../pace/Order.ts"
import { statsScope } from "../source/SourceStats.ts"
import { withPageSources } from "./PageSources.ts"
import { type ProbedPages, probeScope } from "./ProbedPages.ts"

/** First pages asked per dataset at most. */
export const PROBES = 32

/** Seconds since the epoch of a row's time column (a Date, microseconds, or ISO text). */
const secondsOf = (v: unknown): number | undefined => {
  if (v instanceof Date) return v.getTime() / 1000
  if (typeof v === "bigint") return Number(v) / 1e6
  if (typeof v === "number") return v > 1e14 ? v / 1e6 : v > 1e11 ? v / 1e3 : v
  if (typeof v === "string") {
    const t = Date.parse(v)
    return Number.isNaN(t) ? undefined : t / 1000
  }
  return undefined
}

/** The row's time: block_timestamp where there is one, else the schema's first timestamp column. */
const timeColumn = (dataset: AnyDataset): string | undefined => {
  const times = dataset.schema.fields.filter((f) => f.type.typeId === Type.Timestamp).map((f) => f.name)
  return times.includes("block_timestamp") ? "block_timestamp" : times[0]
}

const windowSeconds = (slice: Slice): number | undefined => {
  const w = windowOf(slice.params)
  return w === undefined ? undefined : w.to - w.from
}

interface Probe {
  readonly ms: number
  readonly pages: PagesGuess
  /** Whether its first page was asked now (not one `keep` held from an earlier probe). */
  readonly asked: boolean
}

/** The rows' times of a page of `slice`, where its rows have a time column. */
const timesOf = (dataset: AnyDataset, slice: Slice, records: ReadonlyArray<unknown>): ReadonlyArray<number> => {
  const column = timeColumn(dataset)
  if (column === undefined) return []
  return records.flatMap((r) => {
    const row = Either.try(() => dataset.toRow(r, slice))
    const t = Either.isRight(row) ? secondsOf(row.right[column]) : undefined
    return t === undefined ? [] : [t]
  })
}

/** A first page covering less than this share of its window has the window's other end asked too. */
const OTHER_END_BELOW = 0.5

/**
 * The first page of `slice`: its round trip and what it says of the window's pages. When it covers
 * less than half its window, the window's other end is asked for its first page over as long a
 * stretch (a second request, unless `otherEnd` is false): a dense end alone would say the whole
 * window is as dense. With `keep`, the first page is kept for the slice's crawl, its request
 * counted under the probe's own scope (ProbedPages.ts), and a page it already holds is not asked
 * again.
 */
const firstPage = (dataset: AnyDataset, slice: Slice, keep: ProbedPages | undefined) =>
  Effect.gen(function* () {
    const held = keep?.peek(dataset.name, slice)
    if (held !== undefined) return { page: held.page, ms: held.ms, asked: false }
    const t0 = yield* Clock.currentTimeMillis
    if (keep === undefined) {
      const page = yield* dataset.listing.fetch(slice, undefined)
      return { page, ms: (yield* Clock.currentTimeMillis) - t0, asked: true }
    }
    const [page, sources] = yield* withPageSources(dataset.listing.fetch(slice, undefined)).pipe(Effect.locally(statsScope, probeScope(dataset.name, slice)))
    const receivedAt = yield* Clock.currentTimeMillis
    keep.put(dataset.name, slice, { page, sources, receivedAt, ms: receivedAt - t0 })
    return { page, ms: receivedAt - t0, asked: true }
  })

const probe = (dataset: AnyDataset, slice: Slice, otherEnd: boolean, keep: ProbedPages | undefined) =>
  Effect.gen(function* () {
    const { page, ms, asked } = yield* firstPage(dataset, slice, keep)
    const times = timesOf(dataset, slice, page.records)
    const covered = times.length < 2 ? undefined : Math.max(...times) - Math.min(...times)
    const w = windowOf(slice.params)
    const windowS = w === undefined ? undefined : w.to - w.from
    if (!otherEnd || page.next === undefined || w === undefined || covered === undefined || covered <= 0 || covered >= (w.to - w.from) * OTHER_END_BELOW) {
      return { ms, asked, pages: pagesFromFirstPage(page.next !== undefined, windowS, covered) } satisfies Probe
    }
    // the first page lies at the window's end nearer its times: the other stretch is at the far end
    const atEnd = w.to - Math.max(...times) <= Math.min(...times) - w.from
    const span = Math.ceil(covered)
    const other = atEnd ? { from: w.from, to: w.from + span } : { from: w.to - span, to: w.to }
    const far = { ...makeSlice(slice.dataset, { ...slice.params, [FROM]: isoSeconds(other.from), [TO]: isoSeconds(other.to) }), fetchFrom: other.from }
    const answer = yield* Effect.either(dataset.listing.fetch(far, undefined))
    const ratio = Either.isLeft(answer) ? undefined : timesOf(dataset, far, answer.right.records).filter((t) => t >= other.from && t < other.to).length / times.length
    return { ms, asked, pages: pagesFromFirstPage(true, windowS, covered, ratio) } satisfies Probe
  })

/**
 * Per dataset the slices the run crawls, guessed from the probes (or from the plan alone when
 * offline). `crawled`: the slices of a dataset the run will list, with the requests each makes at
 * least (a final window, not listed, is absent). `keep`: where the probed first pages go for the
 * crawl (ProbedPages.ts); without it they are dropped. `roundTrips` has the first pages asked now.
 */
export const guessPages = (
  planned: ReadonlyArray<{ readonly dataset: AnyDataset; readonly slices: ReadonlyArray<Slice> }>,
  crawled: (dataset: string) => ReadonlyMap<string, number>,
  offline: boolean,
  otherEnd = true,
  keep?: ProbedPages
) =>
  Effect.gen(function* () {
    const roundTrips: number[] = []
    const failures: string[] = []
    const datasets: DatasetGuess[] = []
    const bySlice = new Map<string, PagesGuess>()
    // the run crawls its datasets side by side, a reader of another's output after it
    const stages = stagesOf(planned.map((p) => p.dataset))
    for (const [d, { dataset, slices }] of planned.entries()) {
      const listed = crawled(dataset.name)
      const mine = slices.filter((s) => listed.has(s.id))
      const byListing = new Map<string, Slice[]>()
      for (const i of startOrder(mine)) {
        const s = mine[i]!
        const key = baseOf(s.params)
        const ws = byListing.get(key)
        if (ws === undefined) byListing.set(key, [s])
        else ws.push(s)
      }
      // windows spread over each listing's time (its newest whole one among them), PROBES in all
      const listingsInTime = [...byListing.values()].map((ws) => [...ws].reverse())
      const longestOf = listingsInTime.map((ws) => Math.max(...ws.map((w) => windowSeconds(w) ?? 0)))
      const perListing = Math.max(1, Math.floor(PROBES / Math.max(1, listingsInTime.length)))
      const picks = offline || dataset.windows === undefined
        ? []
        : listingsInTime.flatMap((ws, l) => {
            const longest = longestOf[l]!
            const whole = ws.flatMap((w, i) => ((windowSeconds(w) ?? 0) === longest ? [i] : []))
            return spread(whole.length, perListing).map((j) => ws[whole[j]!]!)
          }).slice(0, PROBES)
      const probed = new Map<string, Probe>()
      const results = yield* Effect.forEach(picks, (s) => Effect.either(probe(dataset, s, otherEnd, keep)), { concurrency: "unbounded" })
      results.forEach((r, i) => {
        if (Either.isRight(r)) {
          probed.set(picks[i]!.id, r.right)
          if (r.right.asked) roundTrips.push(r.right.ms)
        } else failures.push(`${dataset.name}: ${r.left.message}`)
      })
      // a listing not probed is guessed as the densest probed window of its dataset at most
      const densest = Math.max(1, ...[...probed.values()].map((p) => p.pages.high))
      const listings = listingsInTime.flatMap((ws, l) => {
        const here = new Map(ws.flatMap((w, i) => { const p = probed.get(w.id); return p === undefined ? [] : [[i, p.pages] as const] }))
        const high = here.size > 0 ? Math.max(...[...here.values()].map((p) => p.high)) : probed.size > 0 ? densest : 1
        const longest = longestOf[l]!
        const between = interpolate(ws.length, new Map([...here].map(([i, p]) => [i, likelyPages(p)])))
        return ws.map((w, i): PagesGuess => {
          const asked = here.get(i)
          if (asked !== undefined) return bySlice.set(w.id, asked) && asked
          const low = Math.max(listed.get(w.id) ?? 0, 0)
          const near = between[i]
          // a window shorter than the listing's others (a range's last) by its share of their length
          const share = longest > 0 ? (windowSeconds(w) ?? longest) / longest : 1
          const g: PagesGuess = near === undefined ? { low, high: Math.max(low, high) } : { low, high: Math.max(low, high), likely: Math.min(Math.max(low, high), Math.max(low, Math.round(near * share))) }
          bySlice.set(w.id, g)
          return g
        })
      })
      datasets.push({ dataset: dataset.name, listings, stage: stages[d]! })
    }
    return { datasets, bySlice, roundTrips, failures }
  })

