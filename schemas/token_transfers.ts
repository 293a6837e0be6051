/**
 * token_transfers: transfers of the job's token contracts (ERC-20, ERC-721, ERC-1155) as route 6
 * lists them, one row per transfer event. Hive keys: chain_id, date (UTC day of block_timestamp).
 */
import { defineSchema, hash, int32, str, uint256 } from "./common.ts"
import { anyToken, blockFields, party } from "./_evm.ts"

export const schema = defineSchema(
  [
    ...blockFields(),
    hash("tx_hash", "Hash of the transaction that emitted the transfer", { nullable: false }),
    int32("log_index", "Index of the transfer's log within its block", { nullable: false }),
    ...party("from", "Sender"),
    ...party("to", "Recipient"),
    str("erc_type", "Token standard as the service names it: ERC-20, ERC-721, ERC-1155 (unknown values kept as sent)"),
    uint256("value", "Amount moved: ERC-20 base units or ERC-1155 copies; NULL for ERC-721"),
    ...anyToken()
  ],
  "Transfers of the job's token contracts from the chain-data service, route 6, by block-range windows"
)
