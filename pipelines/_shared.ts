/**
 * Small pieces several pipeline files use: raw-record building blocks of the primary network
 * (seed: Shared objects) and the partition values derived from rows.
 */
import { Effect, Option, ParseResult, Schema } from "effect"
import { type Listing, type PartitionKey, type Row, RecordError, type SliceContext } from "../src/crawl/Dataset.ts"
import { heightsAfter, keyHeight } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { listPage } from "../src/crawl/RestListing.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { type SinkError, SourceError } from "../src/Errors.ts"
import type { Job, Network } from "../src/Job.ts"
import { JsonRpcClient, rpcLabel } from "../src/source/JsonRpcClient.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { DecimalString, IntegerLike, UnixSeconds, decoder } from "../src/transform/Decode.ts"
import type { DecodedUtxo } from "../src/decode/utxo.ts"

/** UTC calendar day of a timestamp column, the `date` Hive key. */
export const HOUR = 3_600
export const DAY = 86_400

/**
 * Where the nightly history of a network starts by default: the month the Avalanche mainnet
 * (and its C-Chain) went live. Fuji's history starts later; its early windows answer empty.
 */
export const NETWORK_LAUNCH = Date.UTC(2020, 8, 1) / 1000

/** Route 12's newest block time on a primary chain (it lists latest first): what "now" is for the service. */
export const latestPrimaryBlockTime = (network: string, blockchain: string) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const body = (yield* client.get("data", `/v1/networks/${network}/blockchains/${blockchain}/blocks`, { pageSize: 1 })) as { blocks?: Array<{ blockTimestamp?: unknown }> }
    const t = body.blocks?.[0]?.blockTimestamp
    return typeof t === "number" ? t : undefined
  })

const DAY_MS = 86_400_000

/**
 * The UTC day of a row's timestamp column, YYYY-MM-DD. Listings come in time order, so the day of
 * the previous row is remembered: one string per day, not one per row (this runs for every row).
 */
export const utcDate = (column: string) => {
  let lastDay = Number.NaN
  let lastText = ""
  return (row: Row): string => {
    const day = Math.floor((row[column] as Date).getTime() / DAY_MS)
    if (day !== lastDay) {
      lastText = new Date(day * DAY_MS).toISOString().slice(0, 10)
      lastDay = day
    }
    return lastText
  }
}

export const AssetAmount = Schema.Struct({
  assetId: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  denomination: Schema.Number.pipe(Schema.int()),
  type: Schema.String,
  amount: DecimalString
})

export const assetAmountRow = (a: typeof AssetAmount.Type) => ({
  asset_id: a.assetId,
  name: a.name,
  symbol: a.symbol,
  denomination: a.denomination,
  type: a.type,
  amount: a.amount
})

const opt = Schema.optional

export const Utxo = Schema.Struct({
  utxoId: Schema.String,
  txHash: Schema.String,
  outputIndex: Schema.Number.pipe(Schema.int()),
  assetId: opt(Schema.String),
  amount: opt(DecimalString),
  asset: AssetAmount,
  addresses: Schema.Array(Schema.String),
  threshold: opt(Schema.Number.pipe(Schema.int())),
  utxoType: Schema.String,
  rewardType: opt(Schema.String),
  staked: opt(Schema.Boolean),
  blockNumber: DecimalString,
  blockTimestamp: UnixSeconds,
  consumingTxHash: opt(Schema.String),
  consumingBlockNumber: opt(DecimalString),
  consumingBlockTimestamp: opt(UnixSeconds),
  createdOnChainId: Schema.String,
  consumedOnChainId: Schema.String,
  platformLocktime: opt(IntegerLike),
  stakeableLocktime: opt(IntegerLike),
  utxoStartTimestamp: opt(UnixSeconds),
  utxoEndTimestamp: opt(UnixSeconds),
  utxoBytes: opt(Schema.String)
})

export const utxoRow = (u: typeof Utxo.Type) => ({
  utxo_id: u.utxoId,
  tx_hash: u.txHash,
  output_index: u.outputIndex,
  // the top-level assetId/amount are deprecated in the official document: the asset object rules
  asset_id: u.asset.assetId,
  amount: u.asset.amount,
  addresses: u.addresses,
  threshold: u.threshold ?? null,
  ...utxoLifecycleColumns(u),
  platform_locktime: u.platformLocktime ?? null,
  stakeable_locktime: u.stakeableLocktime ?? null,
  utxo_bytes: u.utxoBytes ?? null
})

