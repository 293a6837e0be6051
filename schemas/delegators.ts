/**
 * delegators: every primary-network delegation of every status (route 8), one snapshot per run
 * day. Hive keys: network, snapshot_date (the run's UTC day). Each other column is the record's
 * field named in `from`.
 */
import { address, amount, defineSchema, hash, list, str, ts } from "./common.ts"

export const schema = defineSchema(
  [
    hash("tx_hash", "Delegation transaction id (cb58)", { nullable: false, from: "txHash" }),
    str("node_id", "Validator node the stake is delegated to (NodeID-…)", { from: "nodeId" }),
    list("reward_addresses", address("item", "Address"), "Addresses the delegation reward goes to", { from: "rewardAddresses" }),
    amount("amount_delegated", "Delegated amount (nAVAX)", { from: "amountDelegated" }),
    str("delegation_fee", "Validator's delegation fee in percent, exact text as sent, e.g. 2.0000", { from: "delegationFee" }),
    ts("start_timestamp", "Delegation start (UTC)", { from: "startTimestamp" }),
    ts("end_timestamp", "Delegation end (UTC)", { from: "endTimestamp" }),
    str("delegation_status", "completed, active or pending at snapshot time; unknown values kept as sent", { from: "delegationStatus" }),
    amount("gross_reward", "Reward paid for the delegation before the validator's fee (nAVAX); completed delegations only", { from: "grossReward", optional: true }),
    amount("net_reward", "Reward paid to the delegator after the validator's fee (nAVAX); completed delegations only", { from: "netReward", optional: true }),
    amount("estimated_gross_reward", "Expected reward before the validator's fee (nAVAX); active and pending delegations only", { from: "estimatedGrossReward", optional: true }),
    amount("estimated_net_reward", "Expected reward after the validator's fee (nAVAX); active and pending delegations only", { from: "estimatedNetReward", optional: true })
  ],
  "Primary-network delegations of every status from the chain-data service (route 8), one snapshot per run day"
)
