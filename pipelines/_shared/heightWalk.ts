/**
 * Node blocks by height window (node_x_blocks, node_p_blocks). Slices are made from the job
 * alone, before any request, so they cannot know the tip and cannot list the windows that exist:
 * one slice per chain and height range walks the windows itself (as token_transfers does), and
 * reruns every run. Its first page reads the tip and the committed heights of the range, and the
 * cursor carries both ({next, end, islands}), so a resumed listing stops where it meant to.
 *
 * A page is one window (`nodeHeightWindow` heights, aligned on multiples of it) or what of it lies
 * below the tip: the open last window. Committed heights are never asked for again, so a closed
 * window is final, and the next run continues the open window from its first new height, then
 * into new windows.
 *
 * A height whose block becomes a reject is not committed: it is a hole of its slice (each page
 * names its heights, Page.keys), the slice is not final while it has one, and the next walk of
 * the range asks for it again with the other missing heights (src/crawl/Holes.ts).
 */
import { Effect, Schema } from "effect"
import { type CursorCodec, cursorListing, DecimalText, jsonCursor } from "../../src/crawl/Cursor.ts"
import { type Listing, RecordError, type SliceContext } from "../../src/crawl/Dataset.ts"
import { isComplete } from "../../src/crawl/Holes.ts"
import { heightsAfter, keyHeight } from "../../src/crawl/KeyedListing.ts"
import { OutputReader } from "../../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../../src/crawl/Slice.ts"
import { SourceError } from "../../src/Errors.ts"
import type { Job } from "../../src/Job.ts"
import { JsonRpcClient } from "../../src/source/JsonRpcClient.ts"
import { nodeNetwork, rpcObject, onNodeNetwork } from "./nodeRpc.ts"
import { nodeTime } from "../../schemas/wire.ts"

export interface HeightCursor {
  readonly next: string
  /** One past the last height this listing fetches: min(range end, tip + 1) at its start. */
  readonly end: string
  /** Committed height ranges [lo, hi] within the range, ascending. */
  readonly islands: ReadonlyArray<readonly [string, string]>
}

/** How the checkpoint keeps the cursor (src/crawl/Cursor.ts): a resumed walk is handed it back checked. */
const heightCursor: CursorCodec<HeightCursor> = jsonCursor(
  Schema.Struct({ next: DecimalText, end: DecimalText, islands: Schema.Array(Schema.Tuple(DecimalText, DecimalText)) })
)

export interface HeightWalkSpec {
  readonly dataset: string
  /** Height of the last accepted block; -1 for an empty chain. */
  readonly tip: Effect.Effect<bigint, SourceError, JsonRpcClient>
  /** The block at a height, as the record toRow reads. */
  readonly block: (height: bigint) => Effect.Effect<unknown, SourceError, JsonRpcClient>
  /** Block calls in flight. */
  readonly concurrency: number
}

/** The height-walk slice of a chain: the job's range (all history when absent) and window. */
export const heightSlice = (dataset: string, job: Job, range: { readonly from: string; readonly to?: string | undefined } | undefined): Slice =>
  makeSlice(dataset, { network: nodeNetwork(job), window: job.nodeHeightWindow, from: range?.from ?? "0", to: range?.to ?? "" })

/**
 * A height backfill's slices: cells of `--window` heights (the job's window by default) on a grid
 * from 0, clipped to [from, to), each its own slice, final once done without holes. Cells complete
 * before are left out, so a rerun does only the missing ones and those whose blocks were rejected. The walk inside a cell skips heights committed by
 * anyone (cells of another size, the nightly walk), and the nightly walk skips the cells', so
 * the two never fetch a block twice; heights past the tip are left to the nightly walk.
 */
export const heightCells = (dataset: string, job: Job, ctx: SliceContext): ReadonlyArray<Slice> => {
  const backfill = ctx.backfill
  if (backfill?.unit !== "height") return []
  const size = BigInt(backfill.window ?? job.nodeHeightWindow) || 1n
  const to = BigInt(backfill.to)
  const done = new Set((ctx.checkpoints ?? []).filter(isComplete).map((c) => c.slice))
  const out: Slice[] = []
  for (let from = BigInt(backfill.from); from < to; ) {
    const cellEnd = (from / size + 1n) * size
    const end = cellEnd < to ? cellEnd : to
    // finalAfter 0: a cell done without holes is final (its heights below the tip were all written)
    const slice = makeSlice(dataset, { network: nodeNetwork(job), window: String(size), from: String(from), to: String(end) }, 0)
    if (!done.has(slice.id)) out.push(slice)
    from = end
  }
  return out
}

