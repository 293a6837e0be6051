/**
 * Sizes and rates of one network's world, from the scale. Scale multiplies how many nodes,
 * wallets and L1s exist (and how many blocks hold them); per-entity volume (periods, UTXOs per
 * wallet) stays fixed, so any one request costs about the same at any scale.
 */
import type { NetworkName } from "../constants.ts"

const DAY = 86_400
const AVAX = 1_000_000_000n

export interface NetworkConfig {
  readonly nodes: number
  readonly wallets: number
  readonly l1s: number
  /** Seconds the history covers before the anchor. */
  readonly spanSeconds: number
  readonly pHistoryBlocks: number
  readonly xHistoryBlocks: number
  /** Seconds between blocks at and after the anchor. */
  readonly pInterval: number
  readonly xInterval: number
  /** Primary-network staking rules (seed values of mainnet and fuji). */
  readonly minValidatorDays: number
  readonly maxValidatorDays: number
  readonly minDelegatorDays: number
  readonly minStake: bigint
  readonly maxStake: bigint
  readonly minDelegation: bigint
  readonly maxDelegation: bigint
  readonly maxDelegationsPerPeriod: number
  /** Annual reward rate in percent, for estimated and paid rewards. */
  readonly rewardPercent: bigint
  /** Fees in nAVAX (avm.getTxFee and the burns of generated txs). */
  readonly txFee: bigint
  readonly createAssetTxFee: bigint
  /** L1 validator continuous fee, nAVAX per second. */
  readonly l1FeePerSecond: bigint
  /** Supply at genesis and minted per second after it (platform.getCurrentSupply, block currentSupply). */
  readonly genesisSupply: bigint
  readonly mintPerSecond: bigint
}

const count = (base: number, scale: number, min: number): number => Math.max(min, Math.round(base * scale))

/** L1s grow with the square root of the scale: every P-chain block reports on all their validators. */
const l1Count = (scale: number): number => Math.min(40, Math.max(2, Math.round(3 * Math.sqrt(scale))))

export const networkConfig = (network: NetworkName, scale: number): NetworkConfig => {
  const s = Number.isFinite(scale) && scale > 0 ? scale : 1
  const common = {
    pInterval: 30,
    xInterval: 20,
    rewardPercent: 8n,
    txFee: 1_000_000n,
    createAssetTxFee: 10_000_000n,
    l1FeePerSecond: 512n
  }
  if (network === "mainnet") {
    return {
      ...common,
      nodes: count(30, s, 4),
      wallets: count(6, s, 3),
      l1s: l1Count(s),
      spanSeconds: 400 * DAY,
      pHistoryBlocks: count(260, s, 40),
      xHistoryBlocks: count(200, s, 30),
      minValidatorDays: 14,
      maxValidatorDays: 90,
      minDelegatorDays: 14,
      minStake: 2_000n * AVAX,
      maxStake: 60_000n * AVAX,
      minDelegation: 25n * AVAX,
      maxDelegation: 4_000n * AVAX,
      maxDelegationsPerPeriod: 4,
      genesisSupply: 720_000_000n * AVAX - 280_000_000n * AVAX,
      mintPerSecond: 1_500_000_000n
    }
  }
  return {
    ...common,
    nodes: count(20, s, 4),
    wallets: count(4, s, 3),
    l1s: l1Count(s),
    spanSeconds: 200 * DAY,
    pHistoryBlocks: count(220, s, 40),
    xHistoryBlocks: count(160, s, 30),
    minValidatorDays: 1,
    maxValidatorDays: 21,
    minDelegatorDays: 1,
    minStake: 1n * AVAX,
    maxStake: 3_000n * AVAX,
    minDelegation: 1n * AVAX,
    maxDelegation: 300n * AVAX,
    maxDelegationsPerPeriod: 3,
    genesisSupply: 400_000_000n * AVAX,
    mintPerSecond: 900_000_000n
  }
}

export { DAY, AVAX }
