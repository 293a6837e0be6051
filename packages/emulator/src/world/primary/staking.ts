/**
 * Primary-network staking schedule, as arithmetic: each node validates in back-to-back periods
 * (issue → optional lead → duration → gap) that repeat forever, phased around the anchor so that
 * at any "now" some validations are completed, some active and a few pending. Delegations live
 * inside a validation. Everything is a pure function of (node, period, delegation index), and a
 * time window can be asked which events fall into it, so blocks are built without any index.
 */
import { DAY } from "./config.ts"
import type { NetCtx } from "./context.ts"
import { Kind, hex0x, nodeIdString } from "./ids.ts"
import type { BlsCredentials, Owners } from "./types.ts"

const YEAR = 365 * DAY

export interface NodeParams {
  readonly index: number
  /** NodeID-… (computed on first use: schedules are needed far more often than ids). */
  readonly nodeId: string
  readonly nodeIdBytes: Uint8Array
  /** Wallet that operates the node: funds its stake and receives its rewards. */
  readonly wallet: number
  readonly lead: number
  readonly duration: number
  readonly gap: number
  readonly period: number
  /** Issue time of period m is phase + m × period. */
  readonly phase: number
  readonly mMin: number
  readonly mMax: number
  readonly stake: bigint
  /** Delegation fee, millionths. */
  readonly shares: number
  readonly signer: BlsCredentials
  /** Stake split into this many outputs. */
  readonly stakeOutputs: number
}


export interface Validation {
  readonly node: NodeParams
  /** Period index from the node's first period (the locator's b). */
  readonly j: number
  readonly issue: number
  readonly start: number
  readonly end: number
  readonly stake: bigint
  readonly permissionless: boolean
  readonly reward: bigint
}

export interface Delegation {
  readonly validation: Validation
  readonly k: number
  readonly wallet: number
  readonly issue: number
  readonly start: number
  readonly end: number
  readonly amount: bigint
  readonly permissionless: boolean
  readonly grossReward: bigint
  readonly fee: bigint
  readonly netReward: bigint
}

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b)

/** Pseudo-random BLS material: right lengths and compression flag, not real curve points. */
export const blsCredentials = (ctx: NetCtx, ...keys: Array<string | number>): BlsCredentials => {
  const pk = ctx.bytes(48, "bls-pk", ...keys)
  const pop = ctx.bytes(96, "bls-pop", ...keys)
  pk[0] = 0x80 | ((pk[0] as number) & 0x1f)
  pop[0] = 0x80 | ((pop[0] as number) & 0x1f)
  return { publicKey: hex0x(pk), proofOfPossession: hex0x(pop) }
}

export class Staking {
  /** Nodes' schedules, drawn once each: every window of blocks and every staking view asks for them. */
  private readonly nodes: NodeParams[] = []

  constructor(private readonly ctx: NetCtx) {}

  get nodeCount(): number {
    return this.ctx.cfg.nodes
  }

  node(i: number): NodeParams {
    if (!(Number.isInteger(i) && i >= 0 && i < this.nodeCount)) return this.drawNode(i)
    return (this.nodes[i] ??= this.drawNode(i))
  }

  private drawNode(i: number): NodeParams {
    const { ctx } = this
    const c = ctx.cfg
    const duration = ctx.int(c.minValidatorDays * DAY, c.maxValidatorDays * DAY, "dur", i)
    const gap = ctx.int(600, Math.max(3600, Math.floor(duration / 20)), "gap", i)
    // every ninth node announces its validations days ahead: the source of pending validators
    const lead = i % 9 === 4 ? ctx.int(Math.floor(duration / 8), Math.floor(duration / 3), "lead", i) : ctx.int(0, 900, "lead", i)
    const period = lead + duration + gap
    // node 4 always has a validation announced but not started at the anchor: pending exists at any seed
    const phase = ctx.anchor - (i === 4 ? ctx.int(Math.floor(lead / 4), lead - 1, "phase", i) : ctx.int(0, period - 1, "phase", i))
    let mMin = ceilDiv(ctx.start - phase, period)
    let mMax = Number.MAX_SAFE_INTEGER
    // retired nodes stopped before the anchor; late joiners start after it (revealed by advancing)
    if (i % 8 === 5) mMax = Math.max(mMin, -1 - (i % 3))
    if (i % 10 === 7) mMin = Math.max(mMin, 1)
    const stakeUnits = ctx.big(c.minStake / 1_000_000n, c.maxStake / 1_000_000n, "stake", i)
    return new NodeRecord(ctx, {
      index: i,
      wallet: i % ctx.cfg.wallets,
      lead,
      duration,
      gap,
      period,
      phase,
      mMin,
      mMax,
      stake: stakeUnits * 1_000_000n,
      shares: ctx.int(20, 200, "shares", i) * 1000,
      stakeOutputs: i % 4 === 1 ? 2 : 1
    })
  }

