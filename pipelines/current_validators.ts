/**
 * current_validators — platform.getCurrentValidators for the primary network and each job subnet,
 * one snapshot per run day on the node's network (see nodeNetwork).
 *
 * The node lists a primary-network validator's delegators only when asked about that one node
 * (avalanchego, and the reference document: otherwise only delegatorCount and delegatorWeight),
 * so each validator with delegations costs one more call, nodeIDs [its id], a few in flight.
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/current_validators.ts"
import { PRIMARY_SUBNET_ID, nodeNetwork, rpcDecoded, singlePage } from "./_shared/nodeRpc.ts"
import { NodeOwner, NodeUint, nodeTime, ownerRow } from "./_shared/nodeValues.ts"
import { snapshotKeys } from "./_shared/partitions.ts"

const opt = Schema.optional

const Delegator = Schema.Struct({
  txID: Schema.String,
  startTime: opt(NodeUint),
  endTime: opt(NodeUint),
  weight: opt(NodeUint),
  nodeID: opt(Schema.String),
  rewardOwner: opt(NodeOwner),
  potentialReward: opt(NodeUint)
})

const Validator = Schema.Struct({
  nodeID: Schema.String,
  txID: opt(Schema.String),
  validationID: opt(Schema.String),
  startTime: opt(NodeUint),
  endTime: opt(NodeUint),
  weight: opt(NodeUint),
  potentialReward: opt(NodeUint),
  accruedDelegateeReward: opt(NodeUint),
  delegationFee: opt(Schema.String),
  uptime: opt(Schema.String),
  connected: opt(Schema.Boolean),
  // the node spells it proofOfPosession (sic); proofOfPossession accepted too
  signer: opt(Schema.Struct({ publicKey: opt(Schema.String), proofOfPosession: opt(Schema.String), proofOfPossession: opt(Schema.String) })),
  validationRewardOwner: opt(NodeOwner),
  delegationRewardOwner: opt(NodeOwner),
  publicKey: opt(Schema.String),
  remainingBalanceOwner: opt(NodeOwner),
  deactivationOwner: opt(NodeOwner),
  minNonce: opt(NodeUint),
  balance: opt(NodeUint),
  delegatorCount: opt(NodeUint),
  delegatorWeight: opt(NodeUint),
  delegators: opt(Schema.NullOr(Schema.Array(Delegator)))
})

const decode = decoder(Validator)

/** Just enough of an entry to know whether to ask for its delegators. */
const Entry = Schema.Struct({ nodeID: Schema.String, delegatorCount: opt(NodeUint), delegators: opt(Schema.Unknown) })
const List = Schema.Struct({ validators: Schema.Array(Schema.Unknown) })
const decodeEntry = Schema.decodeUnknownOption(Entry)

const validatorsOf = (subnetId: string, nodeIds?: ReadonlyArray<string>) =>
  Effect.map(
    rpcDecoded("P", "platform.getCurrentValidators", { subnetID: subnetId, ...(nodeIds === undefined ? {} : { nodeIDs: nodeIds }) }, List),
    (r) => r.validators
  )

/** An entry with delegations but none listed, completed by the node's answer about that node alone. */
const withDelegators = (subnetId: string) => (v: unknown) => {
  const e = decodeEntry(v)
  if (e._tag === "None" || e.value.delegators !== undefined || (e.value.delegatorCount ?? 0n) === 0n) return Effect.succeed(v)
  const nodeId = e.value.nodeID
  return Effect.map(validatorsOf(subnetId, [nodeId]), (alone) => {
    const same = alone.map((a) => decodeEntry(a)).find((a) => a._tag === "Some" && a.value.nodeID === nodeId)
    // gone between the two calls: its delegators stay unknown (null)
    return same?._tag === "Some" && same.value.delegators !== undefined ? { ...(v as object), delegators: same.value.delegators } : v
  })
}

const records = (slice: Slice) => {
  const subnetId = slice.params["subnet_id"] ?? PRIMARY_SUBNET_ID
  return Effect.flatMap(validatorsOf(subnetId), (vs) => Effect.forEach(vs, withDelegators(subnetId), { concurrency: 4 }))
}

const time = (s: bigint | undefined): Date | null => (s === undefined ? null : nodeTime(s))

export const dataset: DatasetDef<JsonRpcClient> = {
  name: "current_validators",
  description: "Current validators of the primary network and the job's subnets from the node's platform.getCurrentValidators, delegators nested, one snapshot per run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["node_id", "validation_id"],
  slices: (job, { runDate }) =>
    [...new Set([PRIMARY_SUBNET_ID, ...job.subnets])].map((subnet_id) =>
      makeSlice("current_validators", { network: nodeNetwork(job), snapshot_date: runDate, subnet_id })
    ),
  listing: singlePage(records),
  toRow: (raw, slice) => {
    const v = decode(raw)
    const count = v.delegatorCount
    return {
      network: slice.params["network"],
      snapshot_date: slice.params["snapshot_date"],
      subnet_id: slice.params["subnet_id"],
      node_id: v.nodeID,
      tx_id: v.txID ?? null,
      validation_id: v.validationID ?? null,
      start_time: time(v.startTime),
      end_time: time(v.endTime),
      weight: v.weight ?? null,
      potential_reward: v.potentialReward ?? null,
      accrued_delegatee_reward: v.accruedDelegateeReward ?? null,
      delegation_fee: v.delegationFee ?? null,
      uptime: v.uptime === undefined ? null : Number(v.uptime),
      connected: v.connected ?? null,
      signer_public_key: v.signer?.publicKey ?? null,
      signer_proof_of_possession: v.signer?.proofOfPosession ?? v.signer?.proofOfPossession ?? null,
      validation_reward_owner: ownerRow(v.validationRewardOwner),
      delegation_reward_owner: ownerRow(v.delegationRewardOwner),
      public_key: v.publicKey ?? null,
      remaining_balance_owner: ownerRow(v.remainingBalanceOwner),
      deactivation_owner: ownerRow(v.deactivationOwner),
      min_nonce: v.minNonce ?? null,
      balance: v.balance ?? null,
      delegator_count: count === undefined ? null : Number(count),
      delegator_weight: v.delegatorWeight ?? null,
      delegators:
        v.delegators != null
          ? v.delegators.map((d) => ({
              tx_id: d.txID,
              start_time: time(d.startTime),
              end_time: time(d.endTime),
              weight: d.weight ?? null,
              node_id: d.nodeID ?? null,
              reward_owner: ownerRow(d.rewardOwner),
              potential_reward: d.potentialReward ?? null
            }))
          : count === 0n || (count === undefined && v.validationID !== undefined)
            ? []
            : null
    }
  }
}
