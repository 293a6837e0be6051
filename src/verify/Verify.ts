/**
 * `chainetl verify`'s checks over one output folder, for the datasets asked (every dataset with
 * anything on disk by default): reads the files, the manifests, the checkpoints and the run
 * reports, never writes. Each check is a pure function of what is read here (Heights.ts, Links.ts,
 * Windows.ts, ExactlyOnce.ts, Freshness.ts); the figures the metrics file carries come along.
 */
import { quotedIdentifier as id, quotedString } from "@duckdb/node-api"
import * as path from "node:path"
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import type { AnyDataset, ChainLinks } from "../crawl/Dataset.ts"
import { isComplete, openHoles } from "../crawl/Holes.ts"
import { FROM, settingsOf, TO, windowOf } from "../crawl/Windows.ts"
import type { Job } from "../Job.ts"
import type { RunReport } from "../Runner.ts"
import { type CatalogDataset, FILE_COLUMN } from "../sink/CatalogSql.ts"
import { statusOf } from "../status/model.ts"
import { chainChecks, fillRefetch, heightRefetch } from "./Chains.ts"
import { type CompactedFact, type Duplicate, exactlyOnceFindings, type PartFact } from "./ExactlyOnce.ts"
import { type TableFiles, tableFiles } from "./Files.ts"
import type { Finding, Note, Repair } from "./Finding.ts"
import { freshnessFinding, lagOf, newestOf } from "./Freshness.ts"
import type { DatasetMetrics } from "./Metrics.ts"
import { openSession, type Session } from "./Session.ts"
import { fillsBelowTop, sliceChecks, sliceRepair } from "./SliceFacts.ts"
import { type WindowFact, windowFindings } from "./Windows.ts"
import { widenRefetches } from "./Widen.ts"

export interface VerifyInput {
  readonly out: string
  readonly job: Job
  readonly datasets: ReadonlyArray<AnyDataset>
  readonly entries: ReadonlyArray<CatalogDataset>
  readonly checkpoints: ReadonlyArray<CheckpointState>
  readonly runs: ReadonlyArray<RunReport>
  /** Unix seconds: what freshness and lag are measured against. */
  readonly now: number
}

export interface Verdict {
  readonly findings: ReadonlyArray<Finding>
  readonly notes: ReadonlyArray<Note>
  readonly metrics: ReadonlyArray<DatasetMetrics>
}

const SHOWN_DUPLICATES = 10

const sliceOfFile = (file: string, files: ReadonlyArray<TableFiles>): ReadonlyArray<string> => {
  for (const t of files) {
    const part = t.parts.find((p) => p.abs === file)
    if (part !== undefined) return [part.slice]
    const compacted = t.compacted.find((c) => c.abs === file)
    if (compacted !== undefined) return [...compacted.slices]
  }
  return [path.basename(file)]
}

/** The heights of the rows holding `key` (a key twice: the files to take out are those of its heights). */
const heightsOfKey = async (session: Session, filesView: string, chain: ChainLinks, key: Readonly<Record<string, string>>): Promise<ReadonlyArray<bigint>> => {
  const given = key[chain.height]
  if (given !== undefined) return /^[0-9]+$/.test(given) ? [BigInt(given)] : []
  const where = Object.entries(key).map(([k, v]) => `${id(k)}::VARCHAR = ${quotedString(v)}`).join(" AND ")
  const rows = await session.all(`SELECT DISTINCT ${id(chain.height)}::VARCHAR AS h FROM ${filesView} WHERE ${where} AND ${id(chain.height)} IS NOT NULL ORDER BY ${id(chain.height)}`)
  return rows.map((r) => BigInt(String(r["h"])))
}

/** Keys twice in the raw view (within the dataset's Hive keys and slice columns) and in its `_latest` view. */
const duplicates = async (session: Session, d: AnyDataset, entry: CatalogDataset, files: ReadonlyArray<TableFiles>): Promise<ReadonlyArray<Duplicate>> => {
  if (d.key.length === 0) return []
  const views = await session.views(entry)
  if (!views.hasFiles) return []
  const raw = [...new Set([...entry.partitionKeys.map((k) => k.key), ...(d.sliceColumns ?? []), ...d.key])]
  const read = async (view: string, columns: ReadonlyArray<string>, withFiles: boolean) =>
    (
      await session.all(
        `SELECT ${columns.map((c) => `${id(c)}::VARCHAR AS ${id(c)}`).join(", ")}, count(*)::INTEGER AS n${withFiles ? `, list(DISTINCT ${id(FILE_COLUMN)}) AS files` : ""}
         FROM ${view} GROUP BY ${columns.map(id).join(", ")} HAVING count(*) > 1 ORDER BY ALL LIMIT ${SHOWN_DUPLICATES}`
      )
    ).map((r) => ({ key: Object.fromEntries(columns.map((c) => [c, String(r[c])])), count: Number(r["n"]), files: (r["files"] as ReadonlyArray<string> | undefined) ?? [] }))
  const found: Duplicate[] = (await read(views.filesView, raw, true)).map((r) => ({
    dataset: d.name,
    view: d.name,
    key: r.key,
    count: r.count,
    slices: [...new Set(r.files.flatMap((f) => sliceOfFile(f, files)))]
  }))
  if (views.latest !== undefined && entry.latest !== undefined) {
    for (const r of await read(views.latest, entry.latest.key, false)) found.push({ dataset: d.name, view: `${d.name}_latest`, key: r.key, count: r.count, slices: [] })
  }
  return found
}

