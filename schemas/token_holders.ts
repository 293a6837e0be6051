/**
 * token_holders: addresses that held more than a threshold of a token (route 14), one snapshot a
 * day. Hive keys: chain_id, snapshot_date.
 */
import { col, defineTable } from "./columns.ts"
import { SortKey } from "./wire.ts"

export const table = defineTable("Token holders above a threshold (metrics service route 14), snapshotted once per run day", {
  chain_id: col.str("EVM chain id of the token").fromSlice(),
  snapshot_date: col.date("UTC day of the run that listed the holders").fromSlice(),
  contract_address: col.address("Token contract queried (lowercase 0x)").fromSlice(),
  threshold: col.str("Minimum balance asked for, in the token's smallest unit (exact decimal string, the job's value)").fromSlice(),
  holder_address: col.address("Address that held more than the threshold at some moment of the period").from("address"),
  sort_key: col.uint256("The holder's latest balance in the token's smallest unit (the route's sortKey, an exact JSON integer)").from("sortKey", { wire: SortKey })
})