  /** Node index of a NodeID's bytes, when it names one of this network's primary validators. */
  nodeIndexOf(nodeIdBytes: Uint8Array): number | undefined {
    const loc = this.ctx.locateShort(nodeIdBytes)
    return loc?.kind === Kind.Node && loc.a < this.nodeCount ? loc.a : undefined
  }

  /** Period j of node n (undefined outside the node's life). */
  validation(n: NodeParams, j: number): Validation | undefined {
    const m = n.mMin + j
    if (j < 0 || m > n.mMax) return undefined
    const issue = n.phase + m * n.period
    const start = issue + n.lead
    const end = start + n.duration
    const c = this.ctx.cfg
    return {
      node: n,
      j,
      issue,
      start,
      end,
      stake: n.stake,
      permissionless: issue >= this.ctx.durangoTime,
      reward: (n.stake * c.rewardPercent * BigInt(n.duration)) / (100n * BigInt(YEAR))
    }
  }

  /** Periods j of node n whose `at(j)` time lies in [from, to), given at(j) = base + j × period. */
  private periodsIn(n: NodeParams, offset: number, from: number, to: number): number[] {
    const base = n.phase + n.mMin * n.period + offset
    const first = Math.max(0, ceilDiv(from - base, n.period))
    const last = Math.min(n.mMax - n.mMin, ceilDiv(to - base, n.period) - 1)
    const out: number[] = []
    for (let j = first; j <= last; j++) out.push(j)
    return out
  }

  validationsIssuedIn(n: NodeParams, from: number, to: number): Validation[] {
    return this.periodsIn(n, 0, from, to).map((j) => this.validation(n, j) as Validation)
  }

  /** Validations of n overlapping [from, to) (including their lead). */
  validationsOverlapping(n: NodeParams, from: number, to: number): Validation[] {
    const base = n.phase + n.mMin * n.period
    const first = Math.max(0, Math.floor((from - base - n.lead - n.duration) / n.period))
    const last = Math.min(n.mMax - n.mMin, ceilDiv(to - base, n.period))
    const out: Validation[] = []
    for (let j = first; j <= last; j++) {
      const v = this.validation(n, j)
      if (v && v.issue < to && v.end >= from) out.push(v)
    }
    return out
  }

  /** The validation of n current at t, the last one issued before t, or undefined. */
  validationsUpTo(n: NodeParams, t: number): Validation[] {
    const base = n.phase + n.mMin * n.period
    const last = Math.min(n.mMax - n.mMin, Math.floor((t - base) / n.period))
    const out: Validation[] = []
    for (let j = 0; j <= last; j++) out.push(this.validation(n, j) as Validation)
    return out
  }

  /** Nodes announcing their validations days ahead attract a delegation before they start. */
  private announces(n: NodeParams): boolean {
    return n.lead > 86_400
  }

  delegationCount(v: Validation): number {
    return this.ctx.int(this.announces(v.node) ? 1 : 0, this.ctx.cfg.maxDelegationsPerPeriod, "delegations", v.node.index, v.j)
  }

