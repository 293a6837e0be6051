/**
 * evm_transactions (+ evm_erc20_transfers, evm_erc721_transfers, evm_erc1155_transfers,
 * evm_internal_transactions) — route 11, a fan-out per chain over the transaction hashes found in
 * token_transfers and those the job names, rerun every run: each run looks up only the hashes
 * not fetched before (nor answered 404 before), a batch of lookups per page with bounded
 * concurrency. The child tables are cut from the same detail and written in the same commit.
 */
import { Schema } from "effect"
import type { ChildDataset, DatasetDef, PartitionKey, Row, SourceClients } from "../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { UnixSeconds, decoder } from "../src/transform/Decode.ts"
import { uint256Values } from "../schemas/common.ts"
import { schema as erc1155Schema } from "../schemas/evm_erc1155_transfers.ts"
import { schema as erc20Schema } from "../schemas/evm_erc20_transfers.ts"
import { schema as erc721Schema } from "../schemas/evm_erc721_transfers.ts"
import { schema as internalSchema } from "../schemas/evm_internal_transactions.ts"
import { schema } from "../schemas/evm_transactions.ts"
import { columnKey, utcDate } from "./_shared/partitions.ts"
import {
  AddressInfo,
  Amount,
  Erc1155Transfer,
  Erc20Transfer,
  Erc721Transfer,
  Int,
  Money,
  NetworkToken,
  Uint256,
  endsRow,
  erc20TokenRow,
  fanOutChains,
  fanOutListing,
  networkTokenRow,
  nftTokenRow,
  opt,
  partyRow,
  priceRow
} from "./_evm.ts"
import { withGrain } from "../src/crawl/Grain.ts"

const NativeTransaction = Schema.Struct({
  blockNumber: Amount,
  blockTimestamp: UnixSeconds,
  blockHash: Schema.String,
  chainId: Schema.String,
  blockIndex: Int,
  txHash: Schema.String,
  txStatus: Schema.Union(Schema.String, Schema.Number),
  txType: Int,
  gasLimit: Amount,
  gasUsed: Amount,
  gasPrice: Amount,
  nonce: Amount,
  from: AddressInfo,
  to: AddressInfo,
  method: opt(Schema.Struct({ callType: Schema.String, methodHash: opt(Schema.String), methodName: opt(Schema.String) })),
  value: Uint256,
  input: Schema.String,
  baseFeePerGas: Amount,
  maxFeePerGas: opt(Amount),
  maxPriorityFeePerGas: opt(Amount)
})

const Internal = Schema.Struct({
  from: AddressInfo,
  to: AddressInfo,
  internalTxType: Schema.String,
  value: Uint256,
  isReverted: Schema.Boolean,
  gasUsed: Amount,
  gasLimit: Amount
})

const MessageInfo = {
  direction: Schema.String,
  sourceChainId: opt(Schema.String),
  destinationChainId: opt(Schema.String)
}

const Detail = Schema.Struct({
  erc20Transfers: opt(Schema.Array(Erc20Transfer)),
  erc721Transfers: opt(Schema.Array(Erc721Transfer)),
  erc1155Transfers: opt(Schema.Array(Erc1155Transfer)),
  internalTransactions: opt(Schema.Array(Internal)),
  networkTokenDetails: Schema.Struct({ networkToken: NetworkToken, currentPrice: opt(Money), historicalPrice: opt(Money) }),
  nativeTransaction: NativeTransaction,
  // the seed's neutral name, and the official document's
  crosschainMessageInfo: opt(Schema.Struct({ crosschainMessageId: Schema.String, ...MessageInfo })),
  teleporterMessageInfo: opt(Schema.Struct({ teleporterMessageId: Schema.String, ...MessageInfo }))
})

type Detail = typeof Detail.Type

/** The parent and its four children read the same record: decode it once. */
const decode = (() => {
  const decodeDetail = decoder(Detail)
  const seen = new WeakMap<object, Detail>()
  return (raw: unknown): Detail => {
    if (typeof raw !== "object" || raw === null) return decodeDetail(raw)
    const known = seen.get(raw)
    if (known !== undefined) return known
    const d = decodeDetail(raw)
    seen.set(raw, d)
    return d
  }
})()

const partitionBy: ReadonlyArray<PartitionKey> = [columnKey("chain_id")]

/** What each child row repeats of its transaction. */
const txOf = (d: Detail, slice: Slice): Row => ({
  chain_id: slice.params["chain_id"],
  tx_hash: d.nativeTransaction.txHash,
  block_number: d.nativeTransaction.blockNumber,
  block_timestamp: d.nativeTransaction.blockTimestamp
})

const child = (name: string, description: string, childSchema: ChildDataset["schema"], rowsOf: (d: Detail) => ReadonlyArray<Row>): ChildDataset => ({
  name,
  description,
  schema: childSchema,
  partitionBy,
  key: ["tx_hash", name === "evm_internal_transactions" ? "trace_index" : "log_index"],
  toRows: (raw, slice) => {
    const d = decode(raw)
    const tx = txOf(d, slice)
    return rowsOf(d).map((r) => ({ ...tx, ...r }))
  }
})

