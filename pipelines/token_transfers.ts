/**
 * token_transfers — route 6, one slice per configured token contract, rerun every run, walking
 * block-range windows of `job.transferBlockWindow` blocks.
 *
 * Windows are aligned on multiples of the window size; the last one runs only up to the latest
 * block at the start of the run (route 10's first page) and is the open window. Slices are
 * computed from the job alone, before any request, so they cannot know the latest block and
 * cannot list the closed windows: the window walk lives in the listing, whose cursor names the
 * next window and the latest block the run stops at ({from, latest}).
 *
 * One page is one whole window (all its route-6 pages): the route lists newest first, so a window
 * is committed whole or not at all, and the transfers on disk always cover complete windows.
 * A run therefore starts right after the highest committed block: closed windows are never asked
 * for again, and the open window of the previous run is re-crawled only from its new blocks.
 */
import { Effect, Schema } from "effect"
import { type CursorCodec, cursorListing, DecimalText, jsonCursor } from "../src/crawl/Cursor.ts"
import { RecordError } from "../src/crawl/Dataset.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/token_transfers.ts"
import { distinctContracts, latestBlock } from "./_evm.ts"

const TOKENS = ["erc20Token", "erc721Token", "erc1155Token"] as const

/** A transfer names its token under one of three keys: one without any is no transfer of a token. */
const hasToken = (record: unknown): void => {
  const r = typeof record === "object" && record !== null ? (record as Record<string, unknown>) : {}
  if (TOKENS.every((k) => r[k] === undefined)) throw new RecordError("transfer has no erc20Token, erc721Token or erc1155Token")
}

/** The next window to fetch starts at `from`; the run stops after block `latest`. */
interface Cursor {
  readonly from: string
  readonly latest: string
}

/** How the checkpoint keeps the cursor (src/crawl/Cursor.ts): a resumed listing is handed it back checked. */
const cursor: CursorCodec<Cursor> = jsonCursor(Schema.Struct({ from: DecimalText, latest: DecimalText }))

/** Seed Limits: 100 per page on route 6; startBlock inclusive, endBlock exclusive. */
const pages = restListing({
  service: "data",
  path: (s) => `/v1/chains/${s.params["chain_id"]}/tokens/${s.params["address"]}/transfers`,
  query: (s) => ({ startBlock: s.params["start_block"], endBlock: s.params["end_block"] }),
  items: "transfers",
  pageSize: 100
})

/** Every transfer of blocks [from, to). */
const windowTransfers = (slice: Slice, from: bigint, to: bigint) =>
  Effect.gen(function* () {
    const window = { ...slice, params: { ...slice.params, start_block: String(from), end_block: String(to) } }
    const records: unknown[] = []
    let token: string | undefined
    do {
      const page = yield* pages.fetch(window, token)
      records.push(...page.records)
      token = page.next
    } while (token !== undefined)
    return records
  })

/** First block not covered by committed windows: one past the highest committed transfer. */
const resumeFrom = (chain: string, address: string) =>
  Effect.gen(function* () {
    const [row] = yield* (yield* OutputReader).query(
      "SELECT (max(block_number) + 1)::VARCHAR AS start FROM token_transfers WHERE chain_id = $chain AND lower(token_address) = lower($address)",
      { chain, address },
      ["token_transfers"]
    )
    const start = row?.["start"]
    return typeof start === "string" ? start : "0"
  })

export const dataset = defineDataset(table, {
  name: "token_transfers",
  description: "Transfers of the job's ERC-20/721/1155 contracts (chain-data route 6), crawled in block windows up to the latest block",
  services: ["data"],
  partitionBy: ["chain_id"],
  // Grain: day. A busy token contract (a stablecoin) moves 100k+ transfers a day, tens of MB:
  // day folders keep a date filter cheap; quiet contracts would fit a month, but one grain serves
  // every contract and the busy ones decide it
  timePartition: { column: "block_timestamp", grain: "day" },
  key: ["tx_hash", "log_index"],
  // compacted files are sorted so: chain order: block-number filters skip row groups
  sortBy: ["block_number", "log_index"],
  rerun: "always",
  // the walk's reach (the last window's end) is the height scanned: transfers are sparse in the
  // blocks scanned for them, so the last transfer's block would read as behind
  heights: { listing: ["chain_id", "token_address"], column: "block_number", reach: { chain_id: "chain_id", token_address: "address" }, latest: (l) => latestBlock(l["chain_id"] ?? "") },
  slices: (job) =>
    distinctContracts(job.tokenContracts).map((c) => makeSlice("token_transfers", { chain_id: c.chainId, address: c.address, window: job.transferBlockWindow })),
  listing: cursorListing({
    cursor,
    // a run starts after what is committed, so it never yields a committed transfer
    excludesCommitted: true,
    fetch: (slice, resumed) =>
      Effect.gen(function* () {
        const chain = String(slice.params["chain_id"])
        const at: Cursor = resumed ?? { from: yield* resumeFrom(chain, String(slice.params["address"])), latest: String(yield* latestBlock(chain)) }
        const from = BigInt(at.from)
        const latest = BigInt(at.latest)
        // reach: the blocks scanned so far (status reports it; transfers are sparse in them)
        if (from > latest) return { records: [], next: undefined, reach: at.latest }
        // the job's pattern admits "0", which no window can be
        const size = BigInt(String(slice.params["window"])) || 1n
        const boundary = (from / size + 1n) * size
        const to = boundary < latest + 1n ? boundary : latest + 1n
        const records = yield* windowTransfers(slice, from, to)
        return { records, next: to <= latest ? { from: String(to), latest: at.latest } : undefined, reach: String(to - 1n) }
      })
  }),
  check: hasToken
})
