/**
 * evm_transactions (+ evm_erc20_transfers, evm_erc721_transfers, evm_erc1155_transfers,
 * evm_internal_transactions) — route 11, a fan-out per chain over the transaction hashes found in
 * token_transfers and those the job names, rerun every run: each run looks up only the hashes
 * not fetched before (nor answered 404 before), a batch of lookups per page with bounded
 * concurrency. The child tables are cut from the same detail and written in the same commit.
 */
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineChild, defineDataset } from "../src/transform/DefineDataset.ts"
import { table as erc1155 } from "../schemas/evm_erc1155_transfers.ts"
import { table as erc20 } from "../schemas/evm_erc20_transfers.ts"
import { table as erc721 } from "../schemas/evm_erc721_transfers.ts"
import { table as internal } from "../schemas/evm_internal_transactions.ts"
import { table } from "../schemas/evm_transactions.ts"
import { fanOutChains, fanOutListing } from "./_evm.ts"

// compacted child files: chain order, then each transfer's or trace's place in its transaction
const children = [
  defineChild(table, erc20, {
    name: "evm_erc20_transfers",
    description: "ERC-20 transfers inside the transactions of evm_transactions (route 11)",
    partitionBy: ["chain_id"],
    key: ["tx_hash", "log_index"],
    sortBy: ["block_number", "tx_hash", "log_index"],
    items: "erc20Transfers?"
  }),
  defineChild(table, erc721, {
    name: "evm_erc721_transfers",
    description: "ERC-721 transfers inside the transactions of evm_transactions (route 11)",
    partitionBy: ["chain_id"],
    key: ["tx_hash", "log_index"],
    sortBy: ["block_number", "tx_hash", "log_index"],
    items: "erc721Transfers?"
  }),
  defineChild(table, erc1155, {
    name: "evm_erc1155_transfers",
    description: "ERC-1155 transfers inside the transactions of evm_transactions (route 11)",
    partitionBy: ["chain_id"],
    key: ["tx_hash", "log_index"],
    sortBy: ["block_number", "tx_hash", "log_index"],
    items: "erc1155Transfers?"
  }),
  defineChild(table, internal, {
    name: "evm_internal_transactions",
    description: "Internal transactions inside the transactions of evm_transactions (route 11)",
    partitionBy: ["chain_id"],
    key: ["tx_hash", "trace_index"],
    sortBy: ["block_number", "tx_hash", "trace_index"],
    items: "internalTransactions?",
    compute: ({ index }) => ({ trace_index: index })
  })
]

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

export const dataset = defineDataset(table, {
  name: "evm_transactions",
  description: "EVM transactions of the hashes in token_transfers and the job (chain-data route 11), each fetched once",
  services: ["data"],
  readsOutputOf: ["token_transfers"],
  partitionBy: ["chain_id"],
  // Grain: day, like token_transfers whose transactions it fetches (busy contracts: tens of MB a
  // day); its child tables follow the same grain
  timePartition: { column: "block_timestamp", grain: "day" },
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
  })
})
