/**
 * `chainetl status`: how far each windowed listing's history is complete (watermark), how far
 * that is behind (with --live, behind the service's newest block), the windows still pending;
 * how far each height-ordered listing got (with --live, blocks behind the tip); every other
 * dataset's slices, the last runs and every failed slice. Reads only the output folder unless
 * --live; never writes.
 */
import { Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { datasets as registry } from "../../pipelines/index.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import type { RunReport } from "../Runner.ts"
import { sourceLayerFromEnv } from "../source/SourceLayer.ts"
import { isoSeconds } from "../Time.ts"
import { resolveOut } from "./output.ts"
import { shorten } from "./progress/format.ts"
import { type ListingStatus, type Status, statusOf } from "./status/model.ts"
import { table } from "./table.ts"

export interface StatusArgs {
  readonly out: string | undefined
  readonly live: boolean
  readonly json: boolean
}

const span = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  if (s < 3_600) return `${Math.floor(s / 60)}m`
  if (s < 86_400) return `${Math.floor(s / 3_600)}h ${Math.floor((s % 3_600) / 60)}m`
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3_600)}h`
}

const readRuns = (out: string) =>
  Effect.promise(async () => {
    const dir = path.join(out, "_runs")
    const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"))
    const runs = await Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as RunReport))
    return runs
  })

/** The service's newest time per listing (--live): one small request each, failures shown, not fatal. */
const latestOf = (listings: ReadonlyArray<ListingStatus>) =>
  Effect.forEach(listings, (l) => {
    const spec = registry.find((d) => d.name === l.dataset)?.windows
    if (spec?.latest === undefined) return Effect.succeed<number | string | undefined>(undefined)
    return spec.latest(l.listing).pipe(Effect.catchAll((e) => Effect.succeed<number | string | undefined>(`unreachable: ${e.message}`)))
  })

/** A height-ordered listing: committed through which height, and (--live) the service's tip. */
interface HeightLine {
  readonly dataset: string
  readonly listing: Readonly<Record<string, string>>
  readonly height: string
  readonly latest: string | null
  readonly lagBlocks: string | null
  readonly error?: string
}

const committedHeights = Effect.gen(function* () {
  const lines: HeightLine[] = []
  for (const d of registry) {
    if (d.heights === undefined) continue
    for (const { listing, height } of yield* d.heights.committed) lines.push({ dataset: d.name, listing, height, latest: null, lagBlocks: null })
  }
  return lines
})

/** --live: each listing's tip, one small request each; an unreachable one is shown, not fatal. */
const withTips = (lines: ReadonlyArray<HeightLine>) =>
  Effect.forEach(lines, (line) => {
    const latest = registry.find((d) => d.name === line.dataset)?.heights?.latest
    if (latest === undefined) return Effect.succeed(line)
    return latest(line.listing).pipe(
      Effect.map((tip): HeightLine => ({ ...line, latest: String(tip), lagBlocks: String(tip - BigInt(line.height)) })),
      Effect.catchAll((e) => Effect.succeed<HeightLine>({ ...line, error: `unreachable: ${e.message}` }))
    )
  })

const render = (status: Status, heights: ReadonlyArray<HeightLine>, latest: ReadonlyArray<number | string | undefined> | undefined, now: number): void => {
  if (status.listings.length > 0) {
    console.log(
      table(
        ["dataset", "listing", "windows", "done", "since", "complete through", latest === undefined ? "age" : "lag", "pending", "last run"],
        status.listings.map((l, i) => {
          const newest = latest?.[i]
          const lag =
            l.watermark === null ? "" : newest === undefined ? (latest === undefined ? span(now - l.watermark) : "") : typeof newest === "string" ? newest : span(newest - l.watermark)
          const pending = l.pending.length === 0 ? "" : `${l.pending.length}: ${l.pending.slice(0, 2).map((p) => `[${isoSeconds(p.from)}, ${isoSeconds(p.to)}) ${p.status}`).join(", ")}${l.pending.length > 2 ? ", …" : ""}`
          return [l.dataset, shorten(Object.values(l.listing).join("/"), 24), l.windows, l.done, l.since === null ? "" : isoSeconds(l.since), l.watermark === null ? "" : isoSeconds(l.watermark), lag, pending, l.lastRun ?? ""]
        })
      )
    )
    console.log(latest === undefined ? "(age: behind this machine's clock; --live measures the lag behind the service's newest block)\n" : "")
  }
  if (heights.length > 0) {
    console.log(
      table(
        ["dataset", "listing", "committed through", "latest", "lag (blocks)"],
        heights.map((h) => [h.dataset, shorten(Object.values(h.listing).join("/"), 56), h.height, h.latest ?? h.error ?? "", h.lagBlocks ?? ""])
      )
    )
    console.log(heights.every((h) => h.latest === null && h.error === undefined) ? "(--live asks each service for its latest height)\n" : "")
  }
  if (status.datasets.length > 0) {
    console.log(
      table(
        ["dataset", "slices", "done", "failed", "running", "rows", "last run", "updated"],
        status.datasets.map((d) => [d.dataset, d.slices, d.done, d.failed, d.running, d.rows, d.lastRun ?? "", d.updatedAt === null ? "" : `${d.updatedAt.slice(0, 19)}Z`])
      )
    )
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

export const statusCommand = (args: StatusArgs) =>
  Effect.gen(function* () {
    const out = resolveOut(args.out)
    const store = yield* CheckpointStore
    const checkpoints = yield* store.list()
    const runs = yield* readRuns(out)
    if (checkpoints.length === 0 && runs.length === 0) {
      console.log(`no checkpoints under ${out}/_state: nothing has run here yet`)
      return
    }
    const status = statusOf(checkpoints, runs, registry.filter((d) => d.windows !== undefined).map((d) => d.name))
    const source = sourceLayerFromEnv({ out }, { out: "--out" })
    const latest = args.live ? yield* latestOf(status.listings).pipe(Effect.provide(source)) : undefined
    const reader = OutputReader.layer(out, catalogEntries())
    const committed = yield* committedHeights.pipe(Effect.provide(reader))
    const heights = args.live ? yield* withTips(committed).pipe(Effect.provide(source)) : committed
    if (args.json) {
      const withLag = status.listings.map((l, i) => {
        const newest = latest?.[i]
        return { ...l, latest: typeof newest === "number" ? newest : null, lagSeconds: typeof newest === "number" && l.watermark !== null ? newest - l.watermark : null }
      })
      console.log(JSON.stringify({ ...status, listings: withLag, heights }, null, 2))
      return
    }
    render(status, heights, latest, Math.floor(Date.now() / 1000))
  }).pipe(Effect.provide(Layer.orDie(CheckpointStore.layer(resolveOut(args.out)))))
