/**
 * The P-chain txs of the staking schedule: a validator or delegator tx per validation and
 * delegation, and a RewardValidatorTx when each ends. UTXO flow follows the node: stake outputs
 * are listed by the node only after the reward tx returns them (same tx id, indices after the
 * outputs, as avalanchego keys them); rewards follow at the next indices; a node's next
 * validation re-stakes the stake returned by the previous one. What is not modelled (the
 * operators' other funds) enters as one genesis-allocation input per tx.
 */
import { PRIMARY_SUBNET_ID } from "../constants.ts"
import type { NetCtx } from "./context.ts"
import { Kind } from "./ids.ts"
import type { Delegation, NodeParams, Staking, Validation } from "./staking.ts"
import { StakerAdds, type SelfWritten } from "./stakerAdds.ts"
import { VALIDATION, type RewardRef } from "./rewardIndex.ts"
import { INDEX_HORIZON, TimeIndexBuilder, type TimeIndex } from "./timeIndex.ts"
import type { BlockRef, Owners, TxRecord, UtxoRecord } from "./types.ts"

/** What an indexed staking event is (its third coordinate is kind × 16 + the delegation's k). */
const V_ISSUE = 0
const D_ISSUE = 2

export class StakingTxs {
  /** The schedule's events by time, built on first use (undefined: not built; null: not buildable). */
  private index: TimeIndex | null | undefined
  private readonly adds: StakerAdds

  constructor(
    private readonly ctx: NetCtx,
    readonly staking: Staking
  ) {
    this.adds = new StakerAdds(ctx, staking, this)
  }

  validationTxId(v: Validation): string {
    return this.ctx.id(Kind.Validation, v.node.index, v.j)
  }
  validationRewardTxId(v: Validation): string {
    return this.ctx.id(Kind.ValidationReward, v.node.index, v.j)
  }
  delegationTxId(d: Delegation): string {
    return this.ctx.id(Kind.Delegation, d.validation.node.index, d.validation.j, d.k)
  }
  delegationRewardTxId(d: Delegation): string {
    return this.ctx.id(Kind.DelegationReward, d.validation.node.index, d.validation.j, d.k)
  }

  /** The staker add a reward of the schedule closes (rewardIndex.ts), by its ref: the same ids as validationTxId and delegationTxId. */
  rewardedTxIdOf(ref: RewardRef): string {
    return ref.k === VALIDATION ? this.ctx.id(Kind.Validation, ref.i, ref.j) : this.ctx.id(Kind.Delegation, ref.i, ref.j, ref.k)
  }
  /** The RewardValidatorTx of a reward of the schedule, by its ref: the same ids as validationRewardTxId and delegationRewardTxId. */
  rewardTxIdOf(ref: RewardRef): string {
    return ref.k === VALIDATION ? this.ctx.id(Kind.ValidationReward, ref.i, ref.j) : this.ctx.id(Kind.DelegationReward, ref.i, ref.j, ref.k)
  }

  change(kind: "v" | "d", i: number, j: number, k: number): bigint {
    return this.ctx.big(100_000_000n, 50_000_000_000n, "stake-change", kind, i, j, k)
  }

  private genesisFunding(i: number, j: number, c: number, amount: bigint, owner: Owners, spentBy: string, spentIn: BlockRef): UtxoRecord {
    const genesis = this.ctx.blockRef("P", 0)
    return {
      txId: this.ctx.id(Kind.GenesisAllocation, i, j, c),
      outputIndex: 0,
      assetId: this.ctx.avaxAssetId,
      amount,
      owners: owner,
      stakeableLocktime: 0n,
      createdOn: "P",
      consumedOn: "P",
      created: genesis,
      listed: genesis,
      spent: { txId: spentBy, block: spentIn },
      kind: "transfer"
    }
  }

  private plain(txId: string, index: number, amount: bigint, owner: Owners, at: number | BlockRef): UtxoRecord {
    const block = typeof at === "number" ? this.ctx.blockAt("P", at) : at
    return {
      txId,
      outputIndex: index,
      assetId: this.ctx.avaxAssetId,
      amount,
      owners: owner,
      stakeableLocktime: 0n,
      createdOn: "P",
      consumedOn: "P",
      created: block,
      listed: block,
      spent: undefined,
      kind: "transfer"
    }
  }

