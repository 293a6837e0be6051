/**
 * delegators: every primary-network delegation of every status (route 8), one snapshot per run
 * day. Hive keys: network, snapshot_date (the run's UTC day). The document's three variants
 * (Completed-, Active-, PendingDelegatorDetails) share every field but the rewards: a completed
 * delegation's are paid, the others' estimated.
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable("Primary-network delegations of every status from the chain-data service (route 8), one snapshot per run day", {
  network: col.str("Network of the listing: mainnet or fuji").fromSlice(),
  snapshot_date: col.date("UTC day of the run that listed the delegations").fromSlice(),
  tx_hash: col.hash("Delegation transaction id (cb58)").from("txHash"),
  node_id: col.str("Validator node the stake is delegated to (NodeID-…)").from("nodeId"),
  reward_addresses: col.list(col.address("Address"), "Addresses the delegation reward goes to").from("rewardAddresses"),
  amount_delegated: col.amount("Delegated amount (nAVAX)").from("amountDelegated"),
  delegation_fee: col.str("Validator's delegation fee in percent, exact text as sent, e.g. 2.0000").from("delegationFee"),
  start_timestamp: col.ts("Delegation start (UTC)").from("startTimestamp"),
  end_timestamp: col.ts("Delegation end (UTC)").from("endTimestamp"),
  // a status the document does not list yet is still a delegation: kept as sent
  delegation_status: col.str("completed, active or pending at snapshot time; unknown values kept as sent").from("delegationStatus"),
  gross_reward: col.amount("Reward paid for the delegation before the validator's fee (nAVAX); completed delegations only").from("grossReward?"),
  net_reward: col.amount("Reward paid to the delegator after the validator's fee (nAVAX); completed delegations only").from("netReward?"),
  estimated_gross_reward: col.amount("Expected reward before the validator's fee (nAVAX); active and pending delegations only").from("estimatedGrossReward?"),
  estimated_net_reward: col.amount("Expected reward after the validator's fee (nAVAX); active and pending delegations only").from("estimatedNetReward?")
})