/** A REST Utxo's type, staking state and where it was created and consumed (staking_transactions and utxos alike). */
export const utxoLifecycleColumns = (u: typeof Utxo.Type) => ({
  utxo_type: u.utxoType,
  reward_type: u.rewardType ?? null,
  staked: u.staked ?? null,
  block_number: u.blockNumber,
  block_timestamp: u.blockTimestamp,
  consuming_tx_hash: u.consumingTxHash ?? null,
  consuming_block_number: u.consumingBlockNumber ?? null,
  consuming_block_timestamp: u.consumingBlockTimestamp ?? null,
  created_on_chain_id: u.createdOnChainId,
  consumed_on_chain_id: u.consumedOnChainId,
  utxo_start_timestamp: u.utxoStartTimestamp ?? null,
  utxo_end_timestamp: u.utxoEndTimestamp ?? null
})

// — primary-network REST datasets (delegators, validators, l1_validators, utxos, aggregated_signatures) —

/** A Hive key the row carries as a string column (network, blockchain, snapshot_date). */
export const columnKey = (key: string, type: "VARCHAR" | "DATE" = "VARCHAR"): PartitionKey => ({ key, type, value: (row) => String(row[key]) })

/** The Hive keys of a per-network snapshot: network, then the run's UTC day. */
export const snapshotKeys: ReadonlyArray<PartitionKey> = [columnKey("network"), columnKey("snapshot_date", "DATE")]


/**
 * Every item of a GET list route, page after page: for fan-outs where one key is a whole listing
 * (route 7 per node id). The key is small (a node's validations), so its pages are held together.
 */
export const getAllPages = (path: string, query: Record<string, string | number | boolean | undefined>, items: string, pageSize: number) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const out: unknown[] = []
    let token: string | undefined
    do {
      const body = yield* client.get("data", path, { ...query, pageSize, pageToken: token })
      const page = yield* listPage(body, items, `GET data ${path}`)
      out.push(...page.records)
      token = page.next
    } while (token !== undefined)
    return out
  })


/**
 * A listing that yields each record key at most once per slice, even when the service repeats a
 * record on a later page (paging over a set that changes between pages). Keys seen are kept while
 * the listing runs; a listing resumed from a checkpoint in a new process first reads the keys its
 * slice already committed (`committed`), so a repeat across the crash is dropped as well.
 * Records without a key pass through to toRow, which rejects them.
 */
export const distinctRecords = <R, R2>(
  listing: Listing<R>,
  keyOf: (record: unknown) => string | undefined,
  committed: (slice: Slice) => Effect.Effect<ReadonlyArray<string>, SinkError, R2>
): Listing<R | R2> => {
  // per slice: the cursor this listing handed out last, and the keys seen up to it
  const running = new Map<string, { next: string; seen: Set<string> }>()
  return {
    ...listing,
    fetch: (slice, cursor) =>
      Effect.gen(function* () {
        const mine = running.get(slice.id)
        // the first page starts afresh (the crawler skips committed keys itself on a restart);
        // a cursor this listing did not just hand out is a resume: reload what is on disk
        const seen =
          cursor === undefined ? new Set<string>() : mine !== undefined && mine.next === cursor ? mine.seen : new Set(yield* committed(slice))
        const page = yield* listing.fetch(slice, cursor)
        const records = page.records.filter((r) => {
          const key = keyOf(r)
          if (key === undefined) return true
          if (seen.has(key)) return false
          seen.add(key)
          return true
        })
        if (page.next === undefined) running.delete(slice.id)
        else running.set(slice.id, { next: page.next, seen })
        return { records, next: page.next }
      })
  }
}

// — node JSON-RPC datasets (pipelines/groups/node.ts) —

