/**
 * One dataset's figures: rows (total and per listing and day), the days and heights with no data
 * between a listing's first and last, and its live files per partition folder, all read through
 * the catalog (its views, and the Parquet footers of exactly the files those views read).
 */
import { Effect } from "effect"
import * as path from "node:path"
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import { type Interval, windowOf } from "../crawl/Windows.ts"
import { hasParquet } from "../sink/Catalog.ts"
import type { CatalogDataset } from "../sink/CatalogSql.ts"
import { decodeValue } from "../sink/HivePath.ts"
import { fileSet } from "../compact/Manifest.ts"
import { CatalogReader } from "./CatalogReader.ts"
import { byCoverage, missingDays, missingHeights } from "./gaps.ts"
import type { DatasetFigures, DayCount, DayGaps, HeightGap, Partition } from "./model.ts"
import { HEIGHT_COLUMNS, dayColumnOf, heightIslandsSql, listingKeys, liveFilesMetadataSql, rowsPerDaySql, timeKey, totalsSql } from "./queries.ts"

const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v))

/** A finished window of a listing, up to where its last run completed it (a head window ends there). */
const doneWindows = (checkpoints: ReadonlyArray<CheckpointState>, keys: ReadonlyArray<string>): ReadonlyMap<string, ReadonlyArray<Interval>> => {
  const byListing = new Map<string, Interval[]>()
  for (const c of checkpoints) {
    const w = windowOf(c.params)
    if (c.status !== "done" || w === undefined) continue
    const values = keys.map((k) => c.params[k])
    if (values.some((v) => v === undefined)) continue
    const listing = values.join("/")
    byListing.set(listing, [...(byListing.get(listing) ?? []), { from: w.from, to: Math.min(w.to, c.completedAsOf ?? w.to) }])
  }
  return byListing
}

/** Live files grouped by their folder, rows and bytes summed exactly. */
const partitionsOf = (datasetDir: string, d: CatalogDataset, files: ReadonlyArray<Record<string, unknown>>): ReadonlyArray<Partition> => {
  const keys = listingKeys(d)
  const time = timeKey(d)
  const folders = new Map<string, { files: number; rows: bigint; bytes: bigint }>()
  for (const f of files) {
    const folder = path.relative(datasetDir, path.dirname(str(f["file"]))).split(path.sep).join("/")
    const acc = folders.get(folder) ?? { files: 0, rows: 0n, bytes: 0n }
    folders.set(folder, { files: acc.files + 1, rows: acc.rows + BigInt(str(f["rows"])), bytes: acc.bytes + BigInt(str(f["bytes"])) })
  }
  return [...folders].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([folder, acc]) => {
    const values = new Map(
      folder.split("/").flatMap((segment) => {
        const i = segment.indexOf("=")
        return i < 0 ? [] : [[segment.slice(0, i), decodeValue(segment.slice(i + 1))] as const]
      })
    )
    return {
      path: folder,
      listing: keys.map((k) => values.get(k) ?? "NULL").join("/"),
      time: time === undefined ? null : (values.get(time) ?? null),
      files: acc.files,
      rows: acc.rows.toString(),
      bytes: acc.bytes.toString()
    }
  })
}

export interface DatasetInput {
  readonly out: string
  /** The dataset at the grain its folder holds (Catalog.layoutOnDisk). */
  readonly dataset: CatalogDataset
  readonly files: { readonly glob: string; readonly compacted: ReadonlyArray<string>; readonly replaced: ReadonlyArray<string> } | undefined
  readonly windowed: boolean
  readonly checkpoints: ReadonlyArray<CheckpointState>
  /** Whether a snapshot dataset (a snapshot per listing and day is expected). */
  readonly snapshot: boolean
}

export const datasetFigures = (input: DatasetInput) =>
  Effect.gen(function* () {
    const { dataset: d } = input
    const catalog = yield* CatalogReader
    const dayColumn = dayColumnOf(d)
    const [totals] = yield* catalog.rows(totalsSql(d), `rows of ${d.name}`)
    const rowsPerDay: ReadonlyArray<DayCount> = (yield* catalog.rows(rowsPerDaySql(d, dayColumn), `rows per day of ${d.name}`)).map((r) => ({
      listing: str(r["listing"]),
      day: str(r["day"]),
      rows: str(r["rows"])
    }))
    const days = rowsPerDay.map((r) => r.day).sort()
    // a day is expected for the record-time and snapshot days only: an ingestion day is when a run happened
    const expectsDays = dayColumn === "date" || (dayColumn === "snapshot_date" && input.snapshot)
    const windows = input.windowed ? doneWindows(input.checkpoints, listingKeys(d)) : undefined
    const dayGaps: ReadonlyArray<DayGaps> | null = !expectsDays
      ? null
      : [...new Set(rowsPerDay.map((r) => r.listing))].flatMap((listing) => {
          const missing = missingDays(rowsPerDay.filter((r) => r.listing === listing).map((r) => r.day))
          if (missing.length === 0) return []
          return [{ listing, ranges: windows === undefined ? missing : byCoverage(missing, windows.get(listing) ?? []) }]
        })
    const heightColumn = HEIGHT_COLUMNS[d.name] ?? null
    const heightGaps: ReadonlyArray<HeightGap> | null =
      heightColumn === null
        ? null
        : yield* Effect.map(catalog.rows(heightIslandsSql(d, heightColumn), `heights of ${d.name}`), (islands) => {
            const listings = [...new Set(islands.map((r) => str(r["listing"])))]
            return listings.flatMap((listing) =>
              missingHeights(islands.filter((r) => str(r["listing"]) === listing).map((r) => ({ from: BigInt(str(r["from"])), to: BigInt(str(r["to"])) }))).map((g) => ({
                listing,
                from: g.from.toString(),
                to: g.to.toString(),
                count: g.count.toString()
              }))
            )
          })
    const files = input.files === undefined ? [] : yield* catalog.rows(liveFilesMetadataSql(input.files), `files of ${d.name}`)
    return {
      dataset: d.name,
      listingKeys: listingKeys(d),
      rows: str(totals?.["rows"] ?? "0"),
      dayColumn,
      rowsPerDay,
      firstDay: days[0] ?? null,
      lastDay: days[days.length - 1] ?? null,
      newestIngest: totals?.["newest_ingest"] === null || totals?.["newest_ingest"] === undefined ? null : str(totals["newest_ingest"]),
      dayGaps,
      heightGaps,
      heightColumn,
      partitions: partitionsOf(path.join(input.out, d.name), d, files),
      windowed: input.windowed
    } satisfies DatasetFigures
  })

/** The dataset's glob and its manifest's file lists (which files the view reads), or undefined while it has no file. */
export const liveFileSet = (out: string, name: string) =>
  Effect.tryPromise(async () => ((await hasParquet(path.join(out, name))) ? { glob: path.join(out, name, "**", "*.parquet"), ...(await fileSet(out, name)) } : undefined))