  /** Stake outputs of a validation: returned at its end, re-staked by the node's next period. */
  private validationStake(v: Validation): UtxoRecord[] {
    const n = v.node
    const txId = this.validationTxId(v)
    const next = this.staking.validation(n, v.j + 1)
    const parts = n.stakeOutputs
    const share = v.stake / BigInt(parts)
    // the parts' blocks are the same ones: found once
    const created = this.ctx.blockAt("P", v.issue)
    // returned by the reward tx, in its proposal block
    const listed = this.validationRewardBlock(v)
    const spentBy = next && this.validationTxId(next)
    const spentIn = next && this.ctx.blockAt("P", next.issue)
    return Array.from({ length: parts }, (_, k) => ({
      txId,
      outputIndex: 1 + k,
      assetId: this.ctx.avaxAssetId,
      amount: k === parts - 1 ? v.stake - share * BigInt(parts - 1) : share,
      owners: this.staking.operatorOwner(n),
      stakeableLocktime: 0n,
      createdOn: "P",
      consumedOn: "P",
      created,
      listed,
      spent: next && { txId: spentBy as string, block: spentIn as BlockRef },
      kind: "stake",
      staking: { start: v.start, end: v.end }
    }))
  }

  private validationRewards(v: Validation): UtxoRecord[] {
    const txId = this.validationTxId(v)
    const owner = this.staking.operatorOwner(v.node)
    const base = 1 + v.node.stakeOutputs
    const paid = this.validationRewardBlock(v)
    const rewards: UtxoRecord[] = [{ ...this.plain(txId, base, v.reward, owner, paid), kind: "reward", rewardType: "VALIDATOR" }]
    const fees = this.staking.feeReward(v)
    if (fees > 0n) rewards.push({ ...this.plain(txId, base + 1, fees, owner, paid), kind: "reward", rewardType: "VALIDATOR_FEE" })
    return rewards
  }

