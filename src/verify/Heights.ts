/**
 * Heights: a chain has a block at every height, so a listing's heights from its lowest expected
 * one to its highest must all be there. What is absent comes as exact ranges (bigint: heights
 * never pass through a JS number): the gaps between the runs of consecutive heights the output
 * holds, the heights below the first run that a walk was asked for, the rejected heights its
 * checkpoints still count as holes above the highest written one, and the heights between the
 * highest held and the highest its checkpoints say were written (a lost part at the top of a
 * walk leaves no gap below it). Pure.
 */

/** A run of consecutive heights the output holds, with the block times at its ends (Unix seconds) where known. */
export interface Island {
  readonly lo: bigint
  readonly hi: bigint
  readonly loTime?: number
  readonly hiTime?: number
}

/** Heights [from, to] (both included) absent, with the times of the blocks around them where known. */
export interface HeightGap {
  readonly from: bigint
  readonly to: bigint
  /** Time of the block just below the gap. */
  readonly after?: number
  /** Time of the block just above it. */
  readonly before?: number
  /** Above every height held: only the checkpoints say these were written. */
  readonly top?: true
}

const asc = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

/** Consecutive heights as ranges. */
export const rangesOf = (heights: ReadonlyArray<bigint>): ReadonlyArray<readonly [bigint, bigint]> => {
  const sorted = [...new Set(heights)].sort(asc)
  const out: Array<[bigint, bigint]> = []
  for (const h of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && h === last[1] + 1n) last[1] = h
    else out.push([h, h])
  }
  return out
}

/**
 * The heights absent from a listing: `islands` ascending and disjoint, `holes` the rejected
 * heights its checkpoints count (written ones are in an island and drop out), `floor` the lowest
 * height it was asked for, when it says; `ceiling` the highest height its checkpoints say it wrote,
 * when they say.
 */
export const missingHeights = (islands: ReadonlyArray<Island>, holes: ReadonlyArray<bigint> = [], floor?: bigint, ceiling?: bigint): ReadonlyArray<HeightGap> => {
  const gaps: HeightGap[] = []
  const first = islands[0]
  if (first !== undefined && floor !== undefined && floor < first.lo) gaps.push({ from: floor, to: first.lo - 1n, ...(first.loTime === undefined ? {} : { before: first.loTime }) })
  for (let i = 1; i < islands.length; i++) {
    const a = islands[i - 1]!
    const b = islands[i]!
    if (b.lo > a.hi + 1n) {
      gaps.push({ from: a.hi + 1n, to: b.lo - 1n, ...(a.hiTime === undefined ? {} : { after: a.hiTime }), ...(b.loTime === undefined ? {} : { before: b.loTime }) })
    }
  }
  const covered = (h: bigint) => islands.some((s) => h >= s.lo && h <= s.hi) || gaps.some((g) => h >= g.from && h <= g.to)
  const last = islands[islands.length - 1]
  const above = last === undefined ? (floor ?? 0n) : last.hi + 1n
  if (ceiling !== undefined && ceiling >= above) gaps.push({ from: above, to: ceiling, top: true, ...(last?.hiTime === undefined ? {} : { after: last.hiTime }) })
  for (const [from, to] of rangesOf(holes.filter((h) => !covered(h)))) gaps.push({ from, to, ...(last?.hiTime === undefined || from < last.hi ? {} : { after: last.hiTime }) })
  return gaps.sort((a, b) => asc(a.from, b.from))
}

/** How many heights the gaps leave out. */
export const countOf = (gaps: ReadonlyArray<HeightGap>): bigint => gaps.reduce((n, g) => n + g.to - g.from + 1n, 0n)

/** `5`, `7-9`: a gap as people read heights. */
export const gapText = (g: Pick<HeightGap, "from" | "to">): string => (g.from === g.to ? String(g.from) : `${g.from}-${g.to}`)
