/**
 * evm_erc20_transfers: the ERC-20 transfers of each evm_transactions detail (route 11
 * erc20Transfers), written in the same commit as their transaction. Hive keys: chain_id, date.
 * Each row is one item of the list (Erc20TransferDetails: logIndex, from, to, value, erc20Token).
 */
import { erc20Token, party, txColumns } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("ERC-20 transfers inside the EVM transactions of evm_transactions (route 11)", {
  ...txColumns,
  log_index: col.int32("Index of the transfer's log within its block").from("logIndex"),
  ...party("from", "Sender", "from"),
  ...party("to", "Recipient", "to"),
  value: col.uint256("Amount in the token's base units").from("value"),
  ...erc20Token("erc20Token")
})