/**
 * The node at CHAINETL_NODE_URL serves one network, so the node datasets crawl one network per
 * run: the job's first (`networks[0]`). Slices are made from the job before any request, so they
 * cannot ask the node; instead each listing's first page checks once per run (nodeServes) that the
 * node really is on that network, and fails the slice when it is not, rather than writing one
 * network's data under the other's name. To crawl fuji, put "fuji" first and point at a fuji node.
 */
export const nodeNetwork = (job: Job): Network => job.networks[0] ?? "mainnet"

/** Public constants of the primary networks (reference: network-constants.json). */
export const PRIMARY = {
  mainnet: {
    hrp: "avax",
    avaxAssetId: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
    chainIds: { P: "11111111111111111111111111111111LpoYY", X: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", C: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" }
  },
  fuji: {
    hrp: "fuji",
    avaxAssetId: "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK",
    chainIds: { P: "11111111111111111111111111111111LpoYY", X: "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm", C: "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp" }
  }
} as const satisfies Record<Network, { hrp: string; avaxAssetId: string; chainIds: Record<"P" | "X" | "C", string> }>

/** The primary network's subnet id: platform.* calls about "the primary network" name it. */
export const PRIMARY_SUBNET_ID = "11111111111111111111111111111111LpoYY"

export const primaryOf = (network: string) => PRIMARY[network === "fuji" ? "fuji" : "mainnet"]

/** One JSON-RPC call; the result as the lossless parser gave it. */
export const rpc = (chain: "X" | "P", method: string, params: Record<string, unknown> = {}) =>
  Effect.flatMap(JsonRpcClient, (client) => client.call(chain, method, params))

/** The result as an object, or a Decode failure naming the call (a node bug, not a record's). */
export const rpcObject = (chain: "X" | "P", method: string, params: Record<string, unknown> = {}) =>
  Effect.flatMap(rpc(chain, method, params), (result) =>
    typeof result === "object" && result !== null && !Array.isArray(result)
      ? Effect.succeed(result as Record<string, unknown>)
      : Effect.fail(new SourceError({ reason: "Decode", request: rpcLabel(chain, method), detail: "result is not an object" }))
  )

/**
 * A result the call itself depends on (a tip, a list to fan out over), decoded with `schema`; a
 * malformed one fails the slice as a Decode error naming the call, since no record can carry it.
 */
export const rpcDecoded = <A, I>(chain: "X" | "P", method: string, params: Record<string, unknown>, schema: Schema.Schema<A, I, never>) =>
  Effect.flatMap(rpc(chain, method, params), (result) =>
    Schema.decodeUnknown(schema, { onExcessProperty: "ignore" })(result).pipe(
      Effect.mapError(
        (e) => new SourceError({ reason: "Decode", request: rpcLabel(chain, method), detail: ParseResult.TreeFormatter.formatErrorSync(e).replace(/\s+/g, " ") })
      )
    )
  )

/** A handler failure (-32000): the node understood the call and has no answer for that key. */
export const isHandlerError = (e: unknown): e is SourceError => e instanceof SourceError && e.reason === "Rpc" && e.detail.startsWith("code -32000")

/**
 * A key a fan-out asked the node about and the node had no answer for (-32000, e.g. "not found"):
 * rejected once with the node's words, its key kept in the reject so it is not asked again.
 */
export class NodeMiss {
  readonly _tag = "NodeMiss"
  constructor(
    readonly key: string,
    readonly request: string,
    readonly detail: string
  ) {}
}

export const orNodeMiss = (key: string) => (e: SourceError) =>
  isHandlerError(e) ? Effect.succeed(new NodeMiss(key, e.request, e.detail)) : Effect.fail(e)

/** toRow's first line for fan-out records: a miss becomes its reject. */
export const throwIfMiss = (raw: unknown): void => {
  if (raw instanceof NodeMiss) throw new RecordError(`node has no answer: ${raw.request}: ${raw.detail}`)
}

/** Keys of a dataset's rejects that were misses (a malformed answer is asked again). */
export const missedKeysSql = (dataset: string) =>
  `SELECT json_extract_string(raw, '$.key') AS k FROM _rejects WHERE dataset = '${dataset}' AND json_extract_string(raw, '$._tag') = 'NodeMiss'`

/** Which network the node serves, from the id it gives the AVAX asset; asked once per client. */
const servedByClient = new WeakMap<object, Effect.Effect<Network, SourceError>>()