  validationTx(v: Validation): TxRecord {
    const { ctx } = this
    const n: NodeParams = v.node
    const id = this.validationTxId(v)
    const owner = this.staking.operatorOwner(n)
    const fee = ctx.cfg.txFee
    const change = this.change("v", n.index, v.j, 0)
    const prev = this.staking.validation(n, v.j - 1)
    const restaked = prev ? this.validationStake(prev) : []
    const block = ctx.blockAt("P", v.issue)
    const funding = this.genesisFunding(n.index, v.j, 0, fee + change + (prev ? 0n : v.stake), owner, id, block)
    const txs = this
    let rewardTxId: string | undefined
    let rewards: UtxoRecord[] | undefined
    return {
      id,
      chain: "P",
      type: v.permissionless ? "AddPermissionlessValidatorTx" : "AddValidatorTx",
      block,
      issueTime: v.issue,
      inputs: [...restaked, funding],
      outputs: [this.plain(id, 0, change, owner, block)],
      stake: this.validationStake(v),
      // made when read, as rewardTxId: the bytes name no reward output, and each names the reward's block
      get rewards(): UtxoRecord[] {
        return (rewards ??= txs.validationRewards(v))
      },
      staking: {
        role: "validator",
        nodeId: n.nodeId,
        subnetId: PRIMARY_SUBNET_ID,
        start: v.start,
        end: v.end,
        weight: v.stake,
        shares: n.shares,
        rewardOwner: owner,
        delegationRewardOwner: owner,
        ...(v.permissionless ? { signer: n.signer } : {}),
        estimatedReward: v.reward
      },
      // named when read: hashing the chain never reads it, and an id costs three sha256 and a base58
      get rewardTxId(): string {
        return (rewardTxId ??= txs.validationRewardTxId(v))
      },
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  delegationTx(d: Delegation): TxRecord {
    const { ctx } = this
    const v = d.validation
    const id = this.delegationTxId(d)
    const owner = this.staking.delegatorOwner(d)
    const fee = ctx.cfg.txFee
    const change = this.change("d", v.node.index, v.j, d.k)
    // the tx's block and its reward's, each found once for the outputs that name them
    const block = ctx.blockAt("P", d.issue)
    const paid = this.delegationRewardBlock(d)
    const stake: UtxoRecord = {
      ...this.plain(id, 1, d.amount, owner, block),
      listed: paid,
      kind: "stake",
      staking: { start: d.start, end: d.end }
    }
    const txs = this
    let rewardTxId: string | undefined
    let rewards: UtxoRecord[] | undefined
    return {
      id,
      chain: "P",
      type: d.permissionless ? "AddPermissionlessDelegatorTx" : "AddDelegatorTx",
      block,
      issueTime: d.issue,
      inputs: [this.genesisFunding(v.node.index, v.j, 1 + d.k, fee + change + d.amount, owner, id, block)],
      outputs: [this.plain(id, 0, change, owner, block)],
      stake: [stake],
      // made when read (validationTx says why)
      get rewards(): UtxoRecord[] {
        return (rewards ??= [{ ...txs.plain(id, 2, d.netReward, owner, paid), kind: "reward", rewardType: "DELEGATOR" }])
      },
      staking: {
        role: "delegator",
        nodeId: v.node.nodeId,
        subnetId: PRIMARY_SUBNET_ID,
        start: d.start,
        end: d.end,
        weight: d.amount,
        rewardOwner: owner,
        estimatedReward: d.netReward
      },
      get rewardTxId(): string {
        return (rewardTxId ??= txs.delegationRewardTxId(d))
      },
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  private validationRewardBlock(v: Validation): BlockRef {
    return this.ctx.rewardBlock(v.end, { i: v.node.index, j: v.j, k: VALIDATION })
  }

  private delegationRewardBlock(d: Delegation): BlockRef {
    return this.ctx.rewardBlock(d.end, { i: d.validation.node.index, j: d.validation.j, k: d.k })
  }

  /** The staker of a reward of the schedule (rewardIndex.ts), by its ref. */
  rewardTxOf(ref: RewardRef): TxRecord {
    const v = this.staking.validation(this.staking.node(ref.i), ref.j)
    const d = v && ref.k !== VALIDATION ? this.staking.delegation(v, ref.k) : undefined
    if (v === undefined || (ref.k !== VALIDATION && d === undefined)) throw new Error(`no staker of node ${ref.i} period ${ref.j} k ${ref.k}`)
    return d === undefined ? this.validationRewardTx(v) : this.delegationRewardTx(d)
  }

  /** The schedule's stakers ending before `horizon`, for the RewardIndex: (end, node, period, delegation or VALIDATION). */
  *rewardEvents(horizon: number): Generator<readonly [number, number, number, number]> {
    for (let i = 0; i < this.staking.nodeCount; i++) {
      const n = this.staking.node(i)
      for (let j = 0; ; j++) {
        const v = this.staking.validation(n, j)
        if (v === undefined || v.issue >= horizon) break
        yield [v.end, i, j, VALIDATION]
        for (const d of this.staking.delegations(v)) yield [d.end, i, j, d.k]
      }
    }
  }

  private rewardTx(id: string, rewardedTxId: string, block: BlockRef): TxRecord {
    const at = block.timestamp
    return {
      id,
      chain: "P",
      type: "RewardValidatorTx",
      block,
      issueTime: at,
      inputs: [],
      outputs: [],
      rewardedTxId,
      memo: new Uint8Array(0),
      burned: 0n
    }
  }

  validationRewardTx(v: Validation): TxRecord {
    return this.rewardTx(this.validationRewardTxId(v), this.validationTxId(v), this.validationRewardBlock(v))
  }

  delegationRewardTx(d: Delegation): TxRecord {
    return this.rewardTx(this.delegationRewardTxId(d), this.delegationTxId(d), this.delegationRewardBlock(d))
  }

  /**
   * Every staker add (validator and delegator tx) timed in [from, to): the schedule's txs of the
   * slots' blocks. The RewardValidatorTx ending a staker is not among them: each is in a proposal
   * block of its own (rewardTxOf), and building them here only for the blocks to drop them was
   * work wasted on every slot of the chain. From the time index (one pass over the schedule, once), or, past its
   * horizon, by asking every node.
   */
  txsIn(from: number, to: number): TxRecord[] {
    const index = this.timeIndex()
    if (index === undefined || !index.covers(to)) return this.scanTxsIn(from, to)
    const out: TxRecord[] = []
    index.forEachIn(from, to, (i, j, code) => {
      const v = this.staking.validation(this.staking.node(i), j) as Validation
      if (code >> 4 === V_ISSUE) out.push(this.validationTx(v))
      else out.push(this.delegationTx(this.staking.delegation(v, code & 15) as Delegation))
    })
    return out
  }

  /**
   * The txs of txsIn as the hashing pass takes them: written from the schedule (stakerAdds.ts),
   * no record built; past the time index's horizon, the records.
   */
  hashTxsIn(from: number, to: number): Array<TxRecord | SelfWritten> {
    const index = this.timeIndex()
    if (index === undefined || !index.covers(to)) return this.scanTxsIn(from, to)
    const out: SelfWritten[] = []
    index.forEachIn(from, to, (i, j, code) => {
      const v = this.staking.validation(this.staking.node(i), j) as Validation
      out.push(code >> 4 === V_ISSUE ? this.adds.validation(v) : this.adds.delegation(this.staking.delegation(v, code & 15) as Delegation))
    })
    return out
  }

  /**
   * Every validation's and every delegation's issue before the horizon. A delegation is issued
   * within its validation's [issue, end], so a window holds exactly the events the scan finds
   * (validations issued in it, delegations of validations overlapping it issued in it).
   */
  private timeIndex(): TimeIndex | undefined {
    if (this.index === undefined) {
      const builder = new TimeIndexBuilder(this.ctx.anchor + INDEX_HORIZON)
      for (let i = 0; i < this.staking.nodeCount; i++) {
        const n = this.staking.node(i)
        for (let j = 0; ; j++) {
          const v = this.staking.validation(n, j)
          if (v === undefined || v.issue >= builder.horizon) break
          builder.add(v.issue, i, j, V_ISSUE << 4)
          for (const d of this.staking.delegations(v)) {
            builder.add(d.issue, i, j, (D_ISSUE << 4) | d.k)
          }
        }
      }
      this.index = builder.build() ?? null
    }
    return this.index ?? undefined
  }

  /** The same txs by asking every node (windows past the index's horizon). */
  private scanTxsIn(from: number, to: number): TxRecord[] {
    const out: TxRecord[] = []
    for (let i = 0; i < this.staking.nodeCount; i++) {
      const n = this.staking.node(i)
      for (const v of this.staking.validationsIssuedIn(n, from, to)) out.push(this.validationTx(v))
      for (const v of this.staking.validationsOverlapping(n, from, to)) {
        for (const d of this.staking.delegations(v)) {
          if (d.issue >= from && d.issue < to) out.push(this.delegationTx(d))
        }
      }
    }
    return out
  }

  /** A staking-schedule tx by locator, whether or not revealed yet. */
  txByLocator(kind: Kind, i: number, j: number, k: number): TxRecord | undefined {
    if (i >= this.staking.nodeCount) return undefined
    const v = this.staking.validation(this.staking.node(i), j)
    if (!v) return undefined
    if (kind === Kind.Validation) return this.validationTx(v)
    if (kind === Kind.ValidationReward) return this.validationRewardTx(v)
    const d = this.staking.delegation(v, k)
    if (!d) return undefined
    return kind === Kind.Delegation ? this.delegationTx(d) : kind === Kind.DelegationReward ? this.delegationRewardTx(d) : undefined
  }

  /**
   * P-chain outputs owned by wallet w from staking (changes, stakes, rewards, re-staked funds),
   * created by txs issued before t + slack; the caller filters by revealed blocks.
   */
  walletUtxos(w: number, t: number): UtxoRecord[] {
    const out: UtxoRecord[] = []
    const all = (tx: TxRecord): UtxoRecord[] => [...tx.inputs.filter((u) => u.kind === "transfer" && u.created.height === 0n), ...tx.outputs, ...(tx.stake ?? []), ...(tx.rewards ?? [])]
    for (let i = w; i < this.staking.nodeCount; i += this.ctx.cfg.wallets) {
      for (const v of this.staking.validationsUpTo(this.staking.node(i), t)) out.push(...all(this.validationTx(v)))
    }
    for (const d of this.staking.delegationsOfWallet(w, t)) out.push(...all(this.delegationTx(d)))
    return out
  }
}
