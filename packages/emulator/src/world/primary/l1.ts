/**
 * Subnets converted to L1s, and their validators. Each L1 is created (CreateSubnetTx), gets an
 * EVM chain (CreateChainTx), is converted (ConvertSubnetToL1Tx) with a few initial validators,
 * then registers one more validator at a steady pace forever. Validators pay a continuous fee
 * from their balance; some are topped up (IncreaseL1ValidatorBalanceTx), some get a new weight
 * (SetL1ValidatorWeightTx, 0 = removed), some are disabled (DisableL1ValidatorTx).
 */
import { DAY } from "./config.ts"
import { Lru } from "./lru.ts"
import type { NetCtx } from "./context.ts"
import { Kind, hex0x, nodeIdString } from "./ids.ts"
import { blsCredentials } from "./staking.ts"
import type { BlsCredentials, L1ValidatorSeed, Owners } from "./types.ts"

/** Codes of L1 tx locators (c coordinate); increase-balance q uses TOP_UP + q. */
export const L1Event = { CreateSubnet: 0, CreateChain: 1, Convert: 2, Register: 3, SetWeight: 4, Disable: 5, TopUp: 10 } as const
const MAX_TOP_UPS = 240

export const SUBNET_EVM_VM_ID = "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy"

export interface L1Params {
  readonly index: number
  readonly ownerWallet: number
  readonly createSubnetAt: number
  readonly createChainAt: number
  readonly convertAt: number
  readonly subnetId: string
  readonly chainId: string
  readonly conversionTxId: string
  readonly chainName: string
  readonly evmChainId: number
  readonly managerAddress: string
  readonly initialValidators: number
  readonly registerEvery: number
}

/**
 * An L1 chain another part of the world already serves (the EVM world's L1 of this network):
 * L1 #0 takes its ids, name and chain id, so the P-chain creates the chain the EVM routes serve.
 */
export interface AdoptedL1 {
  readonly subnetId: string
  readonly blockchainId: string
  readonly chainName: string
  readonly evmChainId: string
  readonly genesisTime: number
}

export interface L1Validator extends L1ValidatorSeed {
  readonly l1: L1Params
  readonly v: number
  readonly validationIdHex: string
  readonly createdAt: number
  readonly creationTxId: string
  readonly topUp?: { readonly every: number; readonly amount: bigint }
  readonly disableAt?: number
  readonly weightChange?: { readonly at: number; readonly weight: bigint }
}

export interface L1ValidatorState {
  readonly weight: bigint
  readonly balance: bigint
  readonly active: boolean
  /** Nonce of the last weight message (0 before any). */
  readonly nonce: bigint
}

const CHAIN_NAMES = ["Dexalot", "Beam", "Coqnet", "Lamina", "Quarry", "Fable", "Tidal", "Cinder", "Aster", "Mosaic"]

/** Validators kept built: a page of P-chain blocks reads every validator's schedule (L1View.blockStats), and each costs a dozen draws. */
const VALIDATORS_KEPT = 16_384

export class L1s {
  private readonly validators = new Lru<number, L1Validator>(VALIDATORS_KEPT)

  constructor(
    private readonly ctx: NetCtx,
    private readonly adopted?: AdoptedL1
  ) {}

  get count(): number {
    return this.ctx.cfg.l1s
  }

  l1(l: number): L1Params | undefined {
    const { ctx } = this
    if (l < 0 || l >= this.count) return undefined
    const span = ctx.cfg.spanSeconds
    const adopted = l === 0 ? this.adopted : undefined
    // an adopted chain must exist before its first block; clamp into the generated history
    const createChainAt = adopted
      ? Math.max(ctx.start + 2 * DAY, adopted.genesisTime - 3600)
      : ctx.start + Math.floor(span * (0.1 + 0.4 * ctx.unit("l1-create", l))) + ctx.int(3600, 2 * DAY, "l1-chain", l)
    const createSubnetAt = createChainAt - ctx.int(3600, 2 * DAY, "l1-subnet-lead", l)
    // the last L1 (when there are three or more) converts just after the anchor: advancing reveals it
    const future = this.count >= 3 && l === this.count - 1
    const convertAt = future
      ? ctx.anchor + ctx.int(DAY / 2, 2 * DAY, "l1-convert", l)
      : createChainAt + (adopted ? ctx.int(3600, 6 * 3600, "l1-convert", l) : ctx.int(DAY, 20 * DAY, "l1-convert", l))
    const fast = ctx.name === "fuji"
    return {
      index: l,
      ownerWallet: l % ctx.cfg.wallets,
      createSubnetAt,
      createChainAt,
      convertAt,
      subnetId: adopted?.subnetId ?? ctx.id(Kind.L1Tx, l, 0, L1Event.CreateSubnet),
      chainId: adopted?.blockchainId ?? ctx.id(Kind.L1Tx, l, 0, L1Event.CreateChain),
      conversionTxId: ctx.id(Kind.L1Tx, l, 0, L1Event.Convert),
      chainName: adopted?.chainName ?? `${CHAIN_NAMES[(l + ctx.int(0, 9, "l1-names")) % CHAIN_NAMES.length]} L1${l >= CHAIN_NAMES.length ? ` ${l}` : ""}`,
      evmChainId: adopted ? Number(adopted.evmChainId) : 100_000 + ctx.int(0, 899_999, "l1-evm-chain", l),
      managerAddress: hex0x(ctx.bytes(20, "l1-manager", l)),
      initialValidators: ctx.int(2, 5, "l1-initial", l),
      registerEvery: fast ? ctx.int(DAY, 8 * DAY, "l1-every", l) : ctx.int(4 * DAY, 25 * DAY, "l1-every", l)
    }
  }

