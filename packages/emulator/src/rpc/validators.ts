/**
 * platform.getCurrentValidators records from the world's node view, cut to the seed's validator
 * fields (seed: Validator record, Validator field rules):
 * - primary network: txID … delegators; `delegators` only when exactly one nodeID is asked for
 *   (the yaml's description and avalanchego: otherwise only delegatorCount and delegatorWeight);
 * - L1: validationID, nodeID, publicKey, remainingBalanceOwner, deactivationOwner, startTime,
 *   weight, minNonce, balance — no endTime;
 * - unknown nodeIDs are left out; a subnet with no validators (or none known) answers [].
 */
import type { PrimaryNetwork } from "../world/primary/index.ts"
import { toWire, type Wire } from "./wire.ts"

const PRIMARY_FIELDS = [
  "txID",
  "startTime",
  "endTime",
  "nodeID",
  "weight",
  "validationRewardOwner",
  "delegationRewardOwner",
  "potentialReward",
  "delegationFee",
  "uptime",
  "connected",
  "signer",
  "delegatorCount",
  "delegatorWeight",
  "delegators"
] as const

const L1_FIELDS = ["validationID", "nodeID", "publicKey", "remainingBalanceOwner", "deactivationOwner", "startTime", "weight", "minNonce", "balance"] as const

const pick = (record: object, fields: ReadonlyArray<string>): Record<string, unknown> => {
  const r = record as Record<string, unknown>
  return Object.fromEntries(fields.filter((f) => r[f] !== undefined).map((f) => [f, r[f]]))
}

export const currentValidators = (net: PrimaryNetwork, subnetId: string, nodeIds: ReadonlyArray<string>): Wire => {
  const records = net.currentValidators(subnetId, nodeIds.length > 0 ? nodeIds : undefined) ?? []
  const withDelegators = new Set(nodeIds).size === 1
  const validators = records.map((r) => {
    if ("validationID" in r) return pick(r, L1_FIELDS)
    const fields = withDelegators ? PRIMARY_FIELDS : PRIMARY_FIELDS.filter((f) => f !== "delegators")
    return pick(r, fields)
  })
  return { validators: toWire(validators) }
}
