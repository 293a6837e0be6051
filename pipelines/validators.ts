/**
 * validators — route 7 for every node id this snapshot knows: those in delegators and, when the
 * node group wrote it, current_validators (same network and run day). One key is one node and
 * its fetch pages through the node's validations fully. Each validation keeps the fields of its
 * status variant; the others stay null.
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { DecimalString, UnixSeconds, decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/validators.ts"
import { snapshotKeys } from "./_shared/partitions.ts"
import { getAllPages } from "./_shared/restListings.ts"
import { datasets as nodeGroup } from "./groups/node.ts"

const opt = Schema.optional
const PRIMARY_NETWORK_SUBNET = "11111111111111111111111111111111LpoYY"

const Rewards = Schema.Struct({
  validationRewardAmount: DecimalString,
  delegationRewardAmount: DecimalString,
  rewardAddresses: opt(Schema.Array(Schema.String)),
  rewardTxHash: opt(Schema.String)
})

const Validator = Schema.Struct({
  txHash: Schema.String,
  nodeId: Schema.String,
  subnetId: Schema.String,
  amountStaked: DecimalString,
  delegationFee: opt(Schema.String),
  startTimestamp: UnixSeconds,
  endTimestamp: UnixSeconds,
  blsCredentials: opt(Schema.Struct({ publicKey: opt(Schema.String), proofOfPossession: opt(Schema.String) })),
  // a status the document does not list yet is still a validation: kept as sent
  validationStatus: Schema.String,
  delegatorCount: opt(Schema.Number.pipe(Schema.int())),
  amountDelegated: opt(DecimalString),
  rewards: opt(Rewards),
  potentialRewards: opt(Rewards),
  stakePercentage: opt(Schema.Number),
  uptimePerformance: opt(Schema.Number),
  avalancheGoVersion: opt(Schema.String),
  delegationCapacity: opt(DecimalString),
  validatorHealth: opt(
    Schema.Struct({
      reachabilityPercent: Schema.Number,
      benchedPChainRequestsPercent: Schema.Number,
      benchedXChainRequestsPercent: Schema.Number,
      benchedCChainRequestsPercent: Schema.Number
    })
  ),
  geolocation: opt(
    Schema.NullOr(Schema.Struct({ city: Schema.String, country: Schema.String, countryCode: Schema.String, latitude: Schema.Number, longitude: Schema.Number }))
  ),
  removeTxHash: opt(Schema.String),
  removeTimestamp: opt(UnixSeconds)
})

const decode = decoder(Validator)

const rewardsRow = (r: typeof Rewards.Type | undefined) =>
  r === undefined
    ? null
    : {
        validation_reward_amount: r.validationRewardAmount,
        delegation_reward_amount: r.delegationRewardAmount,
        reward_addresses: r.rewardAddresses ?? [],
        reward_tx_hash: r.rewardTxHash ?? null
      }

/**
 * current_validators belongs to the node group and may not be registered (or may lack a column):
 * it contributes node ids only when it is there with node_id and network; its day and subnet
 * narrow the ids when it has those columns.
 */
const currentValidatorsSql = Effect.gen(function* () {
  if (!nodeGroup.some((d) => d.name === "current_validators")) return undefined
  const reader = yield* OutputReader
  const rows = yield* reader.query(
    "SELECT column_name FROM information_schema.columns WHERE table_name = 'current_validators'",
    {},
    ["current_validators"]
  )
  const columns = new Set(rows.map((r) => String(r["column_name"])))
  if (!columns.has("node_id") || !columns.has("network")) return undefined
  return [
    "SELECT node_id FROM current_validators WHERE network = $network",
    columns.has("snapshot_date") ? "AND snapshot_date = CAST($date AS DATE)" : "",
    columns.has("subnet_id") ? `AND subnet_id = '${PRIMARY_NETWORK_SUBNET}'` : ""
  ].join(" ")
})

/** Node ids of this snapshot after the cursor and not yet fetched, in text order. */
const nodeIdsAfter = (slice: Slice, after: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const reader = yield* OutputReader
    const current = yield* currentValidatorsSql
    const sources = ["SELECT node_id FROM delegators WHERE network = $network AND snapshot_date = CAST($date AS DATE)", ...(current === undefined ? [] : [current])]
    const rows = yield* reader.query(
      `SELECT DISTINCT node_id FROM (${sources.join(" UNION ALL ")}) ids
       WHERE node_id IS NOT NULL AND node_id > $after
         AND node_id NOT IN (SELECT node_id FROM validators WHERE network = $network AND snapshot_date = CAST($date AS DATE) AND node_id IS NOT NULL)
       ORDER BY node_id LIMIT ${limit}`,
      { network: slice.params["network"] ?? "", date: slice.params["snapshot_date"] ?? "", after: after ?? "" },
      ["delegators", "validators", ...(current === undefined ? [] : ["current_validators"])]
    )
    return rows.map((r) => String(r["node_id"]))
  })

export const dataset: DatasetDef<RestClient | OutputReader> = {
  name: "validators",
  description: "Validations of the nodes found in delegators and current_validators (chain-data route 7), one snapshot per network and run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["tx_hash"],
  slices: (job, { runDate }) => job.networks.map((network) => makeSlice("validators", { network, snapshot_date: runDate })),
  listing: keyedListing<RestClient | OutputReader>({
    nextKeys: nodeIdsAfter,
    fetch: (slice, nodeId) =>
      getAllPages(`/v1/networks/${slice.params["network"]}/validators/${encodeURIComponent(nodeId)}`, { sortOrder: "asc" }, "validators", 100),
    batch: 25,
    concurrency: 4,
    excludesCommitted: true
  }),
  toRow: (raw, slice) => {
    const v = decode(raw)
    const health = v.validatorHealth
    const geo = v.geolocation
    return {
      network: slice.params["network"],
      snapshot_date: slice.params["snapshot_date"],
      tx_hash: v.txHash,
      node_id: v.nodeId,
      subnet_id: v.subnetId,
      amount_staked: v.amountStaked,
      delegation_fee: v.delegationFee ?? null,
      start_timestamp: v.startTimestamp,
      end_timestamp: v.endTimestamp,
      bls_public_key: v.blsCredentials?.publicKey ?? null,
      bls_proof_of_possession: v.blsCredentials?.proofOfPossession ?? null,
      validation_status: v.validationStatus,
      delegator_count: v.delegatorCount ?? null,
      amount_delegated: v.amountDelegated ?? null,
      rewards: rewardsRow(v.rewards),
      potential_rewards: rewardsRow(v.potentialRewards),
      stake_percentage: v.stakePercentage ?? null,
      uptime_performance: v.uptimePerformance ?? null,
      avalanche_go_version: v.avalancheGoVersion ?? null,
      delegation_capacity: v.delegationCapacity ?? null,
      validator_health:
        health === undefined
          ? null
          : {
              reachability_percent: health.reachabilityPercent,
              benched_p_chain_requests_percent: health.benchedPChainRequestsPercent,
              benched_x_chain_requests_percent: health.benchedXChainRequestsPercent,
              benched_c_chain_requests_percent: health.benchedCChainRequestsPercent
            },
      geolocation:
        geo === undefined || geo === null
          ? null
          : { city: geo.city, country: geo.country, country_code: geo.countryCode, latitude: geo.latitude, longitude: geo.longitude },
      remove_tx_hash: v.removeTxHash ?? null,
      remove_timestamp: v.removeTimestamp ?? null
    }
  }
}
