/**
 * `chainetl run <dataset> --refetch-slice <slice>`: the slice is crawled again whole by the run
 * that follows. What `verify` asks for when a slice of a dataset that takes no range (a snapshot,
 * a fan-out, a metrics listing) lost rows its checkpoint committed, or holds a key twice: no range
 * names it, only its id.
 *
 * Its files are removed (Clear.ts, as a backfill --refetch removes a window's: its parts in the
 * dataset's, its child tables' and its rejects' folders, then the compacted files holding them, out
 * of their manifests first; at their keys too for a bucket output), then its checkpoint is set
 * back to the one a slice has before its first part (running, nothing committed), in whichever
 * store holds the checkpoints (the folder or PostgreSQL). The run then lists it from its first
 * page. A kill between the two leaves a slice whose files hold fewer rows than its checkpoint
 * says: verify finds it again and the same command mends it.
 *
 * `<slice>@<from>-<to>` takes only those heights (both included) of a listing that fills what it
 * lacks below its top (evm_blocks: one slice per chain, no range to ask for): the slice's files
 * holding them are removed, each only if all its heights lie inside (a file reaching outside is
 * refused, naming the heights that take it whole), and its checkpoint's rows are counted again
 * from the files that remain, so that what the run adds back is counted once. The run's listing
 * then reads which heights it holds from the output and walks down to the hole.
 *
 * Refused before anything changes: a slice this run does not plan (a snapshot of another day: the
 * service answers with today's, so that day cannot be fetched as it was), a windowed or height
 * dataset's slice (their backfill --refetch names the range), and a compacted file that also holds
 * slices not refetched with it (the refusal names them all).
 */
import { Effect } from "effect"
import * as path from "node:path"
import { type CheckpointState, CheckpointStore, initialState } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { ConfigError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import { newRunId } from "../Runner.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { OutputStore } from "../store/OutputStore.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import { clearOutput } from "./Clear.ts"
import { tableFiles } from "./Files.ts"
import { heightSpans } from "./RefetchHeights.ts"
import { openSession } from "./Session.ts"
import { fillsBelowTop } from "./SliceFacts.ts"

const invalid = (detail: string, fix: string) => new ConfigError({ reason: "Invalid", field: "--refetch-slice", detail, fix })

const SPEC = /^(.+?)(?:@([0-9]{1,78})-([0-9]{1,78}))?$/

export interface Refetched {
  readonly dataset: AnyDataset
  readonly slice: Slice
  /** Only these heights, both included. */
  readonly heights?: { readonly from: bigint; readonly to: bigint }
}

/** The slices among `datasets`' that a run at `asOf` plans, from `<id>` or `<id>@<from>-<to>`; refuses one none plans. */
export const plannedSlices = (datasets: ReadonlyArray<AnyDataset>, job: Job, asOf: number, specs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const runDate = new Date(asOf * 1000).toISOString().slice(0, 10)
    const found: Refetched[] = []
    for (const spec of specs) {
      const m = SPEC.exec(spec)
      const id = m?.[1] ?? spec
      const heights = m?.[2] === undefined ? undefined : { from: BigInt(m[2]), to: BigInt(m[3]!) }
      if (heights !== undefined && heights.to < heights.from) return yield* Effect.fail(invalid(`${spec}: ${heights.to} is below ${heights.from}`, `pass ${id}@${heights.to}-${heights.from}`))
      const owner = datasets.find((d) => d.windows === undefined && d.backfill !== "height" && d.slices(job, { asOf, runDate }).some((s) => s.id === id))
      if (owner === undefined) {
        const ranged = datasets.filter((d) => d.windows !== undefined || d.backfill === "height").map((d) => d.name)
        return yield* Effect.fail(
          invalid(
            `no slice ${id} is planned by this run of ${datasets.map((d) => d.name).join(", ")} (run date ${runDate})`,
            ranged.length > 0
              ? `re-crawl ${ranged.join(", ")} with backfill --refetch over the range chainetl verify names`
              : "name the dataset the slice belongs to; a snapshot of an earlier day cannot be fetched as it was (the service answers with today's)"
          )
        )
      }
      if (heights !== undefined && !fillsBelowTop(owner)) {
        return yield* Effect.fail(invalid(`${spec}: ${owner.name} is not re-crawled by heights`, `pass ${id} alone: the slice is crawled again whole`))
      }
      found.push({ dataset: owner, slice: owner.slices(job, { asOf, runDate }).find((s) => s.id === id)!, ...(heights === undefined ? {} : { heights }) })
    }
    return found
  })

/**
 * What removing the whole slices takes: their parts in every table, and the compacted files holding
 * any of them, each only if it holds no slice that is not refetched with them (its rows cannot be
 * told apart by slice: the refusal names the slices that take it whole).
 */
