/**
 * evm_erc1155_transfers: the ERC-1155 transfers of each evm_transactions detail (route 11
 * erc1155Transfers), written in the same commit as their transaction. Hive keys: chain_id, date.
 * Each row is one item of the list (Erc1155TransferDetails: logIndex, from, to, value, erc1155Token).
 */
import { nftToken, party, txColumns } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("ERC-1155 transfers inside the EVM transactions of evm_transactions (route 11)", {
  ...txColumns,
  log_index: col.int32("Index of the transfer's log within its block").from("logIndex"),
  ...party("from", "Sender", "from"),
  ...party("to", "Recipient", "to"),
  value: col.uint256("Copies of the token moved").from("value"),
  ...nftToken("erc1155Token.")
})
