/**
 * How far each listing of a height-ordered dataset has got, from its declared columns (Dataset.ts
 * HeightColumns) and its checkpoints: the height scanned through (the highest committed, or a
 * checkpoint's reach when further, or a rejected height when higher), how far it is complete (the
 * run of consecutive heights from its lowest, stopped below its first hole) and its holes
 * (Holes.ts: heights whose block was rejected and is not written since). `chainetl status` and
 * `report` read it; it loads no pipeline, so status need not import the pipelines' decoders.
 */
import { Effect } from "effect"
import { type CheckpointState, CheckpointStore } from "./Checkpoint.ts"
import type { HeightColumns } from "./Dataset.ts"
import { openHoles } from "./Holes.ts"
import { OutputReader } from "./OutputReader.ts"

export interface ScannedHeight {
  readonly listing: Readonly<Record<string, string>>
  readonly height: string
  /**
   * Every height from the listing's lowest up to here is committed and none below it is a hole;
   * null when that cannot be said: its lowest height asked for is a hole, its holes are not
   * counted yet (an older checkpoint), or (a sparse listing) it has holes whose heights are unknown.
   */
  readonly completeThrough: string | null
  /** Rejected records not written since, over the listing's slices; null when some slice's are unknown (an older checkpoint). */
  readonly holes: number | null
  /** Their heights where known, ascending (the first HOLE_KEYS_KEPT of each slice). */
  readonly holeKeys: ReadonlyArray<string>
}

/** A listing's committed heights: highest, lowest, and the end of the run of consecutive heights from the lowest. */
interface Committed {
  readonly listing: Readonly<Record<string, string>>
  readonly highest: bigint
  readonly lowest: bigint
  readonly firstRunEnd: bigint
}

/** Per listing, one pass over its distinct heights: where the first run of consecutive heights ends (gaps and islands). */
const committed = (dataset: string, columns: HeightColumns) => {
  const cols = columns.listing.join(", ")
  return Effect.map(
    Effect.flatMap(OutputReader, (reader) =>
      reader.query(
        `SELECT ${cols}, max(h)::VARCHAR AS highest, min(h)::VARCHAR AS lowest, min(h) FILTER (WHERE nxt IS NULL OR nxt > h + 1)::VARCHAR AS first_end
         FROM (SELECT ${cols}, h, lead(h) OVER (PARTITION BY ${cols} ORDER BY h) AS nxt
               FROM (SELECT DISTINCT ${cols}, ${columns.column} AS h FROM ${dataset} WHERE ${columns.column} IS NOT NULL))
         GROUP BY ALL ORDER BY ALL`,
        {},
        [dataset]
      )
    ),
    (rows) =>
      rows.map(
        (r): Committed => ({
          listing: Object.fromEntries(columns.listing.map((c) => [c, String(r[c])])),
          highest: BigInt(String(r["highest"])),
          lowest: BigInt(String(r["lowest"])),
          firstRunEnd: BigInt(String(r["first_end"]))
        })
      )
  )
}

const HEIGHT = /^[0-9]+$/

/**
 * Of the slices' hole heights, those the dataset holds now (written since by another slice), per
 * listing (its values lowered, as JSON); the heights are digits only, so they are inlined.
 */
const writtenOf = (dataset: string, columns: HeightColumns, states: ReadonlyArray<CheckpointState>) => {
  const keys = [...new Set(states.filter((c) => openHoles(c) !== 0).flatMap((c) => c.holeKeys ?? []))].filter((k) => HEIGHT.test(k))
  if (keys.length === 0) return Effect.succeed(new Map<string, ReadonlySet<string>>())
  return Effect.map(
    Effect.flatMap(OutputReader, (reader) =>
      reader.query(`SELECT DISTINCT ${columns.listing.join(", ")}, ${columns.column}::VARCHAR AS h FROM ${dataset} WHERE ${columns.column} IN (${keys.join(", ")})`, {}, [dataset])
    ),
    (rows) => {
      const byListing = new Map<string, Set<string>>()
      for (const r of rows) {
        const listing = JSON.stringify(columns.listing.map((c) => String(r[c]).toLowerCase()))
        byListing.set(listing, (byListing.get(listing) ?? new Set()).add(String(r["h"])))
      }
      return byListing as ReadonlyMap<string, ReadonlySet<string>>
    }
  )
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b)

