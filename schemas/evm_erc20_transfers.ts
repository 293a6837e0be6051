/**
 * evm_erc20_transfers: the ERC-20 transfers of each evm_transactions detail (route 11
 * erc20Transfers), written in the same commit as their transaction. Hive keys: chain_id, date.
 */
import { defineSchema, int32, uint256 } from "./common.ts"
import { erc20Token, party, txFields } from "./_evm.ts"

export const schema = defineSchema(
  [
    ...txFields(),
    int32("log_index", "Index of the transfer's log within its block", { nullable: false }),
    ...party("from", "Sender"),
    ...party("to", "Recipient"),
    uint256("value", "Amount in the token's base units"),
    ...erc20Token()
  ],
  "ERC-20 transfers inside the EVM transactions of evm_transactions (route 11)"
)
