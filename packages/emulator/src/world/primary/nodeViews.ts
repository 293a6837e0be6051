/**
 * Answers shaped like the node's platform.* and avm.* results, so each JSON-RPC method is a
 * one-liner over the world. Quantities are decimal strings (seed: Conventions).
 */
import { PRIMARY_SUBNET_ID } from "../constants.ts"
import type { NetCtx } from "./context.ts"
import { SUBNET_EVM_VM_ID } from "./l1.ts"
import type { L1View } from "./l1View.ts"
import type { StakingView } from "./stakingView.ts"
import type { Owners, UtxoRecord } from "./types.ts"

const AVM_VM_ID = "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq"
const CORETH_VM_ID = "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6"

export interface OwnerJson {
  readonly locktime: string
  readonly threshold: string
  readonly addresses: ReadonlyArray<string>
}

export interface DelegatorRecord {
  readonly txID: string
  readonly startTime: string
  readonly endTime: string
  readonly weight: string
  readonly nodeID: string
  readonly rewardOwner: OwnerJson
  readonly potentialReward: string
}

/** platform.getCurrentValidators entry of the primary network. */
export interface PrimaryValidatorRecord {
  readonly txID: string
  readonly startTime: string
  readonly endTime: string
  readonly weight: string
  readonly nodeID: string
  readonly potentialReward: string
  readonly accruedDelegateeReward: string
  readonly delegationFee: string
  readonly uptime: string
  readonly connected: boolean
  readonly signer?: { readonly publicKey: string; readonly proofOfPosession: string }
  readonly validationRewardOwner: OwnerJson
  readonly delegationRewardOwner: OwnerJson
  readonly delegatorCount: string
  readonly delegatorWeight: string
  readonly delegators: ReadonlyArray<DelegatorRecord>
}

/** platform.getCurrentValidators entry of an L1 (endTime omitted, as for an L1). */
export interface L1ValidatorRecord {
  readonly validationID: string
  readonly nodeID: string
  readonly publicKey: string
  readonly remainingBalanceOwner: OwnerJson
  readonly deactivationOwner: OwnerJson
  readonly startTime: string
  readonly weight: string
  readonly minNonce: string
  readonly balance: string
}

export interface BlockchainRecord {
  readonly id: string
  readonly name: string
  readonly subnetID: string
  readonly vmID: string
}

export type BlockchainStatus = "Validating" | "Created" | "Preferred" | "Syncing" | "Unknown"

/** Per-asset balances of an address set (platform.getBalance / avm.getAllBalances). */
export interface Balances {
  readonly balances: Readonly<Record<string, bigint>>
  readonly unlocked: Readonly<Record<string, bigint>>
  readonly lockedStakeable: Readonly<Record<string, bigint>>
  readonly lockedNotStakeable: Readonly<Record<string, bigint>>
  readonly utxoIDs: ReadonlyArray<{ readonly txID: string; readonly outputIndex: number }>
}

/** Delegation fee as the node prints it: percent with up to four decimals ("2.0000" style). */
export const feePercent = (shares: number): string => (shares / 10_000).toFixed(4)

export class NodeViews {
  constructor(
    private readonly ctx: NetCtx,
    private readonly staking: StakingView,
    private readonly l1: L1View,
    private readonly now: () => number
  ) {}

  private ownerJson(o: Owners): OwnerJson {
    return { locktime: o.locktime.toString(), threshold: String(o.threshold), addresses: o.addresses.map((a) => this.ctx.chainAddressOf("P", a)) }
  }

