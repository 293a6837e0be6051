/**
 * token_holders: addresses that held more than a threshold of a token (route 14), one snapshot a
 * day. Hive keys: chain_id, snapshot_date.
 */
import { address, defineSchema, str, uint256 } from "./common.ts"

export const schema = defineSchema(
  [
    address("contract_address", "Token contract queried (lowercase 0x)", { nullable: false }),
    str("threshold", "Minimum balance asked for, in the token's smallest unit (exact decimal string, the job's value)", { nullable: false }),
    address("holder_address", "Address that held more than the threshold at some moment of the period", { nullable: false }),
    ...uint256("sort_key", "The holder's latest balance in the token's smallest unit (the route's sortKey, an exact JSON integer)", { nullable: false })
  ],
  "Token holders above a threshold (metrics service route 14), snapshotted once per run day"
)
