/**
 * Slices: each slice's checkpoint says how many rows (and rejects) it committed, and its part
 * files must hold exactly those. A part file lost, truncated or planted shows as a slice whose
 * files hold fewer or more rows than it committed, whatever the dataset's kind. What the files
 * hold is summed from their Parquet footers: the slice's live parts up to its checkpoint's last
 * part (parts past it are exactly-once's finding), a replacing listing's from its current version
 * on, held against that version's counts (`kept`; its first version's are its totals), and, where
 * compaction merged parts, the rows the manifest gives each compacted file (exactly-once checks
 * those against the files' footers). A compacted file may hold several slices' rows, so slices
 * bound together by such files are judged together: their committed rows against their files'
 * rows. A child table's files are held against the rows the checkpoint says each committed to it
 * (`childRows`), where it says (not in checkpoints older than the field). Pure.
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import { partFileName } from "../files/PartName.ts"
import type { Finding, Repair } from "./Finding.ts"

export interface SlicePart {
  readonly slice: string
  readonly seq: number
  /** Below the output folder. */
  readonly path: string
  /** Rows in its footer; undefined when it cannot be read. */
  readonly rows?: number
}

/** A compacted file's rows as its manifest gives them, and the slices whose parts it merged. */
export interface MergedFile {
  readonly path: string
  readonly rows: number
  readonly slices: ReadonlySet<string>
}

/** One count of a dataset: its own rows (against rowsCommitted), its rejects (against rejectsCommitted) or a child table's rows (against childRows). */
export interface SliceTable {
  readonly what: "rows" | "rejects" | "child"
  /** A child table's name. */
  readonly table?: string
  /** Live parts (no compacted file replaces them). */
  readonly parts: ReadonlyArray<SlicePart>
  readonly merged: ReadonlyArray<MergedFile>
}

export interface SliceFacts {
  readonly dataset: string
  readonly states: ReadonlyArray<CheckpointState>
  readonly tables: ReadonlyArray<SliceTable>
  /** The parts of its child tables: a commit whose rows all went to a child still wrote a file. */
  readonly otherParts: ReadonlyArray<{ readonly slice: string; readonly seq: number }>
  /** A replacing listing: its checkpoint counts every version, so only a first version is counted. */
  readonly replacing: boolean
  /** The params that name a slice's listing (as the findings show them). */
  readonly listingOf: (state: CheckpointState) => Readonly<Record<string, string>>
}

/** What the slice's parts hold now by its checkpoint: a replacing listing's version on disk where it says. */
const committedOf = (s: CheckpointState, t: SliceTable, replacing: boolean) =>
  t.what === "child" ? (s.childRows?.[t.table ?? ""] ?? 0) : replacing && s.kept !== undefined ? s.kept[t.what] : t.what === "rows" ? s.rowsCommitted : s.rejectsCommitted

/** Whether the checkpoint says what its parts hold now: a replacing listing past its first version only with `kept`; a child table only with `childRows`. */
const counted = (s: CheckpointState, t: SliceTable, replacing: boolean) =>
  t.what === "child" ? s.childRows !== undefined : !replacing || (s.keepFromSeq ?? 0) === 0 || s.kept !== undefined

/** Slices bound together by compacted files, each group once (union-find over the files' slice sets). */
const groupsOf = (slices: ReadonlyArray<string>, merged: ReadonlyArray<MergedFile>): ReadonlyArray<ReadonlyArray<string>> => {
  const parent = new Map(slices.map((s) => [s, s]))
  const root = (s: string): string => {
    let r = s
    while (parent.get(r) !== r) r = parent.get(r)!
    parent.set(s, r)
    return r
  }
  for (const f of merged) {
    const known = [...f.slices].filter((s) => parent.has(s))
    for (const s of known.slice(1)) parent.set(root(s), root(known[0]!))
  }
  const groups = new Map<string, string[]>()
  for (const s of slices) groups.set(root(s), [...(groups.get(root(s)) ?? []), s])
  return [...groups.values()]
}