const askServedNetwork = rpcObject("X", "avm.getAssetDescription", { assetID: "AVAX" }).pipe(
  Effect.flatMap((r) => {
    const id = r["assetID"] ?? r["assetId"]
    const found = (Object.keys(PRIMARY) as Network[]).find((n) => PRIMARY[n].avaxAssetId === id)
    return found !== undefined
      ? Effect.succeed(found)
      : Effect.fail(new SourceError({ reason: "Decode", request: rpcLabel("X", "avm.getAssetDescription"), detail: `AVAX asset id ${String(id)} is neither mainnet's nor fuji's` }))
  })
)

/** Fails unless the node serves `network` (see nodeNetwork). */
export const nodeServes = (network: string) =>
  Effect.gen(function* () {
    const client = yield* JsonRpcClient
    let served = servedByClient.get(client)
    if (served === undefined) {
      served = yield* Effect.cached(Effect.provideService(askServedNetwork, JsonRpcClient, client))
      servedByClient.set(client, served)
    }
    const actual = yield* served
    if (actual !== network) {
      return yield* Effect.fail(
        new SourceError({
          reason: "Decode",
          request: rpcLabel("X", "avm.getAssetDescription"),
          detail: `the node serves ${actual}, but node datasets crawl the job's first network, ${network}: put "${actual}" first in the job's networks or point CHAINETL_NODE_URL at a ${network} node`
        })
      )
    }
  })

/** A node listing whose first page (of every run and restart) checks the node's network first. */
export const onNodeNetwork = <R>(listing: Listing<R>): Listing<R | JsonRpcClient> => ({
  ...listing,
  fetch: (slice, cursor) =>
    cursor === undefined ? Effect.zipRight(nodeServes(slice.params["network"] ?? ""), listing.fetch(slice, cursor)) : listing.fetch(slice, cursor)
})

/** A listing of one page: one snapshot call (fees, supply, validators…). */
export const singlePage = <R>(records: (slice: Slice) => Effect.Effect<ReadonlyArray<unknown>, SourceError, R>): Listing<R | JsonRpcClient> =>
  onNodeNetwork({ fetch: (slice) => Effect.map(records(slice), (rs) => ({ records: rs, next: undefined })) })

// node JSON values: uint64 quantities are decimal strings (seed: Conventions), though small ones
// (threshold, denomination) sometimes come as JSON numbers; both decode to exact integers

/** A uint64 as a decimal string or a JSON integer, to bigint. */
export const NodeUint = Schema.Union(DecimalString, IntegerLike)

/** A small integer (threshold, output index, denomination) as a JSON number or a decimal string. */
export const NodeInt = Schema.Union(Schema.Number.pipe(Schema.int()), Schema.NumberFromString.pipe(Schema.int()))

/** Unix seconds as the node writes them (decimal string), to a Date. */
export const nodeTime = (seconds: bigint): Date => new Date(Number(seconds) * 1000)

/** An owner set {locktime, threshold, addresses} (reward owners, L1 balance owners). */
export const NodeOwner = Schema.Struct({ locktime: opt(NodeUint), threshold: opt(NodeInt), addresses: opt(Schema.Array(Schema.String)) })

export const ownerRow = (o: typeof NodeOwner.Type | undefined) =>
  o === undefined ? null : { locktime: o.locktime ?? null, threshold: o.threshold ?? null, addresses: o.addresses ?? [] }

/** JSON text of a value that may hold bigints (unknown shapes are kept as text). */
export const jsonText = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))

const TransferOutput = Schema.Struct({ addresses: Schema.Array(Schema.String), amount: opt(NodeUint), locktime: opt(NodeUint), threshold: opt(NodeInt) })
const StakeableOutput = Schema.Struct({ locktime: NodeUint, output: TransferOutput })
const decodeTransferOut = Schema.decodeUnknownOption(TransferOutput)
const decodeStakeableOut = Schema.decodeUnknownOption(StakeableOutput)

/** An output as the node's json writes it: {assetID, fxID, output}. */
export const TxOutput = Schema.Struct({ assetID: Schema.String, fxID: opt(Schema.String), output: Schema.Unknown })

