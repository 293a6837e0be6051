/**
 * delegators — route 8, every delegation of every status, one snapshot per network and run day.
 * Completed delegations carry paid rewards, active and pending ones estimates: both are kept in
 * their own columns rather than merged, since one is a fact and the other a forecast.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { DecimalString, UnixSeconds, decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/delegators.ts"
import { snapshotKeys } from "./_shared.ts"

const opt = Schema.optional

const Delegator = Schema.Struct({
  txHash: Schema.String,
  nodeId: Schema.String,
  rewardAddresses: Schema.Array(Schema.String),
  amountDelegated: DecimalString,
  delegationFee: Schema.String,
  startTimestamp: UnixSeconds,
  endTimestamp: UnixSeconds,
  // a status the document does not list yet is still a delegation: kept as sent
  delegationStatus: Schema.String,
  grossReward: opt(DecimalString),
  netReward: opt(DecimalString),
  estimatedGrossReward: opt(DecimalString),
  estimatedNetReward: opt(DecimalString)
})

const decode = decoder(Delegator)

export const dataset: DatasetDef<RestClient> = {
  name: "delegators",
  description: "Primary-network delegations of every status (chain-data route 8), one snapshot per network and run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["tx_hash"],
  slices: (job, { runDate }) => job.networks.map((network) => makeSlice("delegators", { network, snapshot_date: runDate })),
  listing: restListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/delegators`,
    // no delegationStatus: all statuses; oldest first so a page boundary never moves under new delegations
    query: () => ({ sortOrder: "asc" }),
    items: "delegators",
    pageSize: 100
  }),
  toRow: (raw, slice) => {
    const d = decode(raw)
    return {
      network: slice.params["network"],
      snapshot_date: slice.params["snapshot_date"],
      tx_hash: d.txHash,
      node_id: d.nodeId,
      reward_addresses: d.rewardAddresses,
      amount_delegated: d.amountDelegated,
      delegation_fee: d.delegationFee,
      start_timestamp: d.startTimestamp,
      end_timestamp: d.endTimestamp,
      delegation_status: d.delegationStatus,
      gross_reward: d.grossReward ?? null,
      net_reward: d.netReward ?? null,
      estimated_gross_reward: d.estimatedGrossReward ?? null,
      estimated_net_reward: d.estimatedNetReward ?? null
    }
  }
}
