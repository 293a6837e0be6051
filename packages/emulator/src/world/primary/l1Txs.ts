/**
 * The P-chain txs of the L1 lifecycle (see l1.ts). Each is funded by one genesis-allocation
 * input covering its fee and any balance it deposits, so it leaves no change behind.
 */
import type { NetCtx } from "./context.ts"
import { Kind } from "./ids.ts"
import { L1Event, SUBNET_EVM_VM_ID, type L1Params, type L1Validator, type L1s } from "./l1.ts"
import { INDEX_HORIZON, TimeIndexBuilder, type TimeIndex } from "./timeIndex.ts"
import type { L1TxInfo, PTxType, TxRecord, UtxoRecord } from "./types.ts"

/**
 * nAVAX an L1 tx moves into validator balances (the pay-as-you-go fee reserve): the initial
 * validators' balances of a conversion, a registration's balance, a top-up's amount.
 */
export const balanceDeposit = (info: L1TxInfo): bigint => {
  switch (info.kind) {
    case "convert":
      return info.validators.reduce((sum, val) => sum + val.balance, 0n)
    case "register":
      return info.validator.balance
    case "increaseBalance":
      return info.amount
    default:
      return 0n
  }
}

export class L1Txs {
  /** The L1 txs by time, built on first use (undefined: not built; null: not buildable). */
  private index: TimeIndex | null | undefined

  constructor(
    private readonly ctx: NetCtx,
    readonly l1s: L1s
  ) {}

  /** Owner of the input funding every tx of validator v of L1 l (v 0 also funds the L1's own txs). */
  fundingAddress(l: number, v: number): Uint8Array {
    return this.ctx.shortId(Kind.ExternalAddress, 2 ** 27 + l, v)
  }

  private funding(l: number, v: number, code: number, amount: bigint, txId: string, at: number): UtxoRecord {
    const genesis = this.ctx.blockRef("P", 0)
    return {
      // b offset keeps these apart from the staking schedule's genesis allocations
      txId: this.ctx.id(Kind.GenesisAllocation, l, 2 ** 19 + v, code),
      outputIndex: 0,
      assetId: this.ctx.avaxAssetId,
      amount,
      owners: this.ctx.owner(this.fundingAddress(l, v)),
      stakeableLocktime: 0n,
      createdOn: "P",
      consumedOn: "P",
      created: genesis,
      listed: genesis,
      spent: { txId, block: this.ctx.blockAt("P", at) },
      kind: "transfer"
    }
  }

  /** Id of the L1 tx of locator (l, v, code), without building it. */
  txId(p: L1Params, v: number, code: number): string {
    // the L1's subnet and chain ids are the ids of the txs that created them
    return v === 0 && code === L1Event.CreateSubnet ? p.subnetId : v === 0 && code === L1Event.CreateChain ? p.chainId : this.ctx.id(Kind.L1Tx, p.index, v, code)
  }

  private tx(p: L1Params, v: number, code: number, type: PTxType, at: number, l1: L1TxInfo): TxRecord {
    const id = this.txId(p, v, code)
    const fee = this.ctx.cfg.txFee
    const deposit = balanceDeposit(l1)
    return {
      id,
      chain: "P",
      type,
      block: this.ctx.blockAt("P", at),
      issueTime: at,
      inputs: [this.funding(p.index, v, code, fee + deposit, id, at)],
      outputs: [],
      l1,
      memo: new Uint8Array(0),
      burned: fee + deposit
    }
  }

