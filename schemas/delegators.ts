/**
 * delegators: every primary-network delegation of every status (route 8), one snapshot per run
 * day. Hive keys: network, snapshot_date (the run's UTC day).
 */
import { address, amount, defineSchema, hash, list, str, ts } from "./common.ts"

export const schema = defineSchema(
  [
    hash("tx_hash", "Delegation transaction id (cb58)", { nullable: false }),
    str("node_id", "Validator node the stake is delegated to (NodeID-…)"),
    list("reward_addresses", address("item", "Address"), "Addresses the delegation reward goes to"),
    amount("amount_delegated", "Delegated amount (nAVAX)"),
    str("delegation_fee", "Validator's delegation fee in percent, exact text as sent, e.g. 2.0000"),
    ts("start_timestamp", "Delegation start (UTC)"),
    ts("end_timestamp", "Delegation end (UTC)"),
    str("delegation_status", "completed, active or pending at snapshot time; unknown values kept as sent"),
    amount("gross_reward", "Reward paid for the delegation before the validator's fee (nAVAX); completed delegations only"),
    amount("net_reward", "Reward paid to the delegator after the validator's fee (nAVAX); completed delegations only"),
    amount("estimated_gross_reward", "Expected reward before the validator's fee (nAVAX); active and pending delegations only"),
    amount("estimated_net_reward", "Expected reward after the validator's fee (nAVAX); active and pending delegations only")
  ],
  "Primary-network delegations of every status from the chain-data service (route 8), one snapshot per run day"
)