const windowChecks = async (session: Session, view: string, d: AnyDataset, states: ReadonlyArray<CheckpointState>, job: Job, own: TableFiles, entry: CatalogDataset) => {
  const spec = d.windows!
  const since = settingsOf(d.name, spec, job).since
  const footers = await session.footerRows(own.parts.filter((p) => p.live).map((p) => p.abs))
  const compactedSlices = new Set(own.compacted.flatMap((c) => [...c.slices]))
  const rowsOf = (slice: string): number | undefined => {
    if (compactedSlices.has(slice)) return undefined
    let n = 0
    for (const p of own.parts) {
      if (p.slice !== slice || !p.live) continue
      const rows = footers.get(p.abs)
      if (rows === undefined) return undefined
      n += rows
    }
    return n
  }
  const listings = new Map<string, { listing: Record<string, string>; windows: WindowFact[] }>()
  for (const s of states) {
    const w = windowOf(s.params)
    if (w === undefined) continue
    const listing = Object.fromEntries(Object.entries(s.params).filter(([k]) => k !== FROM && k !== TO))
    const k = JSON.stringify(Object.entries(listing).sort())
    const e = listings.get(k) ?? { listing, windows: [] }
    listings.set(k, e)
    const fileRows = rowsOf(s.slice)
    e.windows.push({ ...w, state: s, ...(fileRows === undefined ? {} : { fileRows }) })
  }
  const columns = new Set([...entry.schema.fields.map((f) => f.name), ...entry.partitionKeys.map((k) => k.key)])
  const findings: Finding[] = []
  const notes: Note[] = []
  for (const { listing, windows } of listings.values()) {
    // the days a listing has rows on, where its params are columns (they are for every windowed dataset)
    const named = Object.keys(listing).every((k) => columns.has(k)) && columns.has("date")
    const where = Object.entries(listing).map(([k, v]) => `${id(k)}::VARCHAR = ${quotedString(v)}`).join(" AND ")
    const days = named ? new Set((await session.all(`SELECT DISTINCT date::VARCHAR AS d FROM ${view}${where === "" ? "" : ` WHERE ${where}`}`)).map((r) => String(r["d"]))) : undefined
    const r = windowFindings({ dataset: d.name, listing, since, windows, ...(days === undefined ? {} : { days }), replacing: d.rerun === "replace" })
    findings.push(...r.findings)
    notes.push(...r.notes)
  }
  // a window not complete, or whose files do not hold what it committed: where a chain's gap is to be looked for
  const suspect = (s: CheckpointState) => !isComplete(s) || (d.rerun !== "replace" && rowsOf(s.slice) !== s.rowsCommitted)
  return { findings, notes, suspect }
}

/** The newest run that finished with every slice of the dataset it had done or skipped. */
const lastSuccess = (runs: ReadonlyArray<RunReport>, dataset: string): number | undefined => {
  const ok = runs.filter((r) => r.finishedAt !== null && r.status !== "running" && r.slices.some((s) => s.dataset === dataset) && r.slices.every((s) => s.dataset !== dataset || s.status === "done" || s.status === "skipped"))
  const times = ok.map((r) => Math.floor(Date.parse(r.finishedAt!) / 1000)).filter(Number.isFinite)
  return times.length === 0 ? undefined : Math.max(...times)
}