  private genesis(p: L1Params): Record<string, unknown> {
    const allow = { blockTimestamp: 0, adminAddresses: [p.managerAddress], managerAddresses: [], enabledAddresses: [] }
    return {
      airdropAmount: null,
      airdropHash: "0x" + "00".repeat(32),
      alloc: { [p.managerAddress]: { balance: "0x52b7d2dcc80cd2e4000000", code: "0x", storage: {} } },
      baseFeePerGas: null,
      blobGasUsed: null,
      coinbase: "0x" + "00".repeat(20),
      config: {
        berlinBlock: 0,
        byzantiumBlock: 0,
        chainId: p.evmChainId,
        constantinopleBlock: 0,
        eip150Block: 0,
        eip150Hash: "0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0",
        eip155Block: 0,
        eip158Block: 0,
        feeConfig: {
          baseFeeChangeDenominator: 36,
          blockGasCostStep: 200000,
          gasLimit: 12000000,
          maxBlockGasCost: 1000000,
          minBaseFee: 25000000000,
          minBlockGasCost: 0,
          targetBlockRate: 2,
          targetGas: 60000000
        },
        homesteadBlock: 0,
        istanbulBlock: 0,
        londonBlock: 0,
        muirGlacierBlock: 0,
        petersburgBlock: 0,
        subnetEVMTimestamp: 0,
        allowFeeRecipients: false,
        warpConfig: { blockTimestamp: p.createChainAt, quorumNumerator: 67, requirePrimaryNetworkSigners: true },
        txAllowListConfig: allow,
        contractDeployerAllowListConfig: allow,
        contractNativeMinterConfig: allow,
        feeManagerConfig: allow,
        rewardManagerConfig: allow
      },
      difficulty: "0x0",
      excessBlobGas: null,
      extraData: "0x",
      gasLimit: "0xb71b00",
      gasUsed: "0x0",
      mixHash: "0x" + "00".repeat(32),
      nonce: "0x0",
      number: "0x0",
      parentHash: "0x" + "00".repeat(32),
      timestamp: "0x" + p.createChainAt.toString(16)
    }
  }

  createSubnetTx(p: L1Params): TxRecord {
    return this.tx(p, 0, L1Event.CreateSubnet, "CreateSubnetTx", p.createSubnetAt, { kind: "createSubnet", owner: this.l1s.ownerOf(p) })
  }

  createChainTx(p: L1Params): TxRecord {
    const info: L1TxInfo = { kind: "createChain", subnetId: p.subnetId, chainName: p.chainName, vmId: SUBNET_EVM_VM_ID, genesis: this.genesis(p) }
    return this.tx(p, 0, L1Event.CreateChain, "CreateChainTx", p.createChainAt, info)
  }

  convertTx(p: L1Params): TxRecord {
    const validators = Array.from({ length: p.initialValidators }, (_, v) => this.l1s.validator(p, v) as L1Validator)
    const info: L1TxInfo = { kind: "convert", subnetId: p.subnetId, chainId: p.chainId, managerAddress: p.managerAddress, validators }
    return this.tx(p, 0, L1Event.Convert, "ConvertSubnetToL1Tx", p.convertAt, info)
  }

  registerTx(val: L1Validator): TxRecord {
    return this.tx(val.l1, val.v, L1Event.Register, "RegisterL1ValidatorTx", val.createdAt, { kind: "register", subnetId: val.l1.subnetId, validator: val })
  }

  setWeightTx(val: L1Validator): TxRecord | undefined {
    const change = val.weightChange
    if (!change) return undefined
    const info: L1TxInfo = { kind: "setWeight", subnetId: val.l1.subnetId, validationId: val.validationId, nonce: 1n, weight: change.weight }
    return this.tx(val.l1, val.v, L1Event.SetWeight, "SetL1ValidatorWeightTx", change.at, info)
  }

  disableTx(val: L1Validator): TxRecord | undefined {
    if (val.disableAt === undefined) return undefined
    const info: L1TxInfo = { kind: "disable", subnetId: val.l1.subnetId, validationId: val.validationId }
    return this.tx(val.l1, val.v, L1Event.Disable, "DisableL1ValidatorTx", val.disableAt, info)
  }

  topUpTx(val: L1Validator, q: number): TxRecord | undefined {
    if (!val.topUp || q < 0 || q >= 240) return undefined
    const at = val.createdAt + (q + 1) * val.topUp.every
    if (val.disableAt !== undefined && at >= val.disableAt) return undefined
    const info: L1TxInfo = { kind: "increaseBalance", subnetId: val.l1.subnetId, validationId: val.validationId, amount: val.topUp.amount }
    return this.tx(val.l1, val.v, L1Event.TopUp + q, "IncreaseL1ValidatorBalanceTx", at, info)
  }

  /**
   * Every L1 tx timed in [from, to). From the time index (one pass over the L1s' validators, once),
   * or, past its horizon, by asking every validator of every L1: a pass that regenerated each
   * validator for every window of the chain, most of which hold no L1 tx at all.
   */
  txsIn(from: number, to: number): TxRecord[] {
    const index = this.timeIndex()
    if (index === undefined || !index.covers(to)) return this.scanTxsIn(from, to)
    const out: TxRecord[] = []
    index.forEachIn(from, to, (l, v, code) => {
      const tx = this.txByLocator(l, v, code)
      if (tx === undefined) throw new Error(`L1 time index: no tx of L1 ${l} validator ${v} event ${code}`)
      out.push(tx)
    })
    return out
  }

