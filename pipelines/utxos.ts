/**
 * utxos — the UTXOs of each job address set on its network and blockchain, one snapshot per run
 * day. Route 2 (POST, addresses in the body, 1024 a page) is asked first; where it is unavailable
 * (404/405) the slice lists through route 3 (GET, 100 a page) instead. The output columns come
 * from the node bytes (utxoBytes) decoded by src/decode/utxo.ts; when they disagree with the
 * service's own fields the record is rejected with the differences. A UTXO the service repeats
 * on a later page is written once.
 */
import { Effect, Option, Schema } from "effect"
import { type DatasetDef, type Listing, RecordError } from "../src/crawl/Dataset.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { type ChainLetter, type DecodedUtxo, UtxoDecodeError, decodeUtxoHex } from "../src/decode/utxo.ts"
import { SourceError } from "../src/Errors.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { IntegerLike, UnixSeconds, decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/utxos.ts"
import { decodedUtxoColumns } from "./_shared/nodeValues.ts"
import { columnKey } from "./_shared/partitions.ts"
import { distinctRecords } from "./_shared/restListings.ts"
import { AssetAmount, Utxo as PChainUtxo, utxoLifecycleColumns } from "./_shared/restUtxo.ts"
import { listPage } from "../src/crawl/RestListing.ts"

const opt = Schema.optional

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

const readCursor = (cursor: string | undefined): Cursor => (cursor === undefined ? { route: "post", token: undefined } : (JSON.parse(cursor) as Cursor))

/** A POST route that is not there: the service answers 404 ("Cannot POST") or 405. */
const unavailable = (e: unknown): e is SourceError => e instanceof SourceError && e.reason === "HttpStatus" && (e.status === 404 || e.status === 405)

const fetchUtxos = (slice: Slice, cursor: string | undefined) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const p = slice.params
    const path = `/v1/networks/${p["network"]}/blockchains/${p["blockchain"]}/utxos`
    const query = { includeSpent: p["include_spent"] === "true", sortBy: "timestamp", sortOrder: "asc" }
    const addresses = p["addresses"] ?? ""
    let at = readCursor(cursor)
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
    next: page.next === undefined ? undefined : JSON.stringify({ route, token: page.next } satisfies Cursor)
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

const listing: Listing<RestClient | OutputReader> = distinctRecords({ fetch: fetchUtxos }, utxoIdOf, committedIds)

// — records —

/** The document's Utxo (X- and C-chain listings); PChainUtxo is the shared Utxo. */
const ChainUtxo = Schema.Struct({
  addresses: Schema.Array(Schema.String),
  asset: AssetAmount,
  consumedOnChainId: Schema.String,
  createdOnChainId: Schema.String,
  utxoId: Schema.String,
  utxoBytes: opt(Schema.String),
  consumingTxHash: opt(Schema.String),
  consumingTxTimestamp: opt(UnixSeconds),
  creationTxHash: Schema.String,
  credentials: opt(Schema.Array(Schema.Struct({ signature: opt(Schema.String), publicKey: opt(Schema.String) }))),
  groupId: opt(Schema.Number.pipe(Schema.int())),
  locktime: IntegerLike,
  // a string in the document ("38"), a number in PChainUtxo
  outputIndex: Schema.Union(Schema.Number.pipe(Schema.int()), Schema.NumberFromString.pipe(Schema.int())),
  payload: opt(Schema.String),
  threshold: Schema.Number.pipe(Schema.int()),
  timestamp: UnixSeconds,
  utxoType: Schema.String
})

const decodeP = decoder(PChainUtxo)
const decodeChain = decoder(ChainUtxo)

