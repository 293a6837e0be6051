/**
 * current_supply: platform.getCurrentSupply of the primary network and each job subnet. Hive keys:
 * network, snapshot_date. subnet_id is the slice's; the others are the answer's field named in
 * `from`, node uint64s (a decimal string, or a JSON integer).
 */
import { amount, defineSchema, hash, int64 } from "./common.ts"

export const schema = defineSchema(
  [
    hash("subnet_id", "Subnet whose staking token this is (the primary network is 11111111111111111111111111111111LpoYY)", { nullable: false }),
    amount("supply", "Upper bound of the tokens that can stake the subnet, in base units; ignores burnt tokens (fees)", { from: "supply", wire: "decimal-string-or-integer" }),
    int64("height", "P-chain height the supply was read at, when the node sends it", { from: "height", optional: true, wire: "decimal-string-or-integer" })
  ],
  "Current supply of the primary network's and the job subnets' staking tokens from the node's platform.getCurrentSupply, one snapshot per run day"
)
