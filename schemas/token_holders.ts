/**
 * token_holders: addresses that held more than a threshold of a token (route 14), one snapshot a
 * day. Hive keys: chain_id, snapshot_date.
 */
import { address, defineSchema, float64, str } from "./common.ts"

export const schema = defineSchema(
  [
    address("contract_address", "Token contract queried (lowercase 0x)", { nullable: false }),
    str("threshold", "Minimum balance asked for, in the token's smallest unit (exact decimal string, the job's value)", { nullable: false }),
    address("holder_address", "Address that held more than the threshold at some moment of the period", { nullable: false }),
    float64(
      "sort_key",
      "The holder's latest balance in the token's smallest unit, as the route's sortKey (a JSON number: a double, exact only up to 2^53)",
      { nullable: false }
    )
  ],
  "Token holders above a threshold (metrics service route 14), snapshotted once per run day"
)