const childList: ReadonlyArray<ChildDataset> = [
  child("evm_erc20_transfers", "ERC-20 transfers inside the transactions of evm_transactions (route 11)", erc20Schema, (d) =>
    (d.erc20Transfers ?? []).map((t) => ({ ...endsRow(t), ...uint256Values("value", t.value), ...erc20TokenRow(t.erc20Token) }))
  ),
  child("evm_erc721_transfers", "ERC-721 transfers inside the transactions of evm_transactions (route 11)", erc721Schema, (d) =>
    (d.erc721Transfers ?? []).map((t) => ({ ...endsRow(t), ...nftTokenRow(t.erc721Token) }))
  ),
  child("evm_erc1155_transfers", "ERC-1155 transfers inside the transactions of evm_transactions (route 11)", erc1155Schema, (d) =>
    (d.erc1155Transfers ?? []).map((t) => ({ ...endsRow(t), ...uint256Values("value", t.value), ...nftTokenRow(t.erc1155Token) }))
  ),
  child("evm_internal_transactions", "Internal transactions inside the transactions of evm_transactions (route 11)", internalSchema, (d) =>
    (d.internalTransactions ?? []).map((t, i) => ({
      trace_index: i,
      ...partyRow("from", t.from),
      ...partyRow("to", t.to),
      internal_tx_type: t.internalTxType,
      ...uint256Values("value", t.value),
      is_reverted: t.isReverted,
      gas_used: t.gasUsed,
      gas_limit: t.gasLimit
    }))
  )
]

// compacted child files: chain order, then each transfer's or trace's place in its transaction
const children: ReadonlyArray<ChildDataset> = childList.map((c) => ({
  ...c,
  sortBy: ["block_number", "tx_hash", c.name === "evm_internal_transactions" ? "trace_index" : "log_index"]
}))

/**
 * Hashes wanted on the chain, found in token_transfers or named by the job, lowercased (the
 * service's spelling) so a hash fetched under any case counts as fetched.
 */
const candidatesSql = `
  SELECT k FROM (
    SELECT lower(tx_hash) AS k FROM token_transfers WHERE chain_id = $chain
    UNION
    SELECT h FROM (SELECT unnest(string_split($configured, ',')) AS h) WHERE h <> ''
  )
  WHERE k NOT IN (SELECT lower(tx_hash) FROM evm_transactions WHERE chain_id = $chain)`

export const dataset: DatasetDef<SourceClients> = withGrain({
  name: "evm_transactions",
  description: "EVM transactions of the hashes in token_transfers and the job (chain-data route 11), each fetched once",
  schema,
  partitionBy,
  // Grain: day, like token_transfers whose transactions it fetches (busy contracts: tens of MB a
  // day); its child tables follow the same grain
  timePartition: { day: utcDate("block_timestamp"), grain: "day" },
  key: ["tx_hash"],
  // compacted files are sorted so: chain order: block-number filters skip row groups (the child tables: block_number, then their own index)
  sortBy: ["block_number", "block_index"],
  rerun: "always",
  children,
  // nextKeys sees only the slice, so the job's hashes of the chain ride in its params
  slices: (job) =>
    fanOutChains(job).map((chain_id) =>
      makeSlice("evm_transactions", {
        chain_id,
        tx_hashes: [...new Set(job.transactionHashes.filter((t) => t.chainId === chain_id).map((t) => t.txHash.toLowerCase()))].sort().join(",")
      })
    ),
  listing: fanOutListing({
    dataset: "evm_transactions",
    candidatesSql,
    reads: ["token_transfers", "evm_transactions"],
    params: (slice) => ({ configured: String(slice.params["tx_hashes"] ?? "") }),
    path: (slice, hash) => `/v1/chains/${slice.params["chain_id"]}/transactions/${hash}`
  }),
  toRow: (raw, slice) => {
    const d = decode(raw)
    const n = d.nativeTransaction
    const message = d.crosschainMessageInfo ?? d.teleporterMessageInfo
    return {
      chain_id: slice.params["chain_id"],
      block_number: n.blockNumber,
      block_timestamp: n.blockTimestamp,
      block_hash: n.blockHash,
      block_index: n.blockIndex,
      tx_hash: n.txHash,
      tx_status: String(n.txStatus),
      tx_type: n.txType,
      gas_limit: n.gasLimit,
      gas_used: n.gasUsed,
      gas_price: n.gasPrice,
      nonce: n.nonce,
      ...partyRow("from", n.from),
      ...partyRow("to", n.to),
      method_call_type: n.method?.callType ?? null,
      method_hash: n.method?.methodHash ?? null,
      method_name: n.method?.methodName ?? null,
      ...uint256Values("value", n.value),
      input: n.input,
      base_fee_per_gas: n.baseFeePerGas,
      max_fee_per_gas: n.maxFeePerGas ?? null,
      max_priority_fee_per_gas: n.maxPriorityFeePerGas ?? null,
      ...networkTokenRow(d.networkTokenDetails.networkToken),
      ...priceRow("current_price", d.networkTokenDetails.currentPrice),
      ...priceRow("historical_price", d.networkTokenDetails.historicalPrice),
      crosschain_message_id: d.crosschainMessageInfo?.crosschainMessageId ?? d.teleporterMessageInfo?.teleporterMessageId ?? null,
      crosschain_direction: message?.direction ?? null,
      crosschain_source_chain_id: message?.sourceChainId ?? null,
      crosschain_destination_chain_id: message?.destinationChainId ?? null,
      erc20_transfer_count: d.erc20Transfers?.length ?? 0,
      erc721_transfer_count: d.erc721Transfers?.length ?? 0,
      erc1155_transfer_count: d.erc1155Transfers?.length ?? 0,
      internal_transaction_count: d.internalTransactions?.length ?? 0
    }
  }
})
