/**
 * Long listings cut into windows of their own. A listing is sequential (each page's token comes
 * from the page before), so a window of L pages takes at least L round trips however many requests
 * are in flight, and the run is bound by max(requests / rate, longest listing × round trip)
 * (src/pace/Bound.ts). A backfill's new window whose first page says it holds more pages than the rate's
 * part of the wall time leaves room for is cut, before anything is fetched, into 2, 4, 8… equal
 * windows: each its own slice with its own checkpoint, crawled side by side.
 *
 * - **Rules.** Only a window no checkpoint names yet (a known one resumes its own listing and
 *   keeps its bounds), and only as far as pieces of at least MIN_PIECE_SECONDS, MAX_PIECES at most.
 *   The pieces tile the window exactly, so the windows a later run plans around them (Windows.ts:
 *   gaps between the checkpoints' windows) never overlap: a run killed before a piece started
 *   plans the rest of the window as a gap, cut again if its first page says so.
 * - **Memory.** The planned slices and one guess each.
 * - **Failure modes.** Without a measured round trip (no probe answered) nothing is cut; a guess
 *   that was wrong only leaves a piece longer or shorter than meant, never a row out.
 */
import type { Slice } from "./Slice.ts"
import { makeSlice } from "./Slice.ts"
import { FROM, type Interval, TO, windowOf } from "./Windows.ts"
import { isoSeconds } from "../Time.ts"
import { likelyPages, type PagesGuess } from "../pace/Estimate.ts"

/** Shorter windows than this are not made: a second's blocks are never worth a listing of their own. */
export const MIN_PIECE_SECONDS = 60
export const MAX_PIECES = 64

/** A listing shorter than this (its pages × the round trip) is never cut: the backfill's start and its slices' fixed cost would eat what cutting saves. */
export const MIN_LISTING_SECONDS = 60

/**
 * Pages one listing may take without setting the run's wall time: the rate's part of it
 * (requests / rate) in round trips, and never fewer than `minSeconds` of round trips.
 */
export const listingCap = (requests: number, rate: number, roundTripMs: number, minSeconds = MIN_LISTING_SECONDS): number =>
  rate <= 0 || roundTripMs <= 0
    ? Number.POSITIVE_INFINITY
    : Math.max(1, Math.floor(requests / rate / (roundTripMs / 1000)), Math.floor(minSeconds / (roundTripMs / 1000)))

/** How many equal pieces (a power of two) a window of `seconds` holding `likely` pages is cut into, so that each likely holds at most `cap`. */
export const piecesOf = (likely: number, cap: number, seconds: number): number => {
  let n = 1
  while (likely / n > cap && n * 2 <= MAX_PIECES && Math.floor(seconds / (n * 2)) >= MIN_PIECE_SECONDS) n *= 2
  return n
}

/** [from, to) in `n` consecutive pieces of whole seconds that tile it exactly. */
export const tile = (w: Interval, n: number): ReadonlyArray<Interval> =>
  Array.from({ length: n }, (_, k) => ({ from: w.from + Math.floor(((w.to - w.from) * k) / n), to: k === n - 1 ? w.to : w.from + Math.floor(((w.to - w.from) * (k + 1)) / n) }))

/** A window's slice as `n` slices of its pieces, each final as long after its own end as the window was after its end. */
export const cutSlice = (slice: Slice, n: number): ReadonlyArray<Slice> => {
  const w = windowOf(slice.params)
  if (w === undefined || n <= 1) return [slice]
  return tile(w, n).map((p) => {
    const params = { ...slice.params, [FROM]: isoSeconds(p.from), [TO]: isoSeconds(p.to) }
    const piece = makeSlice(slice.dataset, params, slice.finalAfter === undefined ? undefined : slice.finalAfter - (w.to - p.to))
    return { ...piece, fetchFrom: p.from }
  })
}

/** A piece's pages from its window's: its share of the likely and the most, one at least. */
export const pieceGuess = (g: PagesGuess, n: number): PagesGuess =>
  n <= 1 ? g : { low: 1, high: Math.max(1, Math.ceil(g.high / n)), likely: Math.max(1, Math.ceil(likelyPages(g) / n)) }

export interface Cut {
  readonly slices: ReadonlyArray<Slice>
  /** Each slice's guess (the pieces' included). */
  readonly guesses: ReadonlyMap<string, PagesGuess>
  /** Windows cut, and the slices they became. */
  readonly cut: number
  readonly into: number
}

/**
 * The slices with every new window whose likely pages pass `cap` cut into pieces. `known`: the
 * ids of slices a checkpoint names (left as they are); a slice without a guess is left too.
 */
export const cutLongListings = (slices: ReadonlyArray<Slice>, guesses: ReadonlyMap<string, PagesGuess>, cap: number, known: ReadonlySet<string>): Cut => {
  const out: Slice[] = []
  const guessed = new Map(guesses)
  let cut = 0
  let into = 0
  for (const s of slices) {
    const g = guesses.get(s.id)
    const w = windowOf(s.params)
    const fresh = w !== undefined && !known.has(s.id) && (s.fetchFrom === undefined || s.fetchFrom === w.from)
    const n = g === undefined || !fresh ? 1 : piecesOf(likelyPages(g), cap, w.to - w.from)
    if (n === 1) {
      out.push(s)
      continue
    }
    const pieces = cutSlice(s, n)
    for (const p of pieces) guessed.set(p.id, pieceGuess(g!, n))
    guessed.delete(s.id)
    out.push(...pieces)
    cut++
    into += pieces.length
  }
  return { slices: out, guesses: guessed, cut, into }
}
