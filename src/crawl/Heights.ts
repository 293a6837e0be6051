/**
 * How far each listing of a height-ordered dataset has scanned, from its declared columns
 * (Dataset.ts HeightColumns): the highest committed height per listing, or, for listings whose
 * checkpoints carry a reach, that reach when it is further. `chainetl status` reads it; it loads no
 * pipeline, so status need not import the pipelines' decoders.
 */
import { Effect } from "effect"
import { CheckpointStore } from "./Checkpoint.ts"
import type { HeightColumns } from "./Dataset.ts"
import { OutputReader } from "./OutputReader.ts"

export interface ScannedHeight {
  readonly listing: Readonly<Record<string, string>>
  readonly height: string
}

/** The highest committed height per listing: `SELECT <listing columns>, max(<height>)` over the dataset's view. */
const committed = (dataset: string, columns: HeightColumns) =>
  Effect.map(
    Effect.flatMap(OutputReader, (reader) =>
      reader.query(`SELECT ${columns.listing.join(", ")}, max(${columns.column})::VARCHAR AS height FROM ${dataset} GROUP BY ALL ORDER BY ALL`, {}, [dataset])
    ),
    (rows) => rows.map((r): ScannedHeight => ({ listing: Object.fromEntries(columns.listing.map((c) => [c, String(r[c])])), height: String(r["height"]) }))
  )

/**
 * Per listing the height scanned through. With `reach`: per checkpoint its reach when past the
 * listing's rows (else the rows' height), then the listings with rows but no checkpoint, in the
 * order of their listing's JSON. Values compare case-insensitively: a job's checksummed address
 * and the rows' spelling of it may differ in case.
 */
export const scannedHeights = (dataset: string, columns: HeightColumns) =>
  Effect.gen(function* () {
    const rows = yield* committed(dataset, columns)
    const reach = columns.reach
    if (reach === undefined) return rows
    const states = yield* (yield* CheckpointStore).list(dataset)
    const paramsOf = (params: Readonly<Record<string, unknown>>) => Object.fromEntries(columns.listing.map((c) => [c, String(params[reach[c] ?? c])]))
    const same = (l: Readonly<Record<string, string>>, p: Readonly<Record<string, string>>) => columns.listing.every((c) => l[c]?.toLowerCase() === p[c]?.toLowerCase())
    const scanned = states.flatMap((c): ReadonlyArray<ScannedHeight> => {
      const own = paramsOf(c.params)
      const row = rows.find((r) => same(r.listing, own))
      const further = c.reach ?? undefined
      const height = further === undefined ? row?.height : row === undefined || BigInt(further) > BigInt(row.height) ? further : row.height
      return height === undefined ? [] : [{ listing: row?.listing ?? own, height }]
    })
    const rest = rows.filter((r) => !states.some((c) => same(r.listing, paramsOf(c.params))))
    return [...scanned, ...rest].sort((a, b) => JSON.stringify(a.listing).localeCompare(JSON.stringify(b.listing)))
  })
