/**
 * avm_utxos — the node's avm.getUTXOs for each x-chain address set of the job on the node's
 * network (see nodeNetwork): the X-chain's own UTXOs, and per `atomicSourceChains` entry the
 * atomic UTXOs exported to the X-chain from that chain (sourceChain). One snapshot per run day.
 *
 * Pages: limit 1024 (rule 2), the next page starts after the previous endIndex (rule 4), and the
 * listing ends on a page shorter than the limit (rule 5). The cursor is the endIndex as JSON text
 * (with the index of the 1024-address chunk, rule: at most 1024 addresses per call). Rule 6 (a
 * UTXO may repeat across pages) is met with distinctRecords: each utxo_id is written once per
 * slice. The columns are decoded from the bytes by src/decode/utxo.ts, as utxos' are.
 */
import { Effect, Schema } from "effect"
import { type CursorCodec, cursorListing, jsonCursor } from "../src/crawl/Cursor.ts"
import { type Listing, RecordError } from "../src/crawl/Dataset.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { type DecodedUtxo, decodeUtxoHex } from "../src/decode/utxo.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/avm_utxos.ts"
import { NodeInt } from "../schemas/wire.ts"
import { nodeNetwork, onNodeNetwork, primaryOf, rpcDecoded } from "./_shared/nodeRpc.ts"
import { decodedUtxoColumns } from "./_shared/nodeValues.ts"
import { distinctRecords } from "./_shared/restListings.ts"

/** Seed rules 2 and the address bound of the node: per call. */
const LIMIT = 1024
const MAX_ADDRESSES = 1024

interface Cursor {
  readonly chunk: number
  /** The previous page's endIndex: the next page starts after it; absent at a chunk's start. */
  readonly startIndex?: { readonly address: string; readonly utxo: string }
}

/** How the checkpoint keeps the cursor (src/crawl/Cursor.ts): a resumed listing is handed it back checked. */
const cursor: CursorCodec<Cursor> = jsonCursor(
  Schema.Struct({ chunk: Schema.Int.pipe(Schema.nonNegative()), startIndex: Schema.optional(Schema.Struct({ address: Schema.String, utxo: Schema.String })) })
)

const Page = Schema.Struct({
  numFetched: Schema.optional(NodeInt),
  utxos: Schema.Array(Schema.String),
  endIndex: Schema.Struct({ address: Schema.String, utxo: Schema.String })
})

/** A UTXO as listed: its hex and what it decodes to (or why it does not). */
interface Listed {
  readonly hex: string
  readonly decoded?: DecodedUtxo
  readonly error?: string
}

/** The node wants X-chain addresses as "X-<hrp>1…": job sets may leave the prefix off. */
const xAddress = (a: string): string => `X-${a.replace(/^[PXC]-/, "")}`

const chunks = (slice: Slice): string[][] => {
  const all = (slice.params["addresses"] ?? "").split(",").filter((a) => a !== "").map(xAddress)
  const out: string[][] = []
  for (let i = 0; i < all.length; i += MAX_ADDRESSES) out.push(all.slice(i, i + MAX_ADDRESSES))
  return out
}

const decodeListed = (hex: string, network: string): Listed => {
  try {
    return { hex, decoded: decodeUtxoHex(hex, primaryOf(network).hrp, "X") }
  } catch (e) {
    return { hex, error: e instanceof Error ? e.message : String(e) }
  }
}

const fetchUtxos = (slice: Slice, at: Cursor | undefined) =>
  Effect.gen(function* () {
    const p = slice.params
    const chunk = at?.chunk ?? 0
    const addresses = chunks(slice)[chunk] ?? []
    if (addresses.length === 0) return { records: [], next: undefined }
    const source = p["source_chain"] ?? ""
    const page = yield* rpcDecoded(
      "X",
      "avm.getUTXOs",
      { addresses, limit: LIMIT, encoding: "hex", ...(at?.startIndex === undefined ? {} : { startIndex: at.startIndex }), ...(source === "" ? {} : { sourceChain: source }) },
      Page
    )
    const records = page.utxos.map((hex) => decodeListed(hex, p["network"] ?? ""))
    // rule 5: only a full page says more may exist
    const next: Cursor | undefined =
      (page.numFetched ?? page.utxos.length) >= LIMIT
        ? { chunk, startIndex: page.endIndex }
        : chunk + 1 < chunks(slice).length
          ? { chunk: chunk + 1 }
          : undefined
    return { records, next }
  })

/** utxo_ids this slice already committed (a resumed listing drops their repeats). */
const committedIds = (slice: Slice) =>
  Effect.gen(function* () {
    const p = slice.params
    const rows = yield* (yield* OutputReader).query(
      `SELECT utxo_id FROM avm_utxos WHERE network = $network AND snapshot_date = CAST($date AS DATE) AND address_set = $set AND coalesce(source_chain, '') = $source`,
      { network: p["network"] ?? "", date: p["snapshot_date"] ?? "", set: p["address_set"] ?? "", source: sourceChainId(slice) ?? "" },
      ["avm_utxos"]
    )
    return rows.map((r) => String(r["utxo_id"]))
  })

const listing: Listing<JsonRpcClient | OutputReader> = onNodeNetwork(
  distinctRecords(cursorListing({ cursor, fetch: fetchUtxos }), (r) => (r as Listed).decoded?.utxoId, committedIds)
)

const sourceChainId = (slice: Slice): string | null => {
  const s = slice.params["source_chain"] ?? ""
  return s === "P" || s === "C" ? primaryOf(slice.params["network"] ?? "").chainIds[s] : null
}

export const dataset = defineDataset(table, {
  name: "avm_utxos",
  description: "X-chain UTXOs (own and atomic) of the job's address sets from the node's avm.getUTXOs, decoded from their bytes, one snapshot per run day",
  services: ["node"],
  partitionBy: ["network", "chain", "snapshot_date"],
  sliceColumns: ["address_set", "source_chain"],
  key: ["utxo_id"],
  slices: (job, { runDate }) => {
    const network = nodeNetwork(job)
    return job.addressSets
      .filter((s) => s.network === network && s.blockchain === "x-chain")
      .flatMap((s) =>
        ["", ...new Set(job.atomicSourceChains)].map((source) =>
          makeSlice("avm_utxos", { network, chain: "x-chain", address_set: s.name, addresses: s.addresses.join(","), source_chain: source, snapshot_date: runDate })
        )
      )
  },
  listing,
  // the listing decoded each UTXO's bytes (a UTXO repeated across pages is dropped by its id)
  compute: ({ record, slice }) => {
    const r = record as Listed
    if (r.decoded === undefined) throw new RecordError(r.error ?? "UTXO bytes did not decode")
    return { source_chain: sourceChainId(slice), ...decodedUtxoColumns(r.decoded) }
  }
})
