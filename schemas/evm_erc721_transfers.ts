/**
 * evm_erc721_transfers: the ERC-721 transfers of each evm_transactions detail (route 11
 * erc721Transfers), written in the same commit as their transaction. Hive keys: chain_id, date.
 * Each row is one item of the list (Erc721TransferDetails: logIndex, from, to, erc721Token).
 */
import { nftToken, party, txColumns } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("ERC-721 transfers inside the EVM transactions of evm_transactions (route 11)", {
  ...txColumns,
  log_index: col.int32("Index of the transfer's log within its block").from("logIndex"),
  ...party("from", "Sender", "from"),
  ...party("to", "Recipient", "to"),
  ...nftToken("erc721Token.")
})