const SHOWN = 5
const listText = (items: ReadonlyArray<string>) => `${items.slice(0, SHOWN).join(", ")}${items.length > SHOWN ? `, … (${items.length - SHOWN} more)` : ""}`

/** Seqs up to lastSeq with no file in any table: where a lost part was (a commit of no row writes none either). */
const seqsWithoutFile = (s: CheckpointState, seen: ReadonlySet<number>): ReadonlyArray<number> => {
  const out: number[] = []
  for (let seq = s.keepFromSeq ?? 0; seq <= s.lastSeq; seq++) if (!seen.has(seq)) out.push(seq)
  return out
}

export const sliceFindings = (facts: SliceFacts, repairOf: (state: CheckpointState) => Repair | undefined, fix: string): ReadonlyArray<Finding> => {
  const findings: Finding[] = []
  const bySlice = new Map(facts.states.map((s) => [s.slice, s]))
  const seen = new Map<string, Set<number>>()
  for (const p of [...facts.tables.flatMap((t) => t.parts), ...facts.otherParts]) seen.set(p.slice, (seen.get(p.slice) ?? new Set()).add(p.seq))
  for (const t of facts.tables) {
    for (const group of groupsOf([...bySlice.keys()], t.merged)) {
      const states = group.map((s) => bySlice.get(s)!)
      if (!states.every((s) => counted(s, t, facts.replacing))) continue
      const inGroup = new Set(group)
      // parts up to each checkpoint, from a replacing listing's current version on
      const parts = t.parts.filter((p) => {
        const s = bySlice.get(p.slice)
        return s !== undefined && inGroup.has(p.slice) && p.seq <= s.lastSeq && p.seq >= (s.keepFromSeq ?? 0)
      })
      const unreadable = parts.filter((p) => p.rows === undefined)
      const merged = t.merged.filter((f) => [...f.slices].some((s) => inGroup.has(s)))
      const held = parts.reduce((n, p) => n + (p.rows ?? 0), 0) + merged.reduce((n, f) => n + f.rows, 0)
      const committed = states.reduce((n, s) => n + committedOf(s, t, facts.replacing), 0)
      if (held === committed && unreadable.length === 0) continue
      const names = group.length === 1 ? `slice ${group[0]}` : `slices ${listText(group)} (merged by ${listText(merged.map((f) => f.path))})`
      const lost = merged.length > 0 ? [] : states.flatMap((s) => seqsWithoutFile(s, seen.get(s.slice) ?? new Set()).map((seq) => partFileName(s.slice, seq).replace(/\.parquet$/, "")))
      const why = [
        ...(unreadable.length > 0 ? [`${listText(unreadable.map((p) => p.path))} cannot be read`] : []),
        ...(held < committed && lost.length > 0 ? [`no file of ${listText(lost)} is on disk`] : [])
      ]
      const what = `${names} committed ${committed} ${t.what === "rows" ? "row(s)" : t.what === "rejects" ? "reject(s)" : `${t.table} row(s)`}, its files hold ${held}${why.length > 0 ? ` (${why.join("; ")})` : ""}`
      const each = [...new Map(states.map((s) => repairOf(s)).filter((r): r is Repair => r !== undefined).map((r) => [JSON.stringify(r), r])).values()]
      // slices a compacted file merged are re-crawled together, by one command: none of them can go alone
      const whole = each.filter((r): r is Extract<Repair, { kind: "refetch-slice" }> => r.kind === "refetch-slice" && r.heights === undefined)
      const repairs = whole.length > 1 && whole.length === each.length ? [{ ...whole[0]!, with: whole.slice(1).map((r) => r.slice) }] : each
      const listing = group.length === 1 ? facts.listingOf(states[0]!) : {}
      if (repairs.length === 0) findings.push({ dataset: facts.dataset, check: "slices", listing, what, fix })
      for (const repair of repairs) findings.push({ dataset: facts.dataset, check: "slices", listing, what, repair })
    }
  }
  return findings
}