  /** The L1 txs' times (the ones scanTxsIn finds) up to the horizon; undefined when they do not fit an index. */
  private timeIndex(): TimeIndex | undefined {
    if (this.index === undefined) {
      const builder = new TimeIndexBuilder(this.ctx.anchor + INDEX_HORIZON)
      for (let l = 0; l < this.l1s.count; l++) {
        const p = this.l1s.l1(l) as L1Params
        builder.add(p.createSubnetAt, l, 0, L1Event.CreateSubnet)
        builder.add(p.createChainAt, l, 0, L1Event.CreateChain)
        builder.add(p.convertAt, l, 0, L1Event.Convert)
        const created = this.l1s.validatorCount(p, builder.horizon - 1)
        for (let v = 0; v < created; v++) {
          const val = this.l1s.validator(p, v)
          if (val === undefined) break
          if (v >= p.initialValidators) builder.add(val.createdAt, l, v, L1Event.Register)
          if (val.weightChange) builder.add(val.weightChange.at, l, v, L1Event.SetWeight)
          if (val.disableAt !== undefined) builder.add(val.disableAt, l, v, L1Event.Disable)
          if (!val.topUp) continue
          for (let q = 0; q < 240; q++) {
            const at = val.createdAt + (q + 1) * val.topUp.every
            if (at >= builder.horizon || (val.disableAt !== undefined && at >= val.disableAt)) break
            builder.add(at, l, v, L1Event.TopUp + q)
          }
        }
      }
      this.index = builder.build() ?? null
    }
    return this.index ?? undefined
  }

  /** The same txs by asking every L1 and validator (windows past the index's horizon). */
  private scanTxsIn(from: number, to: number): TxRecord[] {
    const out: TxRecord[] = []
    const inside = (t: number): boolean => t >= from && t < to
    for (let l = 0; l < this.l1s.count; l++) {
      const p = this.l1s.l1(l) as L1Params
      if (inside(p.createSubnetAt)) out.push(this.createSubnetTx(p))
      if (inside(p.createChainAt)) out.push(this.createChainTx(p))
      if (inside(p.convertAt)) out.push(this.convertTx(p))
      const created = this.l1s.validatorCount(p, to - 1)
      for (let v = 0; v < created; v++) {
        const val = this.l1s.validator(p, v) as L1Validator
        if (v >= p.initialValidators && inside(val.createdAt)) out.push(this.registerTx(val))
        if (val.weightChange && inside(val.weightChange.at)) out.push(this.setWeightTx(val) as TxRecord)
        if (val.disableAt !== undefined && inside(val.disableAt)) out.push(this.disableTx(val) as TxRecord)
        if (val.topUp && to > val.createdAt && from < val.createdAt + 240 * val.topUp.every) {
          const first = Math.max(0, Math.ceil((from - val.createdAt) / val.topUp.every) - 1)
          for (let q = first; q < 240; q++) {
            const at = val.createdAt + (q + 1) * val.topUp.every
            if (at >= to) break
            if (at >= from && !(val.disableAt !== undefined && at >= val.disableAt)) out.push(this.topUpTx(val, q) as TxRecord)
          }
        }
      }
    }
    return out
  }

  /** An L1 tx by locator (l, v, code), whether or not revealed yet. */
  txByLocator(l: number, v: number, code: number): TxRecord | undefined {
    const p = this.l1s.l1(l)
    if (!p) return undefined
    if (v === 0 && code === L1Event.CreateSubnet) return this.createSubnetTx(p)
    if (v === 0 && code === L1Event.CreateChain) return this.createChainTx(p)
    if (v === 0 && code === L1Event.Convert) return this.convertTx(p)
    const val = this.l1s.validator(p, v)
    if (!val) return undefined
    if (code === L1Event.Register) return v >= p.initialValidators ? this.registerTx(val) : undefined
    if (code === L1Event.SetWeight) return this.setWeightTx(val)
    if (code === L1Event.Disable) return this.disableTx(val)
    if (code >= L1Event.TopUp) return this.topUpTx(val, code - L1Event.TopUp)
    return undefined
  }
}
