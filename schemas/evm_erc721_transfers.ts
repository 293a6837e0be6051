/**
 * evm_erc721_transfers: the ERC-721 transfers of each evm_transactions detail (route 11
 * erc721Transfers), written in the same commit as their transaction. Hive keys: chain_id, date.
 */
import { defineSchema, int32 } from "./common.ts"
import { nftToken, party, txFields } from "./_evm.ts"

export const schema = defineSchema(
  [
    ...txFields(),
    int32("log_index", "Index of the transfer's log within its block", { nullable: false }),
    ...party("from", "Sender"),
    ...party("to", "Recipient"),
    ...nftToken()
  ],
  "ERC-721 transfers inside the EVM transactions of evm_transactions (route 11)"
)