/**
 * An output's row: a secp256k1 transfer output, or a P-chain stakeable lock around one; any other
 * shape (mint, NFT, property outputs) keeps its fields as JSON text in `output_json`.
 */
export const outputRow = (assetId: string, fxId: string | undefined, output: unknown) => {
  const staked = decodeStakeableOut(output)
  const transfer = staked._tag === "Some" ? Option.some(staked.value.output) : decodeTransferOut(output)
  const t = transfer._tag === "Some" ? transfer.value : undefined
  return {
    asset_id: assetId,
    fx_id: fxId ?? null,
    amount: t?.amount ?? null,
    locktime: t?.locktime ?? null,
    threshold: t?.threshold ?? null,
    addresses: t?.addresses ?? [],
    stakeable_locktime: staked._tag === "Some" ? staked.value.locktime : null,
    output_json: t === undefined ? jsonText(output) : null
  }
}

const TransferInput = Schema.Struct({ amount: NodeUint, signatureIndices: opt(Schema.Array(NodeInt)) })
const StakeableInput = Schema.Struct({ locktime: NodeUint, input: TransferInput })
const decodeTransferIn = Schema.decodeUnknownOption(TransferInput)
const decodeStakeableIn = Schema.decodeUnknownOption(StakeableInput)

/** An input as the node's json writes it: the UTXO it spends and {amount, signatureIndices}. */
export const TxInput = Schema.Struct({ txID: Schema.String, outputIndex: NodeInt, assetID: Schema.String, fxID: opt(Schema.String), input: Schema.Unknown })

export const inputRow = (i: typeof TxInput.Type) => {
  const staked = decodeStakeableIn(i.input)
  const transfer = staked._tag === "Some" ? Option.some(staked.value.input) : decodeTransferIn(i.input)
  const t = transfer._tag === "Some" ? transfer.value : undefined
  return {
    tx_id: i.txID,
    output_index: i.outputIndex,
    asset_id: i.assetID,
    fx_id: i.fxID ?? null,
    amount: t?.amount ?? null,
    signature_indices: t?.signatureIndices ?? [],
    stakeable_locktime: staked._tag === "Some" ? staked.value.locktime : null,
    input_json: t === undefined ? jsonText(i.input) : null
  }
}

/** X-chain credentials are {fxID, credential: {signatures}}, P-chain ones {signatures}. */
export const TxCredential = Schema.Struct({
  fxID: opt(Schema.String),
  credential: opt(Schema.Struct({ signatures: Schema.Array(Schema.String) })),
  signatures: opt(Schema.Array(Schema.String))
})

export const credentialRow = (c: typeof TxCredential.Type) => ({ fx_id: c.fxID ?? null, signatures: c.credential?.signatures ?? c.signatures ?? [] })

/**
 * The tx type, inferred from the fields the json carries: the node's json names no type, but each
 * avalanchego tx type adds its own fields to the base tx (unsignedTx field names below).
 */
export const inferTxType = (chain: "X" | "P", u: Readonly<Record<string, unknown>>): string => {
  const has = (...ks: string[]) => ks.every((k) => u[k] !== undefined)
  if (has("importedInputs")) return "ImportTx"
  if (has("exportedOutputs")) return "ExportTx"
  if (chain === "X") {
    if (has("initialStates")) return "CreateAssetTx"
    if (has("operations")) return "OperationTx"
    return "BaseTx"
  }
  if (has("txID") && !has("outputs")) return "RewardValidatorTx"
  if (has("validator")) {
    const permissionless = has("subnetID")
    if (has("signer") || has("validationRewardsOwner")) return "AddPermissionlessValidatorTx"
    if (has("shares")) return permissionless ? "AddPermissionlessValidatorTx" : "AddValidatorTx"
    return permissionless ? "AddPermissionlessDelegatorTx" : "AddDelegatorTx"
  }
  if (has("chainName", "vmID")) return "CreateChainTx"
  if (has("chainID", "validators")) return "ConvertSubnetToL1Tx"
  if (has("owner")) return "CreateSubnetTx"
  if (has("proofOfPossession", "message")) return "RegisterL1ValidatorTx"
  if (has("message")) return "SetL1ValidatorWeightTx"
  if (has("validationID", "disableAuthorization")) return "DisableL1ValidatorTx"
  if (has("validationID", "balance")) return "IncreaseL1ValidatorBalanceTx"
  return "BaseTx"
}