export const verify = async (input: VerifyInput): Promise<Verdict> => {
  const session = await openSession(input.out)
  try {
    const findings: Finding[] = []
    const notes: Note[] = []
    const metrics: DatasetMetrics[] = []
    const rejectsEntry = input.entries.find((e) => e.name === "_rejects")
    const rejectsFiles = await tableFiles(input.out, "_rejects", undefined)
    const rejects = new Map<string, bigint>()
    if (rejectsEntry !== undefined) {
      const v = await session.views(rejectsEntry)
      for (const r of await session.all(`SELECT dataset, count(*)::VARCHAR AS n FROM ${v.name} GROUP BY ALL`)) rejects.set(String(r["dataset"]), BigInt(String(r["n"])))
    }
    const windowed = input.datasets.filter((d) => d.windows !== undefined).map((d) => d.name)
    const watermarks = statusOf(input.checkpoints, [], windowed).listings
    for (const d of input.datasets) {
      const entry = input.entries.find((e) => e.name === d.name)
      if (entry === undefined) continue
      const states = input.checkpoints.filter((c) => c.dataset === d.name)
      const bySlice = new Map(states.map((s) => [s.slice, s]))
      const view = (await session.views(entry)).name
      const files = [await tableFiles(input.out, d.name, d.name), ...(await Promise.all((d.children ?? []).map((c) => tableFiles(input.out, c.name, d.name))))]
      const own = files[0]!
      const rows = BigInt(String((await session.all(`SELECT count(*)::VARCHAR AS n FROM ${view}`))[0]?.["n"] ?? "0"))
      let missing = 0n
      let suspect = (_: CheckpointState) => false
      if (d.windows !== undefined) {
        const w = await windowChecks(session, view, d, states, input.job, own, entry)
        findings.push(...w.findings)
        notes.push(...w.notes)
        suspect = w.suspect
      }
      if (d.chain !== undefined) {
        const chain = await chainChecks(session, view, (await session.views(entry)).filesView, d, d.chain, states, suspect)
        findings.push(...chain.findings)
        missing = chain.missing
      }
      const ownRejects = { ...rejectsFiles, parts: rejectsFiles.parts.filter((p) => p.owner === d.name), compacted: rejectsFiles.compacted.filter((c) => c.owner === d.name), orphans: [] }
      const tables = [...files, { ...ownRejects, compacted: [] }]
      const parts: PartFact[] = tables.flatMap((t) => t.parts.map((p) => ({ dataset: d.name, path: p.rel, slice: p.slice, seq: p.seq })))
      const listed = files.flatMap((t) => t.compacted)
      const footers = await session.footerRows(listed.map((c) => c.abs))
      const compacted: CompactedFact[] = listed.map((c) => {
        const n = footers.get(c.abs)
        return { dataset: d.name, path: c.rel, manifestRows: c.manifestRows, slices: [...c.slices], ...(n === undefined ? { problem: "is missing or not Parquet" } : { footerRows: n }) }
      })
      const dups = await duplicates(session, d, entry, files)
      const walkRepairs = new Map<string, Repair>()
      if (d.chain !== undefined && (d.backfill === "height" || fillsBelowTop(d))) {
        const filesView = (await session.views(entry)).filesView
        for (const dup of dups) {
          const heights = await heightsOfKey(session, filesView, d.chain, dup.key)
          const listing = Object.fromEntries(d.chain.listing.map((c) => [c, dup.key[c] ?? ""]))
          const repair =
            heights.length === 0
              ? undefined
              : fillsBelowTop(d)
                ? await fillRefetch(session, filesView, d, listing, { from: heights[0]!, to: heights[heights.length - 1]! }, heights, states)
                : await heightRefetch(session, filesView, d, heights)
          if (repair !== undefined) for (const s of dup.slices) walkRepairs.set(s, repair)
        }
      }
      findings.push(
        ...exactlyOnceFindings(
          {
            duplicates: dups,
            parts,
            compacted,
            orphans: files.flatMap((t) => t.orphans).map((o) => ({ dataset: d.name, path: o.rel })),
            checkpoints: new Map([[d.name, bySlice]])
          },
          (_dataset, slice) => walkRepairs.get(slice) ?? sliceRepair(d, bySlice.get(slice))
        )
      )
      findings.push(...(await sliceChecks(session, d, states, files, ownRejects, findings)))
      const newest = newestOf(states, d.windows === undefined ? undefined : watermarks.filter((l) => l.dataset === d.name).map((l) => l.watermark))
      const lag = lagOf(input.now, newest)
      const sla = input.job.freshness[d.name]
      if (sla !== undefined) {
        const f = freshnessFinding(d.name, sla, lag)
        if (f !== undefined) findings.push(f)
      }
      const open = states.reduce((n, s) => n + BigInt(openHoles(s) ?? 0), 0n)
      const success = lastSuccess(input.runs, d.name)
      metrics.push({
        dataset: d.name,
        rows,
        // a chain's rejected heights are missing heights too: counted once
        holes: d.chain !== undefined ? missing : open,
        ...(lag === undefined ? {} : { lagSeconds: lag }),
        ...(success === undefined ? {} : { lastSuccess: success }),
        failedSlices: states.filter((s) => s.status === "failed").length,
        rejects: rejects.get(d.name) ?? 0n
      })
    }
    // a refetch takes whole every compacted file holding a window it names (Widen.ts)
    return { findings: await widenRefetches(input.out, input.datasets, input.checkpoints, findings), notes, metrics }
  } finally {
    session.close()
  }
}
