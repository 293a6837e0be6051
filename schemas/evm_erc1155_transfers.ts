/**
 * evm_erc1155_transfers: the ERC-1155 transfers of each evm_transactions detail (route 11
 * erc1155Transfers), written in the same commit as their transaction. Hive keys: chain_id, date.
 */
import { defineSchema, int32, uint256 } from "./common.ts"
import { nftToken, party, txFields } from "./_evm.ts"

export const schema = defineSchema(
  [
    ...txFields(),
    int32("log_index", "Index of the transfer's log within its block", { nullable: false }),
    ...party("from", "Sender"),
    ...party("to", "Recipient"),
    uint256("value", "Copies of the token moved"),
    ...nftToken()
  ],
  "ERC-1155 transfers inside the EVM transactions of evm_transactions (route 11)"
)