  /** Whether an id is the adopted L1's subnet or chain: the EVM world names them, not a locator. */
  isAdopted(id: string): boolean {
    return this.adopted !== undefined && (id === this.adopted.subnetId || id === this.adopted.blockchainId)
  }

  /** The L1 whose subnet id this is. */
  bySubnetId(subnetId: string): L1Params | undefined {
    if (this.adopted && subnetId === this.adopted.subnetId) return this.l1(0)
    const loc = this.ctx.locate(subnetId)
    return loc?.kind === Kind.L1Tx && loc.c === L1Event.CreateSubnet && loc.b === 0 ? this.l1(loc.a) : undefined
  }

  ownerOf(p: L1Params, second = false): Owners {
    return this.ctx.owner(this.ctx.address(p.ownerWallet, second ? 1 : 0))
  }

  validator(p: L1Params, v: number): L1Validator | undefined {
    if (v < 0 || v >= 2 ** 19) return undefined
    return this.validators.get(p.index * 2 ** 19 + v, () => this.build(p, v))
  }

  private build(p: L1Params, v: number): L1Validator {
    const { ctx } = this
    const keys = [p.index, v] as const
    const initial = v < p.initialValidators
    const createdAt = initial ? p.convertAt : p.convertAt + (v - p.initialValidators + 1) * p.registerEvery
    const rate = ctx.cfg.l1FeePerSecond
    const topUpDraw = ctx.unit("l1-topup", ...keys)
    const topUpEvery = ctx.int(20 * DAY, 40 * DAY, "l1-topup-every", ...keys)
    const changeDraw = ctx.unit("l1-change", ...keys)
    return new L1ValidatorRecord(this, ctx, p, v, {
      weight: BigInt(ctx.int(20, 200, "l1-weight", ...keys)),
      balance: ctx.big(500_000_000n, 12_000_000_000n, "l1-balance", ...keys),
      createdAt,
      ...(topUpDraw < 0.2 ? { topUp: { every: topUpEvery, amount: (rate * BigInt(topUpEvery) * 13n) / 10n } } : {}),
      ...(topUpDraw >= 0.2 && changeDraw < 0.2 ? { disableAt: createdAt + ctx.int(2 * DAY, 30 * DAY, "l1-disable", ...keys) } : {}),
      ...(changeDraw >= 0.2 && changeDraw < 0.45
        ? {
            weightChange: {
              at: createdAt + ctx.int(DAY, 20 * DAY, "l1-reweigh", ...keys),
              weight: ctx.unit("l1-zero", ...keys) < 0.2 ? 0n : BigInt(ctx.int(10, 300, "l1-new-weight", ...keys))
            }
          }
        : {})
    })
  }

  /** Validators created by time t (their creating tx timed ≤ t), in index order. */
  validatorCount(p: L1Params, t: number): number {
    if (t < p.convertAt) return 0
    return p.initialValidators + Math.floor((t - p.convertAt) / p.registerEvery)
  }

  /** Times of a validator's top-ups that happen before min(t, its disable). */
  topUpTimes(val: L1Validator, t: number): number[] {
    if (!val.topUp) return []
    const out: number[] = []
    for (let q = 0; q < MAX_TOP_UPS; q++) {
      const at = val.createdAt + (q + 1) * val.topUp.every
      if (at > t) break
      out.push(at)
    }
    return out
  }

  /** Weight, remaining balance and activity at t (by event times). */
  state(val: L1Validator, t: number): L1ValidatorState {
    return this.reader(val, t).state(t)
  }