/**
 * One listing's line from its committed heights (if any), its checkpoints and whether it is sparse
 * (its rows are not every height: transfers, scanned by `reach`). Pure.
 */
export const heightLine = (
  listing: Readonly<Record<string, string>>,
  rows: Committed | undefined,
  states: ReadonlyArray<CheckpointState>,
  sparse: boolean,
  written: ReadonlySet<string> = new Set()
): ScannedHeight | undefined => {
  // a hole another slice has written since (the nightly walk over a backfill cell's height) is no hole
  const open = (c: CheckpointState) => c.holeKeys?.filter((k) => !written.has(k)) ?? []
  const counts = states.map((c) => {
    const n = openHoles(c)
    return n === undefined ? undefined : n - ((c.holeKeys?.length ?? 0) - open(c).length)
  })
  const holes = counts.some((n) => n === undefined) ? null : counts.reduce<number>((n, k) => n + (k ?? 0), 0)
  const keys = [...new Set(states.filter((c) => openHoles(c) !== 0).flatMap(open))]
    .filter((k) => HEIGHT.test(k))
    .map(BigInt)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const reach = states.map((c) => c.reach).filter((r): r is string => typeof r === "string" && HEIGHT.test(r)).map(BigInt)
  const seen = [...(rows === undefined ? [] : [rows.highest]), ...(sparse ? reach : []), ...keys]
  if (seen.length === 0) return undefined
  const height = seen.reduce(max)
  const firstHole = keys[0]
  // complete up to: a dense listing's first run of consecutive heights, a sparse one's scan
  const base = rows === undefined ? undefined : sparse ? height : rows.firstRunEnd
  let completeThrough: bigint | undefined = base
  if (firstHole !== undefined && base !== undefined) completeThrough = base < firstHole - 1n ? base : firstHole - 1n
  // holes without heights cannot be placed: a dense listing's gaps show them, a sparse one's do
  // not; and holes not counted (an older checkpoint) may lie anywhere, below the lowest row too
  if (holes === null || (sparse && holes !== 0 && firstHole === undefined)) completeThrough = undefined
  if (completeThrough !== undefined && rows !== undefined && completeThrough < rows.lowest) completeThrough = undefined
  return {
    listing,
    height: height.toString(),
    completeThrough: completeThrough === undefined ? null : completeThrough.toString(),
    holes,
    holeKeys: keys.map(String)
  }
}

/**
 * Per listing the height scanned through, how far it is complete and its holes. A listing is
 * named by its rows' values, or a checkpoint's params (`reach` maps a listing column to its
 * slice param) when all it has are holes; values compare case-insensitively: a job's checksummed
 * address and the rows' spelling of it may differ in case. In the order of the listing's JSON.
 */
export const scannedHeights = (dataset: string, columns: HeightColumns) =>
  Effect.gen(function* () {
    const rows = yield* committed(dataset, columns)
    const states = yield* (yield* CheckpointStore).list(dataset)
    const written = yield* writtenOf(dataset, columns, states)
    const paramsOf = (params: Readonly<Record<string, unknown>>) => Object.fromEntries(columns.listing.map((c) => [c, String(params[columns.reach?.[c] ?? c])]))
    const same = (l: Readonly<Record<string, string>>, p: Readonly<Record<string, string>>) => columns.listing.every((c) => l[c]?.toLowerCase() === p[c]?.toLowerCase())
    const listings = [...rows.map((r) => r.listing)]
    for (const c of states) {
      const own = paramsOf(c.params)
      if (!listings.some((l) => same(l, own)) && (openHoles(c) !== 0 || (columns.reach !== undefined && c.reach !== undefined && c.reach !== null))) listings.push(own)
    }
    return listings
      .flatMap((listing) => {
        const line = heightLine(
          listing,
          rows.find((r) => same(r.listing, listing)),
          states.filter((c) => same(listing, paramsOf(c.params))),
          columns.reach !== undefined,
          written.get(JSON.stringify(columns.listing.map((c) => listing[c]?.toLowerCase())))
        )
        return line === undefined ? [] : [line]
      })
      .sort((a, b) => JSON.stringify(a.listing).localeCompare(JSON.stringify(b.listing)))
  })
