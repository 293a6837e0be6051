/**
 * The order a dataset's slices start in: the newest windows first. A listing is sequential, so
 * the slice with the most pages sets the wall time unless it starts early; a chain's activity
 * grows over the years, so the newest windows are the longest listings (in the emulator's and the
 * real networks' histories alike). Windows end at `to`, a UTC instant or a block height; slices
 * without one keep their place after the windows. Only the start order changes: results are
 * still reported in plan order.
 */

/** `a` before `b` when its `to` is later: instants compare as text, heights by length first. */
const later = (a: string, b: string): number => (a.length !== b.length && /^\d+$/.test(a) && /^\d+$/.test(b) ? b.length - a.length : b < a ? -1 : b > a ? 1 : 0)

/** Indices of `slices` in the order they start. */
export const startOrder = (slices: ReadonlyArray<{ readonly params: Readonly<Record<string, string>> }>): ReadonlyArray<number> =>
  slices
    .map((s, i) => ({ i, to: s.params["to"] }))
    .sort((a, b) => (a.to === undefined || b.to === undefined ? (a.to === undefined ? 1 : 0) - (b.to === undefined ? 1 : 0) || a.i - b.i : later(a.to, b.to) || a.i - b.i))
    .map((e) => e.i)