  delegation(v: Validation, k: number): Delegation | undefined {
    const { ctx } = this
    const c = ctx.cfg
    if (k < 0 || k >= this.delegationCount(v)) return undefined
    const keys = [v.node.index, v.j, k] as const
    // the first delegation to an announcing node is issued while the validation is still pending
    const early = k === 0 && this.announces(v.node)
    const issue = early ? v.issue + ctx.int(60, 600, "d-issue", ...keys) : v.start + Math.floor(ctx.unit("d-issue", ...keys) * 0.7 * (v.end - v.start))
    const lead = early ? v.start - issue + ctx.int(0, 3600, "d-lead", ...keys) : k % 2 === 0 ? ctx.int(0, Math.min(2 * DAY, Math.floor((v.end - v.start) / 10)), "d-lead", ...keys) : 0
    const start = issue + lead
    const minDuration = c.minDelegatorDays * DAY
    if (v.end - start < minDuration) return undefined
    const end = start + minDuration + Math.floor(ctx.unit("d-dur", ...keys) * (v.end - start - minDuration))
    const amount = ctx.big(c.minDelegation / 1_000_000n, c.maxDelegation / 1_000_000n, "d-amount", ...keys) * 1_000_000n
    const grossReward = (amount * c.rewardPercent * BigInt(end - start)) / (100n * BigInt(YEAR))
    const fee = (grossReward * BigInt(v.node.shares)) / 1_000_000n
    return {
      validation: v,
      k,
      wallet: this.delegatorWallet(v.node.index, v.j, k),
      issue,
      start,
      end,
      amount,
      permissionless: issue >= ctx.durangoTime,
      grossReward,
      fee,
      netReward: grossReward - fee
    }
  }

  /** Chosen so that a wallet's delegations are found by arithmetic (see delegationsOfWallet). */
  private delegatorWallet(i: number, j: number, k: number): number {
    return (i + j + k + 1) % this.ctx.cfg.wallets
  }

  /** Delegations whose delegator is wallet w, issued before t (their block may be later). */
  delegationsOfWallet(w: number, t: number): Delegation[] {
    const wallets = this.ctx.cfg.wallets
    const out: Delegation[] = []
    for (let i = 0; i < this.nodeCount; i++) {
      const n = this.node(i)
      const last = Math.min(n.mMax - n.mMin, Math.floor((t - n.phase - n.mMin * n.period) / n.period))
      for (let k = 0; k < this.ctx.cfg.maxDelegationsPerPeriod + 1; k++) {
        const first = (((w - 1 - i - k) % wallets) + wallets) % wallets
        for (let j = first; j <= last; j += wallets) {
          const v = this.validation(n, j)
          const d = v && this.delegation(v, k)
          if (d && d.issue < t) out.push(d)
        }
      }
    }
    return out
  }

  delegations(v: Validation): Delegation[] {
    const out: Delegation[] = []
    const n = this.delegationCount(v)
    for (let k = 0; k < n; k++) {
      const d = this.delegation(v, k)
      if (d) out.push(d)
    }
    return out
  }

  /** Sum of delegation fees a validation earns (paid when it ends). */
  feeReward(v: Validation): bigint {
    return this.delegations(v).reduce((sum, d) => sum + d.fee, 0n)
  }

  /** Owners of a node's stake and rewards: its wallet's first address. */
  operatorOwner(n: NodeParams): Owners {
    return this.ctx.owner(this.ctx.address(n.wallet, 0))
  }

  delegatorOwner(d: Delegation): Owners {
    return this.ctx.owner(this.ctx.address(d.wallet, 0))
  }
}

type NodeSchedule = Omit<NodeParams, "nodeId" | "nodeIdBytes" | "signer">

/** Schedule fields eagerly; the node id and BLS keys (several hashes each) on first read. */
class NodeRecord implements NodeParams {
  readonly index: number
  readonly wallet: number
  readonly lead: number
  readonly duration: number
  readonly gap: number
  readonly period: number
  readonly phase: number
  readonly mMin: number
  readonly mMax: number
  readonly stake: bigint
  readonly shares: number
  readonly stakeOutputs: number
  private idBytes: Uint8Array | undefined
  private id: string | undefined
  private bls: BlsCredentials | undefined

  constructor(
    private readonly ctx: NetCtx,
    s: NodeSchedule
  ) {
    this.index = s.index
    this.wallet = s.wallet
    this.lead = s.lead
    this.duration = s.duration
    this.gap = s.gap
    this.period = s.period
    this.phase = s.phase
    this.mMin = s.mMin
    this.mMax = s.mMax
    this.stake = s.stake
    this.shares = s.shares
    this.stakeOutputs = s.stakeOutputs
  }

  get nodeIdBytes(): Uint8Array {
    return (this.idBytes ??= this.ctx.shortId(Kind.Node, this.index))
  }
  get nodeId(): string {
    return (this.id ??= nodeIdString(this.nodeIdBytes))
  }
  get signer(): BlsCredentials {
    return (this.bls ??= blsCredentials(this.ctx, "node", this.index))
  }
}