  /**
   * platform.getCurrentValidators: the primary network's running validators with their running
   * delegators, or an L1's active validators; nodeIDs narrows the list (unknown ids left out).
   * Undefined when the subnet does not exist.
   */
  currentValidators(subnetId?: string, nodeIds?: ReadonlyArray<string>): ReadonlyArray<PrimaryValidatorRecord | L1ValidatorRecord> | undefined {
    const wanted = nodeIds && nodeIds.length > 0 ? new Set(nodeIds) : undefined
    if (subnetId === undefined || subnetId === PRIMARY_SUBNET_ID) {
      return this.staking
        .currentValidations()
        .filter((v) => !wanted || wanted.has(v.validation.node.nodeId))
        .map((v) => {
          const val = v.validation
          const n = val.node
          const delegators = this.staking.delegationsOf(val).filter((d) => d.status === "active")
          const owner = this.ownerJson(this.ctx.owner(this.ctx.address(n.wallet, 0)))
          const accrued = delegators.reduce((sum, d) => sum + d.delegation.fee, 0n)
          return {
            txID: v.txId,
            startTime: String(val.start),
            endTime: String(val.end),
            weight: val.stake.toString(),
            nodeID: n.nodeId,
            potentialReward: val.reward.toString(),
            accruedDelegateeReward: accrued.toString(),
            delegationFee: feePercent(n.shares),
            uptime: this.staking.uptime(n).toFixed(4),
            connected: this.ctx.unit("connected", n.index) < 0.97,
            ...(val.permissionless ? { signer: { publicKey: n.signer.publicKey, proofOfPosession: n.signer.proofOfPossession } } : {}),
            validationRewardOwner: owner,
            delegationRewardOwner: owner,
            delegatorCount: String(delegators.length),
            delegatorWeight: delegators.reduce((sum, d) => sum + d.delegation.amount, 0n).toString(),
            delegators: delegators.map((d) => ({
              txID: d.txId,
              startTime: String(d.delegation.start),
              endTime: String(d.delegation.end),
              weight: d.delegation.amount.toString(),
              nodeID: n.nodeId,
              rewardOwner: this.ownerJson(this.ctx.owner(this.ctx.address(d.delegation.wallet, 0))),
              potentialReward: d.delegation.netReward.toString()
            }))
          }
        })
    }
    const p = this.l1.l1s.bySubnetId(subnetId)
    if (!p || !this.l1.subnets().some((s) => s.index === p.index)) return undefined
    return this.l1
      .validatorsOf(p)
      .filter((v) => v.state.active && (!wanted || wanted.has(v.validator.nodeId)))
      .map((v) => ({
        validationID: v.validator.validationId,
        nodeID: v.validator.nodeId,
        publicKey: v.validator.signer.publicKey,
        remainingBalanceOwner: this.ownerJson(v.validator.remainingBalanceOwner),
        deactivationOwner: this.ownerJson(v.validator.deactivationOwner),
        startTime: String(v.creationTimestamp),
        weight: v.state.weight.toString(),
        minNonce: String(v.state.nonce + (v.state.nonce > 0n ? 1n : 0n)),
        balance: v.state.balance.toString()
      }))
  }

  /** platform.getBlockchains: every blockchain except the P-chain. */
  blockchains(): BlockchainRecord[] {
    const ids = this.ctx.chainIds
    return [
      { id: ids.X, name: "X-Chain", subnetID: PRIMARY_SUBNET_ID, vmID: AVM_VM_ID },
      { id: ids.C, name: "C-Chain", subnetID: PRIMARY_SUBNET_ID, vmID: CORETH_VM_ID },
      ...this.l1.chains().map((p) => ({ id: p.chainId, name: p.chainName, subnetID: p.subnetId, vmID: SUBNET_EVM_VM_ID }))
    ]
  }

  /** platform.getBlockchainStatus: this node validates the primary network only. */
  blockchainStatus(blockchainId: string): BlockchainStatus {
    const ids = this.ctx.chainIds
    if (blockchainId === ids.P || blockchainId === ids.X || blockchainId === ids.C) return "Validating"
    const p = this.l1.l1s.byChainId(blockchainId)
    if (!p) return "Unknown"
    return this.l1.chains().some((c) => c.index === p.index) ? "Created" : "Unknown"
  }

  /** Supply cap of a subnet's staking token; the primary network's grows with minting. */
  currentSupply(subnetId: string | undefined, primarySupply: bigint): bigint | undefined {
    if (subnetId === undefined || subnetId === PRIMARY_SUBNET_ID) return primarySupply
    const p = this.l1.l1s.bySubnetId(subnetId)
    if (!p || !this.l1.subnets().some((s) => s.index === p.index)) return undefined
    return this.ctx.big(100_000_000n, 10_000_000_000n, "l1-supply", p.index) * 1_000_000_000n
  }

  /** Balances of unspent, listed UTXOs; locked categories as platform.getBalance defines them. */
  balances(utxos: ReadonlyArray<UtxoRecord>): Balances {
    const now = BigInt(this.now())
    const balances: Record<string, bigint> = {}
    const unlocked: Record<string, bigint> = {}
    const lockedStakeable: Record<string, bigint> = {}
    const lockedNotStakeable: Record<string, bigint> = {}
    const add = (m: Record<string, bigint>, k: string, v: bigint): void => {
      m[k] = (m[k] ?? 0n) + v
    }
    for (const u of utxos) {
      add(balances, u.assetId, u.amount)
      if (u.owners.locktime > now) add(lockedNotStakeable, u.assetId, u.amount)
      else if (u.stakeableLocktime > now) add(lockedStakeable, u.assetId, u.amount)
      else add(unlocked, u.assetId, u.amount)
    }
    return { balances, unlocked, lockedStakeable, lockedNotStakeable, utxoIDs: utxos.map((u) => ({ txID: u.txId, outputIndex: u.outputIndex })) }
  }
}