const wholeClearing = (out: string, whole: ReadonlyArray<Refetched>) =>
  Effect.gen(function* () {
    const ids = new Set(whole.map((c) => c.slice.id))
    const parts: string[] = []
    const compacted: Array<{ readonly table: string; readonly file: string }> = []
    for (const d of [...new Set(whole.map((c) => c.dataset))]) {
      const mine = new Set(whole.filter((c) => c.dataset === d).map((c) => c.slice.id))
      for (const table of [d.name, ...(d.children ?? []).map((c) => c.name), rejectsDataset.name]) {
        const files = yield* Effect.promise(() => tableFiles(out, table, table === rejectsDataset.name ? undefined : d.name))
        parts.push(...files.parts.filter((p) => p.owner === d.name && mine.has(p.slice)).map((p) => p.abs))
        for (const c of files.compacted.filter((f) => f.owner === d.name && [...f.slices].some((s) => mine.has(s)))) {
          const others = [...c.slices].filter((s) => !ids.has(s))
          if (others.length > 0) {
            return yield* Effect.fail(
              invalid(`${c.rel} merges ${d.name} slice(s) ${[...c.slices].filter((s) => ids.has(s)).join(", ")} with ${others.join(", ")}`, `pass --refetch-slice for each of ${[...c.slices].sort().join(", ")}: its rows are re-crawled together`)
            )
          }
          compacted.push({ table, file: path.relative(path.join(out, table), c.abs).split(path.sep).join("/") })
        }
      }
    }
    return { parts, compacted, checkpoints: [] }
  })

/**
 * Under the writer lock (the copy made equal to its bucket first): each whole slice's files removed
 * and its checkpoint set back, or the heights asked removed and the slice counted again; returns their ids.
 */
export const refetchSlices = (out: string, job: Job, datasets: ReadonlyArray<AnyDataset>, specs: ReadonlyArray<string>, asOf: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const chosen = yield* plannedSlices(datasets, job, asOf, specs)
      const runId = newRunId(new Date())
      yield* (yield* WriterLock).acquire(out, runId)
      yield* (yield* OutputStore).pull
      const store = yield* CheckpointStore
      // every slice judged before anything changes: a refusal leaves the output as it was
      const whole = chosen.filter((c) => c.heights === undefined)
      const clearing = yield* wholeClearing(out, whole)
      const plans = []
      for (const c of chosen) if (c.heights !== undefined) plans.push({ c, plan: yield* heightsPlan(out, c, c.heights) })
      // files first, checkpoints second: a kill between them leaves slices short of rows, found again and mended the same way
      yield* clearOutput(out, clearing)
      for (const { slice } of whole) yield* store.save(initialState(slice, runId))
      for (const { c, plan } of plans) {
        const state = yield* store.load(c.slice)
        if (state === undefined) return yield* Effect.fail(invalid(`${c.slice.id} has no checkpoint`, `pass ${c.slice.id} alone, or run ${c.slice.dataset}`))
        yield* clearOutput(out, { parts: plan.remove, compacted: [], checkpoints: [] })
        yield* store.save({ ...state, rowsCommitted: plan.rowsLeft(state), runId })
      }
      return chosen.map((c) => c.slice.id)
    })
  )

/** The files of the slice holding heights [from, to] and how its rows are counted without them. */
const heightsPlan = (out: string, c: Refetched, range: { readonly from: bigint; readonly to: bigint }) =>
  Effect.gen(function* () {
    const d = c.dataset
    const files = yield* Effect.promise(() => tableFiles(out, d.name, d.name))
    const parts = files.parts.filter((p) => p.live && p.slice === c.slice.id)
    const compacted = files.compacted.filter((f) => f.slices.has(c.slice.id))
    const mixed = compacted.find((f) => f.slices.size > 1)
    if (mixed !== undefined) return yield* Effect.fail(invalid(`${mixed.rel} holds ${d.name} rows of other slices too`, "re-crawl the dataset into a fresh --out, or restore the output from a backup"))
    const spans = yield* Effect.promise(() => heightSpans([...parts.map((p) => p.abs), ...compacted.map((f) => f.abs)], d.chain!.height))
    const meets = [...spans].filter(([, [lo, hi]]) => hi >= range.from && lo <= range.to)
    for (const [file, [lo, hi]] of meets) {
      const where = path.relative(out, file)
      if (compacted.some((f) => f.abs === file)) return yield* Effect.fail(invalid(`heights ${lo}-${hi} of ${d.name} are merged into ${where}`, "re-crawl the dataset into a fresh --out, or restore the output from a backup"))
      if (lo < range.from || hi > range.to) {
        return yield* Effect.fail(invalid(`${where} holds heights ${lo}-${hi}, reaching outside ${range.from}-${range.to}`, `pass ${c.slice.id}@${lo < range.from ? lo : range.from}-${hi > range.to ? hi : range.to}`))
      }
    }
    const remove = new Set(meets.map(([f]) => f))
    const kept = parts.filter((p) => !remove.has(p.abs))
    const footers = yield* Effect.promise(async () => {
      const session = await openSession(out)
      try {
        return await session.footerRows(kept.map((p) => p.abs))
      } finally {
        session.close()
      }
    })
    return {
      remove: [...remove],
      // what the slice's files hold once these go: its live parts up to the checkpoint, and its compacted rows
      rowsLeft: (s: CheckpointState) =>
        kept.filter((p) => p.seq <= s.lastSeq && p.seq >= (s.keepFromSeq ?? 0)).reduce((n, p) => n + (footers.get(p.abs) ?? 0), 0) + compacted.reduce((n, f) => n + f.manifestRows, 0)
    }
  })
