/**
 * utxos — the UTXOs of each job address set on its network and blockchain, one snapshot per run
 * day. Route 2 (POST, addresses in the body, 1024 a page) is asked first; where it is unavailable
 * (404/405) the slice lists through route 3 (GET, 100 a page) instead. The output columns come
 * from the node bytes (utxoBytes) decoded by src/decode/utxo.ts; when they disagree with the
 * service's own fields the record is rejected with the differences. A UTXO the service repeats
 * on a later page is written once.
 */
import { Effect, Option, Schema } from "effect"
import { type CursorCodec, cursorListing, jsonCursor } from "../src/crawl/Cursor.ts"
import { type Listing, RecordError } from "../src/crawl/Dataset.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { type ChainLetter, type DecodedUtxo, UtxoDecodeError, decodeUtxoHex } from "../src/decode/utxo.ts"
import { SourceError } from "../src/Errors.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { read, type ReadValues } from "../src/transform/ColumnDecoder.ts"
import { DecimalString, IntegerLike } from "../src/transform/Decode.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/utxos.ts"
import { decodedUtxoColumns } from "./_shared/nodeValues.ts"
import { distinctRecords } from "./_shared/restListings.ts"
import { listPage } from "../src/crawl/RestListing.ts"

/** Bech32 prefixes of the networks' addresses (reference: network-constants.json). */
const HRP: Readonly<Record<string, string>> = { mainnet: "avax", fuji: "fuji" }
const CHAIN: Readonly<Record<string, ChainLetter>> = { "p-chain": "P", "x-chain": "X", "c-chain": "C" }

const PAGE_SIZE = { post: 1024, get: 100 } as const
type Route = keyof typeof PAGE_SIZE

// — listing —

/** Our cursor: which route the slice is listing through, and that route's page token. */
interface Cursor {
  readonly route: Route
  readonly token: string | undefined
}

/** How the checkpoint keeps the cursor (src/crawl/Cursor.ts): a resumed listing is handed it back checked. */
const cursor: CursorCodec<Cursor> = jsonCursor(Schema.Struct({ route: Schema.Literal("post", "get"), token: Schema.UndefinedOr(Schema.String) }))

/** A POST route that is not there: the service answers 404 ("Cannot POST") or 405. */
const unavailable = (e: unknown): e is SourceError => e instanceof SourceError && e.reason === "HttpStatus" && (e.status === 404 || e.status === 405)

const fetchUtxos = (slice: Slice, resumed: Cursor | undefined) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const p = slice.params
    const path = `/v1/networks/${p["network"]}/blockchains/${p["blockchain"]}/utxos`
    const query = { includeSpent: p["include_spent"] === "true", sortBy: "timestamp", sortOrder: "asc" }
    const addresses = p["addresses"] ?? ""
    let at: Cursor = resumed ?? { route: "post", token: undefined }
    if (at.route === "post") {
      const body = yield* client.post("data", path, { ...query, pageSize: PAGE_SIZE.post, pageToken: at.token }, { addresses }).pipe(
        Effect.map(Option.some),
        Effect.catchIf(unavailable, (e) =>
          Effect.logWarning(`utxos ${slice.id}: route 2 unavailable (HTTP ${e.status}), listing through route 3 (GET)`).pipe(Effect.as(Option.none()))
        )
      )
      if (Option.isSome(body)) return yield* pageOf(body.value, "post", `POST data ${path}`)
      // the GET route has its own tokens: start it from its first page (repeats are dropped below)
      at = { route: "get", token: undefined }
    }
    const body = yield* client.get("data", path, { ...query, addresses, pageSize: PAGE_SIZE.get, pageToken: at.token })
    return yield* pageOf(body, "get", `GET data ${path}`)
  })

const pageOf = (body: unknown, route: Route, request: string) =>
  Effect.map(listPage(body, "utxos", request), (page) => ({
    records: page.records,
    next: page.next === undefined ? undefined : ({ route, token: page.next } satisfies Cursor)
  }))

/** utxo_ids this slice already committed (a resumed listing drops their repeats). */
const committedIds = (slice: Slice) =>
  Effect.gen(function* () {
    const reader = yield* OutputReader
    const p = slice.params
    const rows = yield* reader.query(
      `SELECT utxo_id FROM utxos WHERE network = $network AND blockchain = $blockchain AND snapshot_date = CAST($date AS DATE) AND address_set = $set`,
      { network: p["network"] ?? "", blockchain: p["blockchain"] ?? "", date: p["snapshot_date"] ?? "", set: p["address_set"] ?? "" },
      ["utxos"]
    )
    return rows.map((r) => String(r["utxo_id"]))
  })

const utxoIdOf = (record: unknown): string | undefined => {
  const id = typeof record === "object" && record !== null ? (record as Record<string, unknown>)["utxoId"] : undefined
  return typeof id === "string" ? id : undefined
}

const listing: Listing<RestClient | OutputReader> = distinctRecords(cursorListing({ cursor, fetch: fetchUtxos }), utxoIdOf, committedIds)

