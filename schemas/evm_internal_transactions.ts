/**
 * evm_internal_transactions: the internal transactions of each evm_transactions detail (route 11
 * internalTransactions: value-carrying calls and contract creations), written in the same commit
 * as their transaction. Hive keys: chain_id, date.
 */
import { party, txColumns } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("Internal transactions inside the EVM transactions of evm_transactions (route 11)", {
  ...txColumns,
  // the service gives no trace address: the place in the list is the row's identity
  trace_index: col.int32("Position in the detail's internalTransactions list (0-based; the service gives no trace address)"),
  ...party("from", "Caller", "from"),
  ...party("to", "Callee (the created contract for a creation)", "to"),
  internal_tx_type: col.str("CALL, CREATE, CREATE2… as sent (unknown values kept as sent)").from("internalTxType"),
  value: col.uint256("Native value moved, in wei").from("value"),
  is_reverted: col.bool("Whether the internal call was reverted").from("isReverted"),
  gas_used: col.amount("Gas used by the call").from("gasUsed"),
  gas_limit: col.amount("Gas made available to the call").from("gasLimit")
})