/** unsignedTx fields a row models; the others are kept as JSON text in `other_fields`. */
const MODELLED = new Set([
  "networkID",
  "blockchainID",
  "outputs",
  "inputs",
  "memo",
  "sourceChain",
  "importedInputs",
  "destinationChain",
  "exportedOutputs",
  "name",
  "symbol",
  "denomination",
  "initialStates",
  "validator",
  "stake",
  "subnetID",
  "txID"
])

const Validator = Schema.Struct({ nodeID: Schema.String, start: opt(NodeUint), end: opt(NodeUint), weight: opt(NodeUint) })
const InitialState = Schema.Struct({ fxIndex: opt(NodeInt), fxID: opt(Schema.String), outputs: opt(Schema.Array(Schema.Unknown)) })

/** The parts of a json unsignedTx both chains share; decoded leniently (unknown types pass). */
export const UnsignedTx = Schema.Struct({
  networkID: opt(NodeInt),
  blockchainID: opt(Schema.String),
  outputs: opt(Schema.Array(TxOutput)),
  inputs: opt(Schema.Array(TxInput)),
  memo: opt(Schema.String),
  sourceChain: opt(Schema.String),
  importedInputs: opt(Schema.Array(TxInput)),
  destinationChain: opt(Schema.String),
  exportedOutputs: opt(Schema.Array(TxOutput)),
  name: opt(Schema.String),
  symbol: opt(Schema.String),
  denomination: opt(NodeInt),
  initialStates: opt(Schema.Array(InitialState)),
  validator: opt(Validator),
  stake: opt(Schema.Array(TxOutput)),
  subnetID: opt(Schema.String),
  txID: opt(Schema.String)
})

/** A tx in the node's json encoding: {unsignedTx, credentials, id}. */
export const NodeTx = Schema.Struct({ unsignedTx: Schema.Record({ key: Schema.String, value: Schema.Unknown }), credentials: opt(Schema.Array(TxCredential)), id: Schema.String })

const decodeUnsigned = decoder(UnsignedTx)
const outputs = (os: ReadonlyArray<typeof TxOutput.Type> | undefined) => (os ?? []).map((o) => outputRow(o.assetID, o.fxID, o.output))

/** The columns of a json tx both node_transactions (X) and node_p_blocks' txs (P) carry. */
export const txColumns = (chain: "X" | "P", tx: typeof NodeTx.Type) => {
  const u = decodeUnsigned(tx.unsignedTx)
  const other = Object.fromEntries(Object.entries(tx.unsignedTx).filter(([k]) => !MODELLED.has(k)))
  return {
    tx_id: tx.id,
    tx_type: inferTxType(chain, tx.unsignedTx),
    network_id: u.networkID ?? null,
    blockchain_id: u.blockchainID ?? null,
    memo: u.memo ?? null,
    inputs: (u.inputs ?? []).map(inputRow),
    outputs: outputs(u.outputs),
    source_chain: u.sourceChain ?? null,
    imported_inputs: (u.importedInputs ?? []).map(inputRow),
    destination_chain: u.destinationChain ?? null,
    exported_outputs: outputs(u.exportedOutputs),
    credentials: (tx.credentials ?? []).map(credentialRow),
    other_fields: Object.keys(other).length > 0 ? jsonText(other) : null,
    unsigned: u
  }
}

/** A block in the node's json encoding; `time` is not in the seed's P-chain block, so optional. */
export const nodeBlock = <A, I>(tx: Schema.Schema<A, I, never>) =>
  Schema.Struct({
    id: opt(Schema.String),
    parentID: Schema.String,
    height: NodeUint,
    time: opt(NodeUint),
    txs: Schema.Array(tx)
  })

/**
 * The `date` key of node rows: the UTC day of the block's time; a block whose json has no time
 * (the seed's P-chain block lists none; pre-Banff blocks have none) goes under the day chainetl
 * ingested it, the best bound available without it.
 */
export const blockDay = (column: string) => (row: Row): string => ((row[column] as Date | null) ?? (row["ingested_at"] as Date)).toISOString().slice(0, 10)

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
 */
