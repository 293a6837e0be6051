/**
 * The archive era's script (archive.ts): its steps in chain order, each one or two blocks, the
 * Apricot ones spread over [genesis, Banff), the Banff ones over [Banff, the world's history); and
 * the staking rules of the elastic subnet its TransformSubnetTx sets.
 */
import type { TransformRules } from "./types.ts"

const DAY = 86_400

export const APRICOT = [
  "genesis",
  "advance1",
  "createSubnet",
  "addValidator1",
  "addDelegator1",
  "createChain",
  "addSubnetValidator1",
  "import1",
  "advanceAborted",
  "export1",
  "addValidator2",
  "rewardDelegator1",
  "rewardValidator1",
  "advance2",
  "rewardValidator2",
  "atomicInStandard"
] as const
export const BANFF = [
  "addValidator3",
  "addDelegator3",
  "transform",
  "addPermissionless",
  "addPermissionlessDelegator",
  "empty",
  "removeSubnetValidator",
  "rewardDelegator3",
  "rewardValidator3",
  "rewardPermissionlessDelegator",
  "rewardPermissionless"
] as const
export type Step = (typeof APRICOT)[number] | (typeof BANFF)[number]

const SUPPLY = 720_000_000_000_000_000n

/** What TransformSubnetTx makes of the archive's second subnet (values of mainnet's primary network's kind). */
export const ELASTIC_RULES: TransformRules = {
  initialSupply: SUPPLY / 2n,
  maximumSupply: SUPPLY,
  minConsumptionRate: 100_000n,
  maxConsumptionRate: 120_000n,
  minValidatorStake: 2_000_000_000_000n,
  maxValidatorStake: 3_000_000_000_000_000n,
  minStakeDuration: 14 * DAY,
  maxStakeDuration: 365 * DAY,
  minDelegationFee: 20_000,
  minDelegatorStake: 25_000_000_000n,
  maxValidatorWeightFactor: 5,
  uptimeRequirement: 800_000
}
