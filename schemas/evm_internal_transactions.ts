/**
 * evm_internal_transactions: the internal transactions of each evm_transactions detail (route 11
 * internalTransactions: value-carrying calls and contract creations), written in the same commit
 * as their transaction. Hive keys: chain_id, date.
 */
import { amount, bool, defineSchema, int32, str, uint256 } from "./common.ts"
import { party, txFields } from "./_evm.ts"

export const schema = defineSchema(
  [
    ...txFields(),
    int32("trace_index", "Position in the detail's internalTransactions list (0-based; the service gives no trace address)", { nullable: false }),
    ...party("from", "Caller"),
    ...party("to", "Callee (the created contract for a creation)"),
    str("internal_tx_type", "CALL, CREATE, CREATE2… as sent (unknown values kept as sent)"),
    uint256("value", "Native value moved, in wei"),
    bool("is_reverted", "Whether the internal call was reverted"),
    amount("gas_used", "Gas used by the call"),
    amount("gas_limit", "Gas made available to the call")
  ],
  "Internal transactions inside the EVM transactions of evm_transactions (route 11)"
)