export interface HeightCursor {
  readonly next: string
  /** One past the last height this listing fetches: min(range end, tip + 1) at its start. */
  readonly end: string
  /** Committed height ranges [lo, hi] within the range, ascending. */
  readonly islands: ReadonlyArray<readonly [string, string]>
}

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
 * from 0, clipped to [from, to), each its own slice, final once done. Cells done before are left
 * out, so a rerun does only the missing ones. The walk inside a cell skips heights committed by
 * anyone (cells of another size, the nightly walk), and the nightly walk skips the cells', so
 * the two never fetch a block twice; heights past the tip are left to the nightly walk.
 */
export const heightCells = (dataset: string, job: Job, ctx: SliceContext): ReadonlyArray<Slice> => {
  const backfill = ctx.backfill
  if (backfill?.unit !== "height") return []
  const size = BigInt(backfill.window ?? job.nodeHeightWindow) || 1n
  const to = BigInt(backfill.to)
  const done = new Set((ctx.checkpoints ?? []).filter((c) => c.status === "done").map((c) => c.slice))
  const out: Slice[] = []
  for (let from = BigInt(backfill.from); from < to; ) {
    const cellEnd = (from / size + 1n) * size
    const end = cellEnd < to ? cellEnd : to
    // finalAfter 0: a done cell is final (its heights below the tip were all fetched)
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
  onNodeNetwork({
    // the walk starts after what is committed, so it never yields a committed height
    excludesCommitted: true,
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
        } else at = JSON.parse(cursor) as HeightCursor
        const end = BigInt(at.end)
        const islands = at.islands.map(([lo, hi]) => [BigInt(lo), BigInt(hi)] as const)
        const committed = (h: bigint) => islands.some(([lo, hi]) => h >= lo && h <= hi)
        let next = BigInt(at.next)
        for (const [lo, hi] of islands) if (next >= lo && next <= hi) next = hi + 1n
        if (next >= end) return { records: [], next: undefined }
        const size = BigInt(p["window"] ?? "1") > 0n ? BigInt(p["window"] ?? "1") : 1n
        const windowEnd = (next / size + 1n) * size
        const stop = windowEnd < end ? windowEnd : end
        const heights = heightsAfter(next, stop, undefined, Number(stop - next)).map(keyHeight).filter((h) => !committed(h))
        const records = yield* Effect.forEach(heights, spec.block, { concurrency: spec.concurrency })
        return { records, next: stop < end ? JSON.stringify({ ...at, next: String(stop) } satisfies HeightCursor) : undefined }
      })
  })

/** A block record: the height asked for and the node's json block (toRow checks they agree). */
export const blockRecord = (chain: "X" | "P", method: string, height: bigint, heightParam: string | number) =>
  Effect.map(rpcObject(chain, method, { height: heightParam, encoding: "json" }), (r) => ({ height: height.toString(), block: r["block"] }))

/** The columns both node block datasets share, once the node is known to have answered the height asked for. */
export const blockHeaderColumns = (
  height: string,
  block: { readonly height: bigint; readonly id?: string | undefined; readonly parentID: string; readonly time?: bigint | undefined; readonly txs: ReadonlyArray<unknown> },
  slice: Slice
) => {
  if (block.height.toString() !== height) throw new RecordError(`asked for height ${height}, the node answered block ${block.height}`)
  return {
    network: slice.params["network"],
    height: block.height,
    block_id: block.id ?? null,
    parent_id: block.parentID,
    block_timestamp: block.time === undefined ? null : nodeTime(block.time),
    tx_count: block.txs.length
  }
}

/** A UTXO's columns from its node bytes (utxos and avm_utxos alike); `utxo_bytes` is the hex as sent. */
export const decodedUtxoColumns = (d: DecodedUtxo) => ({
  utxo_id: d.utxoId,
  tx_id: d.txId,
  output_index: d.outputIndex,
  asset_id: d.assetId,
  output_type: d.outputType,
  amount: d.amount,
  locktime: d.locktime,
  stakeable_locktime: d.stakeableLocktime,
  threshold: d.threshold,
  addresses: d.addresses,
  utxo_bytes: d.bytes
})
