/**
 * evm_transactions: one row per transaction looked up on route 11 (the hashes found in
 * token_transfers and those the job names). Its transfers and internal calls are the child tables
 * evm_erc20_transfers, evm_erc721_transfers, evm_erc1155_transfers, evm_internal_transactions.
 * Hive keys: chain_id, date (UTC day of block_timestamp).
 */
import { amount, defineSchema, hash, int32, str, uint256 } from "./common.ts"
import { blockFields, networkToken, networkTokenDescription, party, price } from "./_evm.ts"

export const schema = defineSchema(
  [
    ...blockFields(),
    int32("block_index", "Position of the transaction in its block (0-based)"),
    hash("tx_hash", "Transaction hash", { nullable: false }),
    str("tx_status", "Status as sent: 1 success, 0 failed (unknown values kept as sent)"),
    int32("tx_type", "Transaction type: 0 legacy, 1 access list, 2 EIP-1559"),
    amount("gas_limit", "Gas limit of the transaction"),
    amount("gas_used", "Gas used"),
    amount("gas_price", "Receipt (effective) gas price in wei"),
    amount("nonce", "Sender's nonce"),
    ...party("from", "Sender"),
    ...party("to", "Recipient (the created contract for a creation)"),
    str("method_call_type", "NATIVE_TRANSFER, CONTRACT_CALL or CONTRACT_CREATION (unknown values kept as sent)"),
    str("method_hash", "4-byte method selector of a contract call"),
    str("method_name", "Method signature as the service names it"),
    uint256("value", "Native value sent, in wei"),
    str("input", "Call data, 0x hex"),
    amount("base_fee_per_gas", "Base fee per gas of the block in wei"),
    amount("max_fee_per_gas", "EIP-1559 max fee per gas in wei"),
    amount("max_priority_fee_per_gas", "EIP-1559 max priority fee per gas in wei"),
    ...networkToken(),
    networkTokenDescription(),
    ...price("current_price", "Native token price when the service answered"),
    ...price("historical_price", "Native token price at the transaction's time"),
    str("crosschain_message_id", "Cross-chain message id when the transaction sends or receives one"),
    str("crosschain_direction", "SOURCE_TRANSACTION or DESTINATION_TRANSACTION (unknown values kept as sent)"),
    str("crosschain_source_chain_id", "Source blockchain of a received message"),
    str("crosschain_destination_chain_id", "Destination blockchain of a sent message"),
    int32("erc20_transfer_count", "ERC-20 transfers in the detail (rows in evm_erc20_transfers)"),
    int32("erc721_transfer_count", "ERC-721 transfers in the detail (rows in evm_erc721_transfers)"),
    int32("erc1155_transfer_count", "ERC-1155 transfers in the detail (rows in evm_erc1155_transfers)"),
    int32("internal_transaction_count", "Internal transactions in the detail (rows in evm_internal_transactions)")
  ],
  "EVM transactions looked up by hash on the chain-data service, route 11"
)
