/**
 * current_validators — platform.getCurrentValidators for the primary network and each job subnet,
 * one snapshot per run day on the node's network (see nodeNetwork).
 *
 * The node lists a primary-network validator's delegators only when asked about that one node
 * (avalanchego, and the reference document: otherwise only delegatorCount and delegatorWeight),
 * so each validator with delegations costs one more call, nodeIDs [its id], a few in flight.
 */
import { Effect, Schema } from "effect"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/current_validators.ts"
import { NodeUint } from "../schemas/wire.ts"
import { PRIMARY_SUBNET_ID, nodeNetwork, rpcDecoded, singlePage } from "./_shared/nodeRpc.ts"

const opt = Schema.optional

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

export const dataset = defineDataset(table, {
  name: "current_validators",
  description: "Current validators of the primary network and the job's subnets from the node's platform.getCurrentValidators, delegators nested, one snapshot per run day",
  services: ["node"],
  partitionBy: ["network", "snapshot_date"],
  sliceColumns: ["subnet_id"],
  // a subnet's current validators are one per node: avalanchego keys its current stakers by
  // subnet and node (vms/platformvm/state), and refuses a second L1 validator of a node on one
  // subnet (state/l1_validator.go, ErrDuplicateL1Validator)
  key: ["node_id"],
  slices: (job, { runDate }) =>
    [...new Set([PRIMARY_SUBNET_ID, ...job.subnets])].map((subnet_id) =>
      makeSlice("current_validators", { network: nodeNetwork(job), snapshot_date: runDate, subnet_id })
    ),
  listing: singlePage(records),
  compute: ({ read }) => ({
    // listed, or none to list; otherwise the node did not say (null)
    delegators: read.delegators ?? (read.delegator_count === 0 || (read.delegator_count === null && read.validation_id !== null) ? [] : null)
  })
})
