/**
 * evm_blocks — route 10, one slice per chain of `job.evmChains`, rerun every run.
 *
 * The route lists latest first and takes no range, so each run lists from the top down to the
 * blocks it already has and stops there. What it has is read from the output when the listing
 * begins and carried in the cursor, so pages resumed after a crash (whose newest blocks are by
 * then committed) still stop at the same place: the heights 0..floor that are all present, and
 * any island above them a listing cut short (an expired token) left behind.
 */
import { Effect, Schema } from "effect"
import { type CursorCodec, cursorListing, DecimalText, jsonCursor } from "../src/crawl/Cursor.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/evm_blocks.ts"
import { latestBlock } from "./_evm.ts"

/** What was committed when a run's listing began, and where it is in the route's pages. */
interface Cursor {
  /** Highest h with every block 0..h committed; -1 when genesis is not. */
  readonly floor: string
  /** Committed height ranges [lo, hi] above the floor. */
  readonly islands: ReadonlyArray<readonly [string, string]>
  /** Page token of the next page; absent on the first. */
  readonly token?: string
}

/** How the checkpoint keeps the cursor (src/crawl/Cursor.ts): a resumed listing is handed it back checked. */
const cursor: CursorCodec<Cursor> = jsonCursor(
  Schema.Struct({ floor: DecimalText, islands: Schema.Array(Schema.Tuple(DecimalText, DecimalText)), token: Schema.optional(Schema.String) })
)

const committed = (chain: string) =>
  Effect.gen(function* () {
    const reader = yield* OutputReader
    const [all] = yield* reader.query(
      "SELECT count(*)::VARCHAR AS n, min(block_number)::VARCHAR AS lo, max(block_number)::VARCHAR AS hi FROM evm_blocks WHERE chain_id = $chain",
      { chain },
      ["evm_blocks"]
    )
    const n = BigInt(String(all?.["n"] ?? "0"))
    if (n === 0n) return { floor: "-1", islands: [] } satisfies Cursor
    // the usual case, answered from the aggregate: one run of heights from genesis
    if (all?.["lo"] === "0" && BigInt(String(all["hi"])) + 1n === n) return { floor: String(all["hi"]), islands: [] } satisfies Cursor
    // heights minus their rank are constant along a run of consecutive heights (rows are unique per height)
    const runs = yield* reader.query(
      `SELECT min(n)::VARCHAR AS lo, max(n)::VARCHAR AS hi
       FROM (SELECT block_number AS n, block_number - row_number() OVER (ORDER BY block_number) AS g FROM evm_blocks WHERE chain_id = $chain)
       GROUP BY g ORDER BY min(n)`,
      { chain },
      ["evm_blocks"]
    )
    const islands = runs.map((r) => [String(r["lo"]), String(r["hi"])] as const)
    const fromGenesis = islands[0]?.[0] === "0"
    return { floor: fromGenesis ? islands[0]![1] : "-1", islands: fromGenesis ? islands.slice(1) : islands } satisfies Cursor
  })

const heightOf = (record: unknown): bigint | undefined => {
  const v = typeof record === "object" && record !== null ? (record as Record<string, unknown>)["blockNumber"] : undefined
  return typeof v === "string" && /^[0-9]{1,78}$/.test(v) ? BigInt(v) : undefined
}

/** Seed Limits: 100 per page on route 10. */
const pages = restListing({ service: "data", path: (s) => `/v1/chains/${s.params["chain_id"]}/blocks`, items: "blocks", pageSize: 100 })

export const dataset = defineDataset(table, {
  name: "evm_blocks",
  description: "EVM blocks of the job's chains (chain-data route 10), every block once, new blocks added each run",
  services: ["data"],
  partitionBy: ["chain_id"],
  // Grain: day. A C-chain day is ~40k blocks (2 s blocks), ~20 MB of Parquet: a day folder is
  // already a well-sized read, a month (~600 MB) would make every date filter open 30× the files
  timePartition: { column: "block_timestamp", grain: "day" },
  key: ["block_hash"],
  // compacted files are sorted so: height order: a block-number filter reads the row groups of its range
  sortBy: ["block_number"],
  rerun: "always",
  heights: { listing: ["chain_id"], column: "block_number", latest: (l) => latestBlock(l["chain_id"] ?? "") },
  chain: { listing: ["chain_id"], height: "block_number", id: "block_hash", parent: "parent_hash" },
  slices: (job) => [...new Set(job.evmChains)].map((chain_id) => makeSlice("evm_blocks", { chain_id })),
  listing: cursorListing({
    cursor,
    // the listing skips what is committed itself, reading only aggregates, not every key
    excludesCommitted: true,
    fetch: (slice, resumed) =>
      Effect.gen(function* () {
        const at: Cursor = resumed ?? (yield* committed(String(slice.params["chain_id"])))
        const page = yield* pages.fetch(slice, at.token)
        const floor = BigInt(at.floor)
        const islands = at.islands.map(([lo, hi]) => [BigInt(lo), BigInt(hi)] as const)
        const isNew = (h: bigint) => h > floor && !islands.some(([lo, hi]) => h >= lo && h <= hi)
        // a record without a readable height is kept so that toRow rejects it with the reason
        const records = page.records.filter((r) => {
          const h = heightOf(r)
          return h === undefined || isNew(h)
        })
        const lowest = page.records.map(heightOf).reduce<bigint | undefined>((m, h) => (h === undefined || (m !== undefined && m < h) ? m : h), undefined)
        const more = page.next !== undefined && (lowest === undefined || lowest > floor + 1n)
        return { records, next: more ? { ...at, token: page.next } : undefined }
      })
  })
})
