/**
 * `chainetl status`: how far each windowed listing's history is complete (watermark), how far
 * that is behind (with --live, behind the service's newest block), the windows still pending;
 * how far each height-ordered listing got (with --live, blocks behind the tip); every other
 * dataset's slices, the last runs and every failed slice. Reads only the output folder unless
 * --live; never writes.
 */
import { Effect, Either, Layer } from "effect"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { stateLayer } from "../state/StateLayer.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import { isoSeconds } from "../Time.ts"
import { resolveOut } from "./output.ts"
import { shorten } from "./progress/format.ts"
import { AS_OF_AHEAD, behind, type HeightLine, isUnreachable, NEWEST_BEFORE, span, TIP_BELOW, type Unreachable } from "../status/lag.ts"
import type { StatusProbeFailed } from "./status/live.ts"
import { type ListingStatus, type Status, statusOf } from "../status/model.ts"
import { committedHeights, readRuns } from "../status/read.ts"
import { datasetMeta } from "../status/registry.ts"
import { table } from "./table.ts"

export interface StatusArgs {
  readonly out: string | undefined
  readonly live: boolean
  readonly json: boolean
}

/** Rows each dataset's view returns now (one query over the views; see `reader` for which views). */
const liveRows = (names: ReadonlyArray<string>) =>
  Effect.map(
    Effect.flatMap(OutputReader, (reader) =>
      names.length === 0
        ? Effect.succeed([])
        : reader.query(names.map((n) => `SELECT '${n}' AS dataset, count(*)::BIGINT AS n FROM ${n}`).join(" UNION ALL "), {}, names)
    ),
    (rows) => new Map(rows.map((r) => [String(r["dataset"]), Number(r["n"])]))
  )

const HOLES_NOTE =
  "(holes: records that could not be mapped (in _rejects with the reason) and are not written since: their keys or windows are not complete, and the next run asks for them again; ? : an older chainetl's checkpoint, counted by the next run)"

/** A count of holes as the tables show it: empty for none, ? when not counted. */
const holesText = (n: number | null): string => (n === null ? "?" : n === 0 ? "" : String(n))

/** A height listing's holes with their first heights. */
const heightHoles = (h: HeightLine): string => {
  if (h.holes === 0) return ""
  const shown = h.holeKeys.slice(0, 3).join(", ")
  return `${holesText(h.holes)}${shown === "" ? "" : ` (${shown}${h.holeKeys.length > 3 ? ", …" : ""})`}`
}

const render = (status: Status, heights: ReadonlyArray<HeightLine>, latest: ReadonlyArray<number | Unreachable | undefined> | undefined, now: number): void => {
  const notes = new Set<string>()
  // said once, under the first table that has holes
  let holesNoted = false
  const noteHoles = (any: boolean) => {
    if (!any || holesNoted) return
    holesNoted = true
    console.log(HOLES_NOTE)
  }
  const lagCell = (l: ListingStatus, newest: number | Unreachable | undefined): string => {
    if (l.watermark === null) return ""
    if (isUnreachable(newest)) return "unreachable (below)"
    const b = newest === undefined ? (latest === undefined ? behind(now, l.watermark, AS_OF_AHEAD) : undefined) : behind(newest, l.watermark, NEWEST_BEFORE)
    if (b === undefined) return ""
    if (b.note !== undefined) notes.add(b.note)
    return `${span(b.seconds)}${b.note === undefined ? "" : " *"}`
  }
  if (status.listings.length > 0) {
    console.log(
      table(
        ["dataset", "listing", "windows", "done", "since", "complete through", latest === undefined ? "age" : "lag", "holes", "pending", "last run"],
        status.listings.map((l, i) => {
          const lag = lagCell(l, latest?.[i])
          const pending = l.pending.length === 0 ? "" : `${l.pending.length}: ${l.pending.slice(0, 2).map((p) => `[${isoSeconds(p.from)}, ${isoSeconds(p.to)}) ${p.status}${p.status === "done" ? ` with ${holesText(p.holes)} holes` : ""}`).join(", ")}${l.pending.length > 2 ? ", …" : ""}`
          return [l.dataset, shorten(Object.values(l.listing).join("/"), 24), l.windows, l.done, l.since === null ? "" : isoSeconds(l.since), l.watermark === null ? "" : isoSeconds(l.watermark), lag, holesText(l.holes), pending, l.lastRun ?? ""]
        })
      )
    )
    console.log(latest === undefined ? "(age: behind this machine's clock; --live measures the lag behind the service's newest block)" : "")
    noteHoles(status.listings.some((l) => l.holes !== 0))
    for (const n of notes) console.log(`* ${n}`)
    console.log("")
  }
  if (heights.length > 0) {
    console.log(
      table(
        ["dataset", "listing", "scanned through", "complete through", "holes", "latest", "lag (blocks)"],
        heights.map((h) => [
          h.dataset,
          shorten(Object.values(h.listing).join("/"), 56),
          h.height,
          h.completeThrough ?? "-",
          heightHoles(h),
          h.latest ?? (h.error === undefined ? "" : "unreachable (below)"),
          `${h.lagBlocks ?? ""}${h.lagNote === undefined ? "" : " *"}`
        ])
      )
    )
    console.log(
      `(scanned through: the highest block the crawl has looked at; complete through: every height from the lowest up to there is written, stopping below the first gap or hole${heights.every((h) => h.latest === null && h.error === undefined) ? "; --live asks each service for its latest height" : ""})`
    )
    noteHoles(heights.some((h) => h.holes !== 0))
    if (heights.some((h) => h.lagNote !== undefined)) console.log(`* ${TIP_BELOW}`)
    console.log("")
  }
  if (status.datasets.length > 0) {
    console.log(
      table(
        ["dataset", "slices", "done", "failed", "running", "holes", "rows", "last run", "updated"],
        status.datasets.map((d) => [d.dataset, d.slices, d.done, d.failed, d.running, holesText(d.holes), d.rows ?? "?", d.lastRun ?? "", d.updatedAt === null ? "" : `${d.updatedAt.slice(0, 19)}Z`])
      )
    )
    console.log("(rows: what the dataset's view returns now; a replacing slice's earlier versions are not counted)")
    noteHoles(status.datasets.some((d) => d.holes !== 0))
    console.log("")
  }
  if (status.runs.length > 0) {
    console.log(
      table(
        ["run", "mode", "status", "started", "slices", "failed", "rows", "requests", "429s", "waited"],
        status.runs.map((r) => [r.runId, r.mode, r.status, `${r.startedAt.slice(0, 19)}Z`, r.slices, r.failed, r.rows, r.requests, r.rateLimited, `${(r.waitMs / 1000).toFixed(1)}s`])
      )
    )
    console.log("")
  }
  if (status.failures.length > 0) {
    console.log(`failed slices (${status.failures.length}); rerun the same command to resume them:`)
    for (const f of status.failures) console.log(`  ${f.dataset}/${f.slice} (run ${f.runId}): ${f.error}`)
  }
}

