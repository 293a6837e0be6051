/**
 * evm_transactions: one row per transaction looked up on route 11 (the hashes found in
 * token_transfers and those the job names). Its transfers and internal calls are the child tables
 * evm_erc20_transfers, evm_erc721_transfers, evm_erc1155_transfers, evm_internal_transactions.
 * Hive keys: chain_id, date (UTC day of block_timestamp). The record is the transaction detail
 * {nativeTransaction, networkTokenDetails, the four lists, a cross-chain message's info}.
 */
import { blockColumns, networkToken, networkTokenDescription, party, price } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"
import { LengthOf, NumberOrText } from "./wire.ts"

const tx = "nativeTransaction"
/** The seed's neutral name of a cross-chain message's info, and the official document's. */
const message = (field: string, teleporterField = field) => [`crosschainMessageInfo?.${field}`, `teleporterMessageInfo?.${teleporterField}`] as const
const count = (list: string, comment: string) => col.int32(comment).from(`${list}?`, { wire: LengthOf, orElse: 0 })

export const table = defineTable("EVM transactions looked up by hash on the chain-data service, route 11", {
  chain_id: col.str("EVM chain id of the listing").fromSlice(),
  ...blockColumns(`${tx}.`),
  block_index: col.int32("Position of the transaction in its block (0-based)").from(`${tx}.blockIndex`),
  tx_hash: col.hash("Transaction hash").from(`${tx}.txHash`),
  tx_status: col.str("Status as sent: 1 success, 0 failed (unknown values kept as sent)").from(`${tx}.txStatus`, { wire: NumberOrText }),
  tx_type: col.int32("Transaction type: 0 legacy, 1 access list, 2 EIP-1559").from(`${tx}.txType`),
  gas_limit: col.amount("Gas limit of the transaction").from(`${tx}.gasLimit`),
  gas_used: col.amount("Gas used").from(`${tx}.gasUsed`),
  gas_price: col.amount("Receipt (effective) gas price in wei").from(`${tx}.gasPrice`),
  nonce: col.amount("Sender's nonce").from(`${tx}.nonce`),
  ...party("from", "Sender", `${tx}.from`),
  ...party("to", "Recipient (the created contract for a creation)", `${tx}.to`),
  method_call_type: col.str("NATIVE_TRANSFER, CONTRACT_CALL or CONTRACT_CREATION (unknown values kept as sent)").from(`${tx}.method?.callType`),
  method_hash: col.str("4-byte method selector of a contract call").from(`${tx}.method?.methodHash?`),
  method_name: col.str("Method signature as the service names it").from(`${tx}.method?.methodName?`),
  value: col.uint256("Native value sent, in wei").from(`${tx}.value`),
  input: col.str("Call data, 0x hex").from(`${tx}.input`),
  base_fee_per_gas: col.amount("Base fee per gas of the block in wei").from(`${tx}.baseFeePerGas`),
  max_fee_per_gas: col.amount("EIP-1559 max fee per gas in wei").from(`${tx}.maxFeePerGas?`),
  max_priority_fee_per_gas: col.amount("EIP-1559 max priority fee per gas in wei").from(`${tx}.maxPriorityFeePerGas?`),
  ...networkToken("networkTokenDetails.networkToken"),
  network_token_description: networkTokenDescription("networkTokenDetails.networkToken"),
  ...price("current_price", "Native token price when the service answered", "networkTokenDetails.currentPrice?"),
  ...price("historical_price", "Native token price at the transaction's time", "networkTokenDetails.historicalPrice?"),
  crosschain_message_id: col.str("Cross-chain message id when the transaction sends or receives one").from(message("crosschainMessageId", "teleporterMessageId")),
  crosschain_direction: col.str("SOURCE_TRANSACTION or DESTINATION_TRANSACTION (unknown values kept as sent)").from(message("direction")),
  crosschain_source_chain_id: col.str("Source blockchain of a received message").from(message("sourceChainId?")),
  crosschain_destination_chain_id: col.str("Destination blockchain of a sent message").from(message("destinationChainId?")),
  erc20_transfer_count: count("erc20Transfers", "ERC-20 transfers in the detail (rows in evm_erc20_transfers)"),
  erc721_transfer_count: count("erc721Transfers", "ERC-721 transfers in the detail (rows in evm_erc721_transfers)"),
  erc1155_transfer_count: count("erc1155Transfers", "ERC-1155 transfers in the detail (rows in evm_erc1155_transfers)"),
  internal_transaction_count: count("internalTransactions", "Internal transactions in the detail (rows in evm_internal_transactions)")
})