/** What the service says about the output itself: what the bytes must agree with. */
interface Claimed {
  readonly utxoId: string
  readonly txId: string
  readonly outputIndex: number
  readonly assetId: string
  readonly amount: bigint
  readonly threshold: number | undefined
  readonly locktime: bigint | undefined
  readonly stakeableLocktime: bigint | undefined
  readonly addresses: ReadonlyArray<string>
  /** PChainUtxo's deprecated top-level copies, when sent. */
  readonly deprecatedAssetId: string | undefined
  readonly deprecatedAmount: bigint | undefined
}

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
const outputColumns = (c: Claimed, hex: string | undefined, slice: Slice) => {
  const chain = CHAIN[slice.params["blockchain"] ?? ""] ?? "P"
  if (hex === undefined) {
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
    d = decodeUtxoHex(hex, HRP[slice.params["network"] ?? ""] ?? "avax", chain)
  } catch (e) {
    if (e instanceof UtxoDecodeError) throw new RecordError(e.message)
    throw e
  }
  const diff = differences(d, c)
  if (diff.length > 0) throw new RecordError(`utxoBytes disagree with the service's fields: ${diff.join("; ")}`)
  return decodedUtxoColumns(d)
}

const assetColumns = (a: typeof AssetAmount.Type) => ({ asset_name: a.name, asset_symbol: a.symbol, asset_denomination: a.denomination, asset_type: a.type })

const pChainRow = (raw: unknown, slice: Slice) => {
  const u = decodeP(raw)
  const claimed: Claimed = {
    utxoId: u.utxoId,
    txId: u.txHash,
    outputIndex: u.outputIndex,
    assetId: u.asset.assetId,
    amount: u.asset.amount,
    threshold: u.threshold,
    locktime: u.platformLocktime,
    stakeableLocktime: u.stakeableLocktime,
    addresses: u.addresses,
    deprecatedAssetId: u.assetId,
    deprecatedAmount: u.amount
  }
  return {
    ...outputColumns(claimed, u.utxoBytes, slice),
    ...assetColumns(u.asset),
    ...utxoLifecycleColumns(u),
    group_id: null,
    payload: null,
    credentials: []
  }
}

const chainRow = (raw: unknown, slice: Slice) => {
  const u = decodeChain(raw)
  const claimed: Claimed = {
    utxoId: u.utxoId,
    txId: u.creationTxHash,
    outputIndex: u.outputIndex,
    assetId: u.asset.assetId,
    amount: u.asset.amount,
    threshold: u.threshold,
    locktime: u.locktime,
    stakeableLocktime: undefined,
    addresses: u.addresses,
    deprecatedAssetId: undefined,
    deprecatedAmount: undefined
  }
  return {
    ...outputColumns(claimed, u.utxoBytes, slice),
    ...assetColumns(u.asset),
    utxo_type: u.utxoType,
    reward_type: null,
    staked: null,
    block_number: null,
    block_timestamp: u.timestamp,
    consuming_tx_hash: u.consumingTxHash ?? null,
    consuming_block_number: null,
    consuming_block_timestamp: u.consumingTxTimestamp ?? null,
    created_on_chain_id: u.createdOnChainId,
    consumed_on_chain_id: u.consumedOnChainId,
    utxo_start_timestamp: null,
    utxo_end_timestamp: null,
    group_id: u.groupId ?? null,
    payload: u.payload ?? null,
    credentials: (u.credentials ?? []).map((c) => ({ signature: c.signature ?? null, public_key: c.publicKey ?? null }))
  }
}

export const dataset: DatasetDef<RestClient | OutputReader> = {
  name: "utxos",
  description: "UTXOs of the job's address sets (chain-data routes 2/3), decoded from their node bytes, one snapshot per run day",
  schema,
  partitionBy: [columnKey("network"), columnKey("blockchain"), columnKey("snapshot_date", "DATE")],
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
  toRow: (raw, slice) => ({
    network: slice.params["network"],
    blockchain: slice.params["blockchain"],
    snapshot_date: slice.params["snapshot_date"],
    address_set: slice.params["address_set"],
    ...(slice.params["blockchain"] === "p-chain" ? pChainRow(raw, slice) : chainRow(raw, slice))
  })
}