// — records —

/** What the service says about the output itself, in either shape: what the bytes must agree with. */
const claimed = {
  utxoId: read("utxoId", Schema.String),
  txId: read({ p: "txHash", chain: "creationTxHash" }, Schema.String),
  // a number in PChainUtxo, a string in the document's Utxo ("38")
  outputIndex: read("outputIndex", Schema.Union(Schema.Number.pipe(Schema.int()), Schema.NumberFromString.pipe(Schema.int()))),
  assetId: read("asset.assetId", Schema.String),
  amount: read("asset.amount", DecimalString),
  threshold: read({ p: "threshold?", chain: "threshold" }, Schema.Number.pipe(Schema.int())),
  locktime: read({ p: "platformLocktime?", chain: "locktime" }, IntegerLike),
  stakeableLocktime: read({ p: "stakeableLocktime?", chain: null }, IntegerLike),
  addresses: read("addresses", Schema.Array(Schema.String)),
  // PChainUtxo's deprecated top-level copies, when sent
  deprecatedAssetId: read({ p: "assetId?", chain: null }, Schema.String),
  deprecatedAmount: read({ p: "amount?", chain: null }, DecimalString),
  hex: read("utxoBytes?", Schema.String)
}

type Claimed = ReadValues<typeof claimed>

const bare = (a: string): string => a.replace(/^[PXC]-/, "")
const sameOwners = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && [...a].map(bare).sort().join(",") === [...b].map(bare).sort().join(",")

/** Each field where the bytes and the service differ, as "field: bytes … ≠ service …". */
const differences = (d: DecodedUtxo, c: Claimed): string[] => {
  const out: string[] = []
  const check = (field: string, bytes: unknown, service: unknown) => {
    if (service !== undefined && String(bytes) !== String(service)) out.push(`${field}: bytes ${String(bytes)} ≠ service ${String(service)}`)
  }
  check("utxoId", d.utxoId, c.utxoId)
  check("txHash", d.txId, c.txId)
  check("outputIndex", d.outputIndex, c.outputIndex)
  check("asset.assetId", d.assetId, c.assetId)
  check("asset.amount", d.amount, c.amount)
  check("assetId", d.assetId, c.deprecatedAssetId)
  check("amount", d.amount, c.deprecatedAmount)
  check("threshold", d.threshold, c.threshold)
  check("locktime", d.locktime, c.locktime)
  check("stakeableLocktime", d.stakeableLocktime, c.stakeableLocktime)
  if (!sameOwners(d.addresses, c.addresses)) out.push(`addresses: bytes ${d.addresses.join(",")} ≠ service ${c.addresses.join(",")}`)
  return out
}

/** The decoded columns: from the bytes when sent (and consistent), else from the service's fields. */
const outputColumns = (c: Claimed, slice: Slice) => {
  const chain = CHAIN[slice.params["blockchain"] ?? ""] ?? "P"
  if (c.hex === undefined) {
    return {
      utxo_id: c.utxoId,
      tx_id: c.txId,
      output_index: c.outputIndex,
      asset_id: c.assetId,
      output_type: null,
      amount: c.amount,
      locktime: c.locktime ?? null,
      stakeable_locktime: c.stakeableLocktime ?? null,
      threshold: c.threshold ?? null,
      addresses: c.addresses.map((a) => `${chain}-${bare(a)}`),
      utxo_bytes: null
    }
  }
  let d: DecodedUtxo
  try {
    d = decodeUtxoHex(c.hex, HRP[slice.params["network"] ?? ""] ?? "avax", chain)
  } catch (e) {
    if (e instanceof UtxoDecodeError) throw new RecordError(e.message)
    throw e
  }
  const diff = differences(d, c)
  if (diff.length > 0) throw new RecordError(`utxoBytes disagree with the service's fields: ${diff.join("; ")}`)
  return decodedUtxoColumns(d)
}

export const dataset = defineDataset(table, {
  name: "utxos",
  description: "UTXOs of the job's address sets (chain-data routes 2/3), decoded from their node bytes, one snapshot per run day",
  services: ["data"],
  partitionBy: ["network", "blockchain", "snapshot_date"],
  sliceColumns: ["address_set"],
  key: ["utxo_id"],
  // the listing needs the addresses and the spent flag: they travel in the slice (and its id)
  slices: (job, { runDate }) =>
    job.addressSets
      .filter((s) => job.networks.includes(s.network))
      .map((s) =>
        makeSlice("utxos", {
          network: s.network,
          blockchain: s.blockchain,
          address_set: s.name,
          addresses: s.addresses.join(","),
          include_spent: String(job.includeSpent),
          snapshot_date: runDate
        })
      ),
  listing,
  variant: (slice) => (slice.params["blockchain"] === "p-chain" ? "p" : "chain"),
  reads: claimed,
  compute: ({ wire, slice }) => outputColumns(wire, slice)
})