/**
 * `--out s3://…`: status reads a private copy of the bucket's files, removed afterwards (a run on
 * this machine may be changing the shared working copy); the module is loaded only then.
 */
export const statusCommand = (args: StatusArgs) =>
  /^s3:\/\//i.test(args.out ?? process.env["CHAINETL_OUT"] ?? "")
    ? Effect.scoped(
        Effect.flatMap(Effect.promise(() => import("./bucketOutput.ts")), (m) =>
          Effect.flatMap(m.openBucket(m.bucketOut(args.out)!, { needsState: true, dir: { kind: "private" } }), (opened) =>
            statusOfFolder({ ...args, out: opened.dir })
          )
        )
      )
    : statusOfFolder(args)

const statusOfFolder = (args: StatusArgs) =>
  Effect.gen(function* () {
    const out = resolveOut(args.out)
    const store = yield* CheckpointStore
    const checkpoints = yield* store.list()
    const runs = yield* readRuns(out)
    if (checkpoints.length === 0 && runs.length === 0) {
      console.log(`no checkpoints under ${out}/_state: nothing has run here yet`)
      return
    }
    const metas = yield* datasetMeta
    const windowed = metas.filter((m) => m.windowed).map((m) => m.name)
    // rows are counted for the datasets the table lists (not a windowed listing's)
    const listed = new Set(statusOf(checkpoints, runs, windowed).datasets.map((d) => d.dataset))
    const names = metas.map((m) => m.name).filter((n) => listed.has(n))
    // the catalog's own views when it has every dataset: what readers query, and cheap to open,
    // once for every query; the schemas are loaded only to build views from the files if it has not
    const entries = Effect.map(Effect.promise(() => import("../catalogEntries.ts")), (m) => m.catalogEntries())
    const { counted, committed } = yield* Effect.gen(function* () {
      const counted = yield* Effect.either(liveRows(names))
      if (Either.isLeft(counted)) yield* Effect.logWarning(`rows not counted (the output could not be read): ${counted.left.message}`)
      return { counted, committed: yield* committedHeights(metas) }
    }).pipe(Effect.provide(OutputReader.layerPreferringCatalog(out, entries)))
    const status = statusOf(checkpoints, runs, windowed, 5, Either.getOrUndefined(counted))
    let latest: ReadonlyArray<number | Unreachable | undefined> | undefined
    let heights: ReadonlyArray<HeightLine> = committed
    let unreachable: StatusProbeFailed | undefined
    if (args.live) {
      // the pipelines and the HTTP stack: only a probe needs them
      const { probe } = yield* Effect.promise(() => import("./status/live.ts"))
      const probed = yield* probe(out, status.listings, committed)
      latest = probed.latest
      heights = probed.heights
      unreachable = probed.unreachable
    }
    if (args.json) {
      const now = Math.floor(Date.now() / 1000)
      const withLag = status.listings.map((l, i) => {
        const newest = latest?.[i]
        const lag = typeof newest === "number" && l.watermark !== null ? behind(newest, l.watermark, NEWEST_BEFORE) : undefined
        const age = latest === undefined && l.watermark !== null ? behind(now, l.watermark, AS_OF_AHEAD) : undefined
        return {
          ...l,
          latest: typeof newest === "number" ? newest : null,
          lagSeconds: lag?.seconds ?? null,
          ...(lag?.note === undefined ? {} : { lagNote: lag.note }),
          ...(isUnreachable(newest) ? { error: `unreachable: ${newest.error}` } : {}),
          ...(age === undefined ? {} : { ageSeconds: age.seconds, ...(age.note === undefined ? {} : { ageNote: age.note }) })
        }
      })
      console.log(JSON.stringify({ ...status, listings: withLag, heights }, null, 2))
    } else {
      render(status, heights, latest, Math.floor(Date.now() / 1000))
    }
    if (unreachable !== undefined) return yield* Effect.fail(unreachable)
  }).pipe(Effect.provide(stateLayer(resolveOut(args.out))))