  /**
   * A validator's state and top-up count at any t ≤ upTo, its top-ups' fold made once: a page of
   * P-chain blocks asks every validator's state at each block's time (L1View.blockStats).
   */
  reader(val: L1Validator, upTo: number): { readonly state: (t: number) => L1ValidatorState; readonly topUps: (t: number) => number } {
    const rate = this.ctx.cfg.l1FeePerSecond
    const times = this.topUpTimes(val, upTo)
    // the balance right after each top-up: what drained since the last event, then the amount added
    const after: bigint[] = []
    let balance = val.balance
    let last = val.createdAt
    for (const at of times) {
      const drained = balance - rate * BigInt(at - last)
      balance = (drained > 0n ? drained : 0n) + (val.topUp as { amount: bigint }).amount
      last = at
      after.push(balance)
    }
    const topUps = (t: number): number => {
      let k = times.length
      while (k > 0 && times[k - 1]! > t) k--
      return k
    }
    const state = (t: number): L1ValidatorState => {
      const weightChanged = val.weightChange !== undefined && val.weightChange.at <= t
      const weight = weightChanged ? (val.weightChange as { weight: bigint }).weight : val.weight
      const nonce = weightChanged ? 1n : 0n
      if ((val.disableAt !== undefined && val.disableAt <= t) || weight === 0n) return { weight, balance: 0n, active: false, nonce }
      const k = topUps(t)
      const left = (k === 0 ? val.balance : after[k - 1]!) - rate * BigInt(Math.max(0, t - (k === 0 ? val.createdAt : times[k - 1]!)))
      const remaining = left > 0n ? left : 0n
      return { weight, balance: remaining, active: remaining > 0n, nonce }
    }
    return { state, topUps }
  }

  /** The L1 whose chain (CreateChainTx id) this is. */
  byChainId(chainId: string): L1Params | undefined {
    if (this.adopted && chainId === this.adopted.blockchainId) return this.l1(0)
    const loc = this.ctx.locate(chainId)
    return loc?.kind === Kind.L1Tx && loc.c === L1Event.CreateChain && loc.b === 0 ? this.l1(loc.a) : undefined
  }

  /** The validator a validation id names. */
  byValidationId(validationId: string): L1Validator | undefined {
    const loc = this.ctx.locate(validationId)
    if (loc?.kind !== Kind.L1Validation) return undefined
    const p = this.l1(loc.a)
    return p && this.validator(p, loc.b)
  }

  /** The validator an L1 node id names. */
  byNodeIdBytes(b: Uint8Array): L1Validator | undefined {
    const loc = this.ctx.locateShort(b)
    if (loc?.kind !== Kind.L1Node) return undefined
    const p = this.l1(loc.a)
    return p && this.validator(p, loc.b)
  }
}

interface L1Schedule {
  readonly weight: bigint
  readonly balance: bigint
  readonly createdAt: number
  readonly topUp?: { readonly every: number; readonly amount: bigint }
  readonly disableAt?: number
  readonly weightChange?: { readonly at: number; readonly weight: bigint }
}

/** Schedule fields eagerly; ids and keys (several hashes each) on first read. */
class L1ValidatorRecord implements L1Validator {
  readonly weight: bigint
  readonly balance: bigint
  readonly createdAt: number
  readonly topUp?: { readonly every: number; readonly amount: bigint }
  readonly disableAt?: number
  readonly weightChange?: { readonly at: number; readonly weight: bigint }
  private memo: {
    validationId?: string
    validationIdHex?: string
    nodeId?: string
    signer?: BlsCredentials
    remainingBalanceOwner?: Owners
    deactivationOwner?: Owners
    creationTxId?: string
  } = {}

  constructor(
    private readonly l1sRef: L1s,
    private readonly ctx: NetCtx,
    readonly l1: L1Params,
    readonly v: number,
    schedule: L1Schedule
  ) {
    this.weight = schedule.weight
    this.balance = schedule.balance
    this.createdAt = schedule.createdAt
    if (schedule.topUp) this.topUp = schedule.topUp
    if (schedule.disableAt !== undefined) this.disableAt = schedule.disableAt
    if (schedule.weightChange) this.weightChange = schedule.weightChange
  }

  get validationId(): string {
    return (this.memo.validationId ??= this.ctx.id(Kind.L1Validation, this.l1.index, this.v))
  }
  get validationIdHex(): string {
    return (this.memo.validationIdHex ??= hex0x(this.ctx.idBytes(Kind.L1Validation, this.l1.index, this.v)))
  }
  get nodeId(): string {
    return (this.memo.nodeId ??= nodeIdString(this.ctx.shortId(Kind.L1Node, this.l1.index, this.v)))
  }
  get signer(): BlsCredentials {
    return (this.memo.signer ??= blsCredentials(this.ctx, "l1", this.l1.index, this.v))
  }
  get remainingBalanceOwner(): Owners {
    return (this.memo.remainingBalanceOwner ??= this.l1sRef.ownerOf(this.l1))
  }
  get deactivationOwner(): Owners {
    return (this.memo.deactivationOwner ??= this.l1sRef.ownerOf(this.l1, this.ctx.walletAddressCount(this.l1.ownerWallet) >= 2))
  }
  get creationTxId(): string {
    return (this.memo.creationTxId ??= this.v < this.l1.initialValidators ? this.l1.conversionTxId : this.ctx.id(Kind.L1Tx, this.l1.index, this.v, L1Event.Register))
  }
}
