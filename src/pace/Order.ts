/**
 * The order a run's slices start in. A listing is sequential, so the slice with the most pages
 * sets the wall time unless it starts early; a chain's activity grows over the years, so the
 * newest windows are the longest listings (in the emulator's and the real networks' histories
 * alike): the newest windows start first, those of every dataset of a stage together, since the
 * datasets' slices share one pool. Windows end at `to`, a UTC instant or a block height; slices
 * without one keep their place after the windows. Only the start order changes: results are
 * still reported in plan order.
 *
 * A dataset that reads another's output (DatasetDef.readsOutputOf: a fan-out over the keys it
 * found) is in a later stage than it, and its slices start after all of the earlier stages' have
 * started, so that waiting for them never holds a place they need.
 */

/** `a` before `b` when its `to` is later: instants compare as text, heights by length first. */
const later = (a: string, b: string): number => (a.length !== b.length && /^\d+$/.test(a) && /^\d+$/.test(b) ? b.length - a.length : b < a ? -1 : b > a ? 1 : 0)

type Params = { readonly params: Readonly<Record<string, string>> }

/** Indices of `slices` in the order they start. */
export const startOrder = (slices: ReadonlyArray<Params>): ReadonlyArray<number> =>
  slices
    .map((s, i) => ({ i, to: s.params["to"] }))
    .sort((a, b) => (a.to === undefined || b.to === undefined ? (a.to === undefined ? 1 : 0) - (b.to === undefined ? 1 : 0) || a.i - b.i : later(a.to, b.to) || a.i - b.i))
    .map((e) => e.i)

export interface Reader {
  readonly name: string
  readonly readsOutputOf?: ReadonlyArray<string>
}

/** Indices of the datasets among `datasets` whose output each one reads (the others are not in this run: nothing to wait for). */
export const prerequisites = (datasets: ReadonlyArray<Reader>): ReadonlyArray<ReadonlyArray<number>> => {
  const index = new Map(datasets.map((d, i) => [d.name, i]))
  return datasets.map((d) => (d.readsOutputOf ?? []).flatMap((n) => (index.has(n) && n !== d.name ? [index.get(n)!] : [])))
}

/** Each dataset's stage: 0 when it reads no other's output in this run, else one past the highest stage of those it reads. */
export const stagesOf = (datasets: ReadonlyArray<Reader>): ReadonlyArray<number> => {
  const before = prerequisites(datasets)
  const stages: Array<number | undefined> = datasets.map(() => undefined)
  const stageOf = (i: number, path: ReadonlyArray<number>): number => {
    if (path.includes(i)) throw new Error(`datasets read each other's output in a cycle: ${[...path, i].map((k) => datasets[k]!.name).join(" → ")}`)
    const known = stages[i]
    if (known !== undefined) return known
    const s = before[i]!.reduce((n, k) => Math.max(n, stageOf(k, [...path, i]) + 1), 0)
    stages[i] = s
    return s
  }
  return datasets.map((_, i) => stageOf(i, []))
}

/** The run's slices, as [dataset index, slice index], in the order they start: by stage, then newest windows first across the stage's datasets. */
export const runOrder = (plan: ReadonlyArray<{ readonly dataset: Reader; readonly slices: ReadonlyArray<Params> }>): ReadonlyArray<readonly [number, number]> => {
  const stages = stagesOf(plan.map((p) => p.dataset))
  return [...new Set(stages)]
    .sort((a, b) => a - b)
    .flatMap((stage) => {
      const all = plan.flatMap((p, d) => (stages[d] === stage ? p.slices.map((s, i) => ({ at: [d, i] as const, params: s.params })) : []))
      return startOrder(all).map((k) => all[k]!.at)
    })
}
