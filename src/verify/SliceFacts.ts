/**
 * The slices check's facts (Slices.ts), read for one dataset: its parts and its rejects' parts
 * with their footers' row counts, the compacted files its manifests list, and each slice's
 * re-crawl. Which slices are judged here: every slice of a dataset that takes no range; a windowed
 * dataset's windows only where compaction merged their parts (the windows check counts the
 * others' rows itself); none of a height walk's (a backfill of missing heights plans cells of new
 * bounds, so a cell's checkpoint no longer counts what its heights hold: the heights check is the
 * one that sees a lost part there).
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { FROM, TO, windowOf } from "../crawl/Windows.ts"
import type { TableFiles } from "./Files.ts"
import type { Finding, Repair } from "./Finding.ts"
import type { Session } from "./Session.ts"
import { type SliceTable, sliceFindings } from "./Slices.ts"
import { durationText, instantText } from "./Windows.ts"

/** A listing that takes no range but fills what it lacks below its top (evm_blocks): mended by heights. */
export const fillsBelowTop = (d: AnyDataset): boolean => d.chain !== undefined && d.windows === undefined && d.backfill !== "height"

/**
 * A slice's re-crawl when its rows are wrong or lost: a window by the backfill that lists it again
 * whole, any other slice a height walk does not own by the run that crawls it again whole.
 */
export const sliceRepair = (d: AnyDataset, state: CheckpointState | undefined): Repair | undefined => {
  if (state === undefined || d.backfill === "height") return undefined
  if (d.windows === undefined) return { kind: "refetch-slice", dataset: d.name, slice: state.slice }
  const w = windowOf(state.params)
  return w === undefined ? undefined : { kind: "backfill", dataset: d.name, from: instantText(w.from), to: instantText(w.to), window: durationText(w.to - w.from), refetch: true }
}

const listingOf = (s: CheckpointState) => Object.fromEntries(Object.entries(s.params).filter(([k]) => k !== FROM && k !== TO))

/**
 * `files`: the dataset's own table first, then its child tables; `rejects`: its folder of `_rejects`.
 * `earlier`: the dataset's findings so far, whose height re-crawls mend a chain listing's count too.
 */
export const sliceChecks = async (
  session: Session,
  d: AnyDataset,
  states: ReadonlyArray<CheckpointState>,
  files: ReadonlyArray<TableFiles>,
  rejects: TableFiles,
  earlier: ReadonlyArray<Finding>
): Promise<ReadonlyArray<Finding>> => {
  if (d.backfill === "height") return []
  const own = files[0]!
  const mergedSlices = new Set([...own.compacted, ...rejects.compacted].flatMap((c) => [...c.slices]))
  const judged = d.windows === undefined ? states : states.filter((s) => mergedSlices.has(s.slice))
  if (judged.length === 0) return []
  const live = (t: TableFiles) => t.parts.filter((p) => p.live)
  const children = files.slice(1)
  const footers = await session.footerRows([...live(own), ...live(rejects), ...children.flatMap(live)].map((p) => p.abs))
  const tableOf = (what: SliceTable["what"], t: TableFiles): SliceTable => ({
    what,
    ...(what === "child" ? { table: t.table } : {}),
    parts: live(t).map((p) => {
      const rows = footers.get(p.abs)
      return { slice: p.slice, seq: p.seq, path: p.rel, ...(rows === undefined ? {} : { rows }) }
    }),
    merged: t.compacted.map((c) => ({ path: c.rel, rows: c.manifestRows, slices: c.slices }))
  })
  // a height re-crawl of this listing (the heights or exactly-once check's) recounts the slice as it refills it
  const heightRepaired = (s: CheckpointState) =>
    earlier.some((f) => f.dataset === d.name && f.repair?.kind === "refetch-slice" && f.repair.heights !== undefined && f.repair.slice === s.slice)
  return sliceFindings(
    {
      dataset: d.name,
      states: judged,
      // a child table's rows where the checkpoints count them (Slices.ts skips those that do not)
      tables: [tableOf("rows", own), tableOf("rejects", rejects), ...children.map((t) => tableOf("child", t))],
      otherParts: files.slice(1).flatMap((t) => t.parts.map((p) => ({ slice: p.slice, seq: p.seq }))),
      replacing: d.rerun === "replace",
      listingOf
    },
    (s) => (heightRepaired(s) ? undefined : sliceRepair(d, s)),
    fillsBelowTop(d)
      ? "the re-crawl of the heights named above recounts the slice and fills them"
      : "compaction merged its parts with other slices' rows: restore the output from a backup, or re-crawl the dataset into a fresh --out"
  )
}
