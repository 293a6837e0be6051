/**
 * The staking schedule as seen at "now": which validations and delegations exist yet (their tx's
 * block is revealed) and their status. Routes 4, 7, 8 and platform.getCurrentValidators read it.
 */
import { AVAX } from "./config.ts"
import type { NetCtx } from "./context.ts"
import { nodeIdBytes } from "./ids.ts"
import type { Delegation, NodeParams, Staking, Validation } from "./staking.ts"
import type { StakingTxs } from "./stakingTxs.ts"
import type { PTxType, TxRecord } from "./types.ts"

/** Tx types route 4 lists: primary-network staking, and the txs behind active L1 validators. */
export type StakingTxType = Extract<
  PTxType,
  | "AddValidatorTx"
  | "AddPermissionlessValidatorTx"
  | "AddDelegatorTx"
  | "AddPermissionlessDelegatorTx"
  | "ConvertSubnetToL1Tx"
  | "RegisterL1ValidatorTx"
  | "SetL1ValidatorWeightTx"
  | "IncreaseL1ValidatorBalanceTx"
>

export type StakeStatus = "pending" | "active" | "completed"

/** A running staking tx, before its full record is built. */
export interface StakingEntry {
  readonly txId: string
  readonly txType: StakingTxType
  readonly blockTimestamp: number
  /** What route 4's addresses filter matches (20-byte ids): the tx's UTXO owners and reward addresses. */
  addresses(): ReadonlyArray<Uint8Array>
  tx(): TxRecord
}

export interface ValidationView {
  readonly validation: Validation
  readonly txId: string
  readonly rewardTxId: string
  readonly status: StakeStatus
  /** Timestamp of the block holding the staking tx. */
  readonly blockTimestamp: number
}

export interface DelegationView {
  readonly delegation: Delegation
  readonly txId: string
  readonly rewardTxId: string
  readonly status: StakeStatus
  readonly blockTimestamp: number
}

/** Primary-network ceiling on a validator's total weight (own stake plus delegations). */
const MAX_VALIDATOR_WEIGHT = 3_000_000n * AVAX

export const statusAt = (start: number, end: number, now: number): StakeStatus => (now < start ? "pending" : now >= end ? "completed" : "active")

export class StakingView {
  constructor(
    private readonly ctx: NetCtx,
    private readonly staking: Staking,
    private readonly txs: StakingTxs,
    private readonly now: () => number
  ) {}

  private blockTime(t: number): number {
    // blockAt("P", t).timestamp, without the block's height or ref
    return this.ctx.pLayout.mainTimeAt(t)
  }

  /** The primary-network node a NodeID names; undefined for malformed or foreign ids. */
  node(nodeId: string): NodeParams | undefined {
    const b = nodeIdBytes(nodeId)
    const i = b && b.length === 20 ? this.staking.nodeIndexOf(b) : undefined
    return i === undefined ? undefined : this.staking.node(i)
  }

  nodes(): NodeParams[] {
    return Array.from({ length: this.staking.nodeCount }, (_, i) => this.staking.node(i))
  }

  private viewOf(v: Validation, now: number): ValidationView {
    return {
      validation: v,
      txId: this.txs.validationTxId(v),
      rewardTxId: this.txs.validationRewardTxId(v),
      status: statusAt(v.start, v.end, now),
      blockTimestamp: this.blockTime(v.issue)
    }
  }

  private delegationViewOf(d: Delegation, now: number): DelegationView {
    return {
      delegation: d,
      txId: this.txs.delegationTxId(d),
      rewardTxId: this.txs.delegationRewardTxId(d),
      status: statusAt(d.start, d.end, now),
      blockTimestamp: this.blockTime(d.issue)
    }
  }

  /** The node's validations revealed by now, oldest first. */
  validationsOf(n: NodeParams): ValidationView[] {
    const now = this.now()
    // a tx may sit in a block older than its own time: look a block interval past now, then filter
    return this.staking
      .validationsUpTo(n, now + 7 * 86_400)
      .filter((v) => this.blockTime(v.issue) <= now)
      .map((v) => this.viewOf(v, now))
  }

  /** Delegations to a validation revealed by now. */
  delegationsOf(v: Validation): DelegationView[] {
    const now = this.now()
    return this.staking
      .delegations(v)
      .filter((d) => this.blockTime(d.issue) <= now)
      .map((d) => this.delegationViewOf(d, now))
  }

  /** Every delegation revealed by now, across all nodes (or the given ones). */
  allDelegations(nodes?: ReadonlyArray<NodeParams>): DelegationView[] {
    const out: DelegationView[] = []
    for (const n of nodes ?? this.nodes()) for (const v of this.validationsOf(n)) out.push(...this.delegationsOf(v.validation))
    return out
  }

