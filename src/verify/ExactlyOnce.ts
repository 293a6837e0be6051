/**
 * Exactly once, from outside: no key twice where the dataset promises one row per key (its
 * `_latest` view always; its raw view within a listing's Hive keys and slice columns, which is the
 * crawl's guarantee: architecture.md, Guarantees); every compacted file a manifest lists is on disk
 * with the row count the manifest says in its Parquet footer; no part past its slice's checkpoint
 * (a crash between the part and the checkpoint, which the next run of that slice removes), no part
 * of a slice without a checkpoint and no compacted file no manifest lists (orphans). Pure: the
 * facts are read by Facts.ts.
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import type { Finding, Repair } from "./Finding.ts"

/** A key found more than once in a view, with the slices whose files hold it. */
export interface Duplicate {
  readonly dataset: string
  readonly view: string
  readonly key: Readonly<Record<string, string>>
  readonly count: number
  readonly slices: ReadonlyArray<string>
}

/** A `part-<slice>-<seq>.parquet` of a table (the dataset, a child table, or its `_rejects`). */
export interface PartFact {
  readonly dataset: string
  /** Below the output folder. */
  readonly path: string
  readonly slice: string
  readonly seq: number
}

/** A compacted file as its manifest lists it, and as the disk has it. */
export interface CompactedFact {
  readonly dataset: string
  readonly path: string
  readonly manifestRows: number
  /** Rows in its footer; undefined when the file is absent or unreadable (`problem` says which). */
  readonly footerRows?: number
  readonly problem?: string
  /** The slices whose parts it merged. */
  readonly slices?: ReadonlyArray<string>
}

export interface ExactlyOnceFacts {
  readonly duplicates: ReadonlyArray<Duplicate>
  readonly parts: ReadonlyArray<PartFact>
  readonly compacted: ReadonlyArray<CompactedFact>
  /** Compacted files no manifest lists, below the output folder. */
  readonly orphans: ReadonlyArray<{ readonly dataset: string; readonly path: string }>
  /** Per dataset its slices' checkpoints. */
  readonly checkpoints: ReadonlyMap<string, ReadonlyMap<string, CheckpointState>>
}

const SHOWN = 5

export const exactlyOnceFindings = (facts: ExactlyOnceFacts, repairOf: (dataset: string, slice: string) => Repair | undefined): ReadonlyArray<Finding> => {
  const findings: Finding[] = []
  for (const d of facts.duplicates) {
    const keyText = Object.entries(d.key).map(([k, v]) => `${k}=${v}`).join(", ")
    const repair = d.slices.map((s) => repairOf(d.dataset, s)).find((r) => r !== undefined)
    findings.push({
      dataset: d.dataset,
      check: "exactly-once",
      listing: {},
      what: `key (${keyText}) is ${d.count} times in ${d.view} (in the files of slice ${d.slices.join(", ") || "?"})`,
      ...(repair === undefined ? { fix: "the slice is re-crawled only whole: remove its parts and its checkpoint, then run again" } : { repair })
    })
  }
  for (const c of facts.compacted) {
    if (c.footerRows === c.manifestRows) continue
    // the slices it merged, when each is re-crawled whole by its id: together, by one command
    const each = (c.slices ?? []).map((slice) => repairOf(c.dataset, slice))
    const whole = each.filter((r): r is Extract<Repair, { kind: "refetch-slice" }> => r?.kind === "refetch-slice" && r.heights === undefined)
    const repair = whole.length > 0 && whole.length === each.length ? { ...whole[0]!, ...(whole.length > 1 ? { with: whole.slice(1).map((r) => r.slice) } : {}) } : undefined
    findings.push({
      dataset: c.dataset,
      check: "exactly-once",
      listing: {},
      what:
        c.footerRows === undefined
          ? `${c.path}, listed by its manifest, ${c.problem ?? "cannot be read"}`
          : `${c.path} holds ${c.footerRows} row(s) in its footer, its manifest says ${c.manifestRows}`,
      ...(repair === undefined ? { fix: "restore the file from a backup of the output, or re-crawl the dataset into a fresh --out: its rows are in no other file" } : { repair })
    })
  }
  const past: PartFact[] = []
  const unowned: PartFact[] = []
  for (const p of facts.parts) {
    const state = facts.checkpoints.get(p.dataset)?.get(p.slice)
    if (state === undefined) unowned.push(p)
    else if (p.seq > state.lastSeq) past.push(p)
  }
  for (const [what, parts, fix] of [
    ["past its slice's checkpoint (written by a run that stopped before its checkpoint)", past, "the next run of the dataset removes it before it resumes the slice"],
    ["of a slice without a checkpoint (an orphan: no view should read it)", unowned, "delete it, or restore the slice's checkpoint"]
  ] as const) {
    const byDataset = new Map<string, PartFact[]>()
    for (const p of parts) byDataset.set(p.dataset, [...(byDataset.get(p.dataset) ?? []), p])
    for (const [dataset, ps] of byDataset) {
      findings.push({
        dataset,
        check: "exactly-once",
        listing: {},
        what: `${ps.length} part(s) ${what}: ${ps.slice(0, SHOWN).map((p) => p.path).join(", ")}${ps.length > SHOWN ? ", …" : ""}`,
        ...(parts === past ? { repair: { kind: "run" as const, dataset } } : { fix })
      })
    }
  }
  const orphansBy = new Map<string, string[]>()
  for (const o of facts.orphans) orphansBy.set(o.dataset, [...(orphansBy.get(o.dataset) ?? []), o.path])
  for (const [dataset, paths] of orphansBy) {
    findings.push({
      dataset,
      check: "exactly-once",
      listing: {},
      what: `${paths.length} compacted file(s) no manifest lists (a killed compaction's): ${paths.slice(0, SHOWN).join(", ")}`,
      repair: { kind: "run", dataset }
    })
  }
  return findings
}
