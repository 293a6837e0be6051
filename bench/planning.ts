/**
 * What a nightly run pays before its first request once years of day windows are on disk:
 * planning the windowed datasets, and the model of `chainetl status`, over checkpoints held in
 * memory (reading the checkpoint files is I/O on top, one small JSON file per window). Prints
 * figures; asserts nothing.
 */
import { initialState, type CheckpointState } from "../src/crawl/Checkpoint.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import { planWindows } from "../src/crawl/Windows.ts"
import { statusOf } from "../src/status/model.ts"
import { isoSeconds } from "../src/Time.ts"

const DAY = 86_400

const flag = (args: ReadonlyArray<string>, name: string, fallback: number): number => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : fallback
}

const time = <A>(f: () => A): { readonly ms: number; readonly result: A } => {
  const t0 = performance.now()
  const result = f()
  return { ms: performance.now() - t0, result }
}

export const runPlanning = (args: ReadonlyArray<string>): void => {
  const years = flag(args, "--years", 6)
  const since = Date.UTC(2020, 8, 1) / 1000
  const days = Math.round((years * 365 * DAY) / DAY)
  const now = since + days * DAY + 2 * 3_600
  const bases = ["mainnet", "fuji"].flatMap((network) => ["p-chain", "x-chain", "c-chain"].map((blockchain) => ({ network, blockchain })))
  const existing: CheckpointState[] = []
  for (const base of bases) {
    for (let d = 0; d < days; d++) {
      const from = since + d * DAY
      const slice = makeSlice("primary_blocks", { ...base, from: isoSeconds(from), to: isoSeconds(from + DAY) })
      existing.push({ ...initialState(slice, "r"), status: "done", completedAsOf: from + 2 * DAY })
    }
  }
  const settings = { window: DAY, lookback: 3_600, since }
  const plan = time(() => planWindows({ dataset: "primary_blocks", bases, settings, existing, range: { from: since, to: now }, extendEnd: true }))
  const status = time(() => statusOf(existing, [], ["primary_blocks"]))
  console.log(`\nplanning ${existing.length} day windows on disk (${years} years × ${bases.length} listings)`)
  console.log(`  plan the nightly run: ${plan.ms.toFixed(0)} ms → ${plan.result.length} windows to crawl`)
  console.log(`  status model:         ${status.ms.toFixed(0)} ms → ${status.result.listings.length} listings`)
}