/** A node block dataset's slices: the nightly walk, or a height backfill's cells. */
export const nodeBlockSlices =
  (dataset: string, range: (job: Job) => { readonly from: string; readonly to?: string | undefined } | undefined) =>
  (job: Job, ctx: SliceContext): ReadonlyArray<Slice> =>
    ctx.backfill === undefined ? [heightSlice(dataset, job, range(job))] : heightCells(dataset, job, ctx)

const committedIslands = (dataset: string, network: string, from: bigint, end: bigint) =>
  Effect.gen(function* () {
    const rows = yield* (yield* OutputReader).query(
      `SELECT min(height)::VARCHAR AS lo, max(height)::VARCHAR AS hi
       FROM (SELECT height, height - row_number() OVER (ORDER BY height) AS g
             FROM (SELECT DISTINCT height FROM ${dataset} WHERE network = $network AND height >= $from AND height < $end))
       GROUP BY g ORDER BY min(height)`,
      { network, from, end },
      [dataset]
    )
    return rows.map((r) => [String(r["lo"]), String(r["hi"])] as const)
  })

export const heightWalk = (spec: HeightWalkSpec): Listing<JsonRpcClient | OutputReader> =>
  onNodeNetwork(cursorListing({
    cursor: heightCursor,
    // the walk starts after what is committed, so it never yields a committed height
    excludesCommitted: true,
    // and every pass asks for each height of the range not committed, a rejected one included
    revisits: () => true,
    fetch: (slice, cursor) =>
      Effect.gen(function* () {
        const p = slice.params
        let at: HeightCursor
        if (cursor === undefined) {
          const from = BigInt(p["from"] ?? "0")
          const tip = yield* spec.tip
          const bound = p["to"] === undefined || p["to"] === "" ? tip + 1n : BigInt(p["to"])
          const end = bound < tip + 1n ? bound : tip + 1n
          const islands = from < end ? yield* committedIslands(spec.dataset, p["network"] ?? "", from, end) : []
          at = { next: String(from), end: String(end), islands }
        } else at = cursor
        const end = BigInt(at.end)
        const islands = at.islands.map(([lo, hi]) => [BigInt(lo), BigInt(hi)] as const)
        const committed = (h: bigint) => islands.some(([lo, hi]) => h >= lo && h <= hi)
        let next = BigInt(at.next)
        for (const [lo, hi] of islands) if (next >= lo && next <= hi) next = hi + 1n
        if (next >= end) return { records: [], keys: [], next: undefined }
        const size = BigInt(p["window"] ?? "1") > 0n ? BigInt(p["window"] ?? "1") : 1n
        const windowEnd = (next / size + 1n) * size
        const stop = windowEnd < end ? windowEnd : end
        const heights = heightsAfter(next, stop, undefined, Number(stop - next)).map(keyHeight).filter((h) => !committed(h))
        const records = yield* Effect.forEach(heights, spec.block, { concurrency: spec.concurrency })
        return {
          records,
          // the key of each record is its height, as the dataset's key column spells it
          keys: heights.map(String),
          next: stop < end ? { ...at, next: String(stop) } : undefined
        }
      })
  }))

/** A block record: the height asked for and the node's json block (toRow checks they agree). */
export const blockRecord = (chain: "X" | "P", method: string, height: bigint, heightParam: string | number) =>
  Effect.map(rpcObject(chain, method, { height: heightParam, encoding: "json" }), (r) => ({ height: height.toString(), block: r["block"] }))

/** The columns both node block datasets compute alike, once the node is known to have answered the height asked for. */
export const blockHeaderColumns = (
  height: string,
  block: { readonly height: bigint; readonly id: string; readonly parentID: string; readonly time?: bigint | undefined; readonly txs: ReadonlyArray<unknown> }
) => {
  if (block.height.toString() !== height) throw new RecordError(`asked for height ${height}, the node answered block ${block.height}`)
  return {
    height: block.height,
    block_id: block.id,
    parent_id: block.parentID,
    block_timestamp: block.time === undefined ? null : nodeTime(block.time),
    tx_count: block.txs.length
  }
}
