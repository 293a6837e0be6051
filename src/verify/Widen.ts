/**
 * The refetch a verify failure names, widened to what `backfill --refetch` takes whole: a window
 * some compacted file holds rows of is refetched with every window that file holds (RefetchScope.ts
 * says why), so the printed command and `--repair` ask for a range the refetch accepts. Read
 * only: the files' manifests and the checkpoints verify has already read.
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { parseInstant } from "../Time.ts"
import type { Finding, Repair } from "./Finding.ts"
import { commonSize, compactedOf, type HeldTogether, refetchScope, type WindowOfSlice, windowsOf } from "./RefetchScope.ts"
import { durationText, instantText } from "./Windows.ts"

/** Each windowed refetch of `findings` over the range that takes its compacted files whole. */
export const widenRefetches = async (out: string, datasets: ReadonlyArray<AnyDataset>, checkpoints: ReadonlyArray<CheckpointState>, findings: ReadonlyArray<Finding>): Promise<ReadonlyArray<Finding>> => {
  const facts = new Map<string, { windows: ReadonlyArray<WindowOfSlice>; compacted: ReadonlyArray<HeldTogether> }>()
  const widened: Finding[] = []
  for (const f of findings) {
    const r = f.repair
    const d = datasets.find((x) => x.name === f.dataset)
    const from = r?.kind === "backfill" && r.refetch === true ? parseInstant(r.from) : undefined
    const to = r?.kind === "backfill" && r.refetch === true ? parseInstant(r.to) : undefined
    if (r?.kind !== "backfill" || d?.windows === undefined || from === undefined || to === undefined) {
      widened.push(f)
      continue
    }
    let known = facts.get(d.name)
    if (known === undefined) {
      known = { windows: windowsOf(checkpoints.filter((c) => c.dataset === d.name)), compacted: (await compactedOf(out, d)).compacted }
      facts.set(d.name, known)
    }
    const scope = refetchScope({ from, to }, known.windows, known.compacted)
    if (scope.from === from && scope.to === to) {
      widened.push(f)
      continue
    }
    const size = commonSize(scope.windows)
    const { window: _, ...rest } = r
    const repair: Repair = { ...rest, from: instantText(scope.from), to: instantText(scope.to), ...(size === undefined ? {} : { window: durationText(size) }) }
    const held = scope.files.map((x) => `${x.table}/${x.file}`).join(", ")
    widened.push({ ...f, repair, ...(held === "" ? {} : { what: `${f.what} (re-crawled with the windows compacted with it in ${held})` }) })
  }
  return widened
}