  /** Delegations revealed by now whose start lies in [from, to), over all nodes or the given ones. */
  delegationsStartedIn(from: number, to: number, nodes?: ReadonlyArray<NodeParams>): DelegationView[] {
    const now = this.now()
    const out: DelegationView[] = []
    for (const n of nodes ?? this.nodes()) {
      for (const v of this.staking.validationsOverlapping(n, from, to)) {
        for (const d of this.staking.delegations(v)) {
          if (d.start >= from && d.start < to && this.blockTime(d.issue) <= now) out.push(this.delegationViewOf(d, now))
        }
      }
    }
    return out
  }

  /** Delegations to wallet w's reward address revealed by now (found by arithmetic, not by scanning). */
  delegationsOfWallet(w: number): DelegationView[] {
    const now = this.now()
    return this.staking
      .delegationsOfWallet(w, now + 7 * 86_400)
      .filter((d) => this.blockTime(d.issue) <= now)
      .map((d) => this.delegationViewOf(d, now))
  }

  /**
   * Latest start a revealed delegation can have: it waits at most for its validator's lead (a
   * third of the longest validation) or two days, and its block may precede its issue by a week.
   */
  get latestPossibleStart(): number {
    return this.now() + Math.ceil((this.ctx.cfg.maxValidatorDays * 86_400) / 3) + 9 * 86_400
  }

  get earliestPossibleStart(): number {
    return this.ctx.start
  }

  /** Delegations of a validation that are not over (count towards its current weight). */
  openDelegations(v: Validation): DelegationView[] {
    return this.delegationsOf(v).filter((d) => d.status !== "completed")
  }

  /** Validations running at now (start ≤ now < end), one at most per node. */
  currentValidations(): ValidationView[] {
    const now = this.now()
    return this.runningAt(now).map((v) => this.viewOf(v, now))
  }

  private runningAt(now: number): Validation[] {
    const out: Validation[] = []
    for (const n of this.nodes()) {
      for (const v of this.staking.validationsOverlapping(n, now, now + 1)) {
        if (v.start <= now && now < v.end) out.push(v)
      }
    }
    return out
  }

  /** Sum of the stake of running validations: the denominator of stakePercentage. */
  totalActiveStake(): bigint {
    return this.currentValidations().reduce((sum, v) => sum + v.validation.stake, 0n)
  }

  /** How much more may be delegated to a validation. */
  delegationCapacity(v: Validation): bigint {
    const delegated = this.openDelegations(v).reduce((sum, d) => sum + d.delegation.amount, 0n)
    const ceiling = v.stake * 5n < MAX_VALIDATOR_WEIGHT ? v.stake * 5n : MAX_VALIDATOR_WEIGHT
    const room = ceiling - v.stake - delegated
    return room > 0n ? room : 0n
  }

  /**
   * Route 4's primary-network part: staking txs whose staking period runs at now, light enough to
   * filter and sort all of them; `tx()` builds the full record for the page's few.
   */
  activeStakingEntries(): StakingEntry[] {
    // the running validations and their delegations without their views: those name each staker's
    // reward tx too, a locator id (three sha256 and a base58) route 4 never reads
    const now = this.now()
    const out: StakingEntry[] = []
    for (const val of this.runningAt(now)) {
      out.push({
        txId: this.txs.validationTxId(val),
        txType: val.permissionless ? "AddPermissionlessValidatorTx" : "AddValidatorTx",
        blockTimestamp: this.blockTime(val.issue),
        // every address a staking tx touches (reward owner, change, stake, funding) is its wallet's first
        addresses: () => [this.ctx.address(val.node.wallet, 0)],
        tx: () => this.txs.validationTx(val)
      })
      // a delegation ends by its validation's end, so every running one hangs off a running validation
      for (const d of this.staking.delegations(val)) {
        const blockTimestamp = this.blockTime(d.issue)
        if (blockTimestamp > now || statusAt(d.start, d.end, now) !== "active") continue
        out.push({
          txId: this.txs.delegationTxId(d),
          txType: d.permissionless ? "AddPermissionlessDelegatorTx" : "AddDelegatorTx",
          blockTimestamp,
          addresses: () => [this.ctx.address(d.wallet, 0)],
          tx: () => this.txs.delegationTx(d)
        })
      }
    }
    return out
  }

  /** Uptime in percent, stable per node. */
  uptime(n: NodeParams): number {
    return Math.round((95 + this.ctx.unit("uptime", n.index) * 5) * 100) / 100
  }
}
