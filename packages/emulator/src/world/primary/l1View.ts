/**
 * L1s and their validators as seen at "now": what is created (its tx's block revealed) and each
 * validator's weight, balance and activity. Route 13, route 4's L1 part, the P-chain blocks' L1
 * fields and the node's subnet/blockchain methods read it.
 */
import { DAY } from "./config.ts"
import type { NetCtx } from "./context.ts"
import { L1Event, type L1Params, type L1Validator, type L1ValidatorState, type L1s } from "./l1.ts"
import type { L1Txs } from "./l1Txs.ts"
import type { StakingEntry, StakingTxType } from "./stakingView.ts"
import type { TxRecord } from "./types.ts"

export interface L1ValidatorView {
  readonly validator: L1Validator
  readonly state: L1ValidatorState
  /** Timestamp of the block holding the tx that created the validator. */
  readonly creationTimestamp: number
}

export class L1View {
  readonly l1s: L1s

  constructor(
    private readonly ctx: NetCtx,
    private readonly txs: L1Txs,
    private readonly now: () => number
  ) {
    this.l1s = txs.l1s
  }

  private revealed(t: number, at: number): boolean {
    return this.ctx.blockAt("P", t).timestamp <= at
  }

  /** L1s whose subnet exists at `at` (default now). */
  subnets(at = this.now()): L1Params[] {
    return Array.from({ length: this.l1s.count }, (_, l) => this.l1s.l1(l) as L1Params).filter((p) => this.revealed(p.createSubnetAt, at))
  }

  /** L1s whose chain exists at `at`. */
  chains(at = this.now()): L1Params[] {
    return this.subnets(at).filter((p) => this.revealed(p.createChainAt, at))
  }

  converted(p: L1Params, at = this.now()): boolean {
    return this.revealed(p.convertAt, at)
  }

  /** Validators of one L1 revealed at `at`, in creation order. */
  validatorsOf(p: L1Params, at = this.now()): L1ValidatorView[] {
    if (!this.converted(p, at)) return []
    const out: L1ValidatorView[] = []
    // creation txs may sit in a block older than their time: look a little past `at`, then filter
    const count = this.l1s.validatorCount(p, at + 7 * 86_400)
    for (let v = 0; v < count; v++) {
      const val = this.l1s.validator(p, v) as L1Validator
      const block = this.ctx.blockAt("P", val.createdAt)
      if (block.timestamp > at) continue
      out.push({ validator: val, state: this.l1s.state(val, at), creationTimestamp: block.timestamp })
    }
    return out
  }

  /**
   * Route 4's L1 part: an active L1 validator is staking, so the revealed txs behind the ones
   * active now are listed — the conversion that created an L1's initial validators (once per L1),
   * each later validator's registration, and the weight changes and top-ups of active validators.
   * Light like the primary-network entries: `tx()` builds the record.
   */
  activeStakingEntries(): StakingEntry[] {
    const now = this.now()
    const out: StakingEntry[] = []
    for (const p of this.subnets(now)) {
      const active = this.validatorsOf(p, now).filter((view) => view.state.active)
      if (active.some((view) => view.validator.v < p.initialValidators)) {
        out.push(this.entry("ConvertSubnetToL1Tx", p, 0, L1Event.Convert, p.convertAt, () => this.txs.convertTx(p)))
      }
      for (const { validator: val } of active) {
        if (val.v >= p.initialValidators) out.push(this.entry("RegisterL1ValidatorTx", p, val.v, L1Event.Register, val.createdAt, () => this.txs.registerTx(val)))
        const change = val.weightChange
        if (change && this.revealed(change.at, now)) {
          out.push(this.entry("SetL1ValidatorWeightTx", p, val.v, L1Event.SetWeight, change.at, () => this.txs.setWeightTx(val) as TxRecord))
        }
        // like validatorsOf: a top-up may sit in a block older than its time, so look past now
        this.l1s.topUpTimes(val, now + 7 * DAY).forEach((at, q) => {
          if (!this.revealed(at, now) || (val.disableAt !== undefined && at >= val.disableAt)) return
          out.push(this.entry("IncreaseL1ValidatorBalanceTx", p, val.v, L1Event.TopUp + q, at, () => this.txs.topUpTx(val, q) as TxRecord))
        })
      }
    }
    return out
  }

  private entry(txType: StakingTxType, p: L1Params, v: number, code: number, at: number, tx: () => TxRecord): StakingEntry {
    return {
      txId: this.txs.txId(p, v, code),
      txType,
      blockTimestamp: this.ctx.blockAt("P", at).timestamp,
      // an L1 tx's only UTXO is its funding input; it has no reward addresses
      addresses: () => [this.txs.fundingAddress(p.index, v)],
      tx
    }
  }

  /** Every L1 validator revealed at `at`, L1 by L1. */
  allValidators(at = this.now()): L1ValidatorView[] {
    return this.subnets(at).flatMap((p) => this.validatorsOf(p, at))
  }

  /**
   * The P-chain block fields activeL1Validators and l1ValidatorsAccruedFees (continuous fees paid
   * so far) at each of `times` (a page of blocks), enumerating the validators once for all of them.
   * A validator with no event between the earliest and the latest of the times (no creation,
   * top-up, weight change or disabling, and active at both ends or at neither) pays the fee rate
   * each second while active and nothing otherwise, so such validators are summed once and grow by
   * the rate times their count; only the others are told block by block. Exact: bigint sums of the
   * same terms.
   */
  blockStats(times: ReadonlyArray<number>): Array<{ readonly active: number; readonly accruedFees: bigint }> {
    if (times.length === 0) return []
    const latest = Math.max(...times)
    const earliest = Math.min(...times)
    let steadyActive = 0
    // the steady validators' fees at `earliest`
    let steadyFees = 0n
    const changing: Array<{ readonly view: L1ValidatorView; readonly read: L1Reader }> = []
    for (const view of this.allValidators(latest)) {
      const read = this.l1s.reader(view.validator, latest)
      if (quiet(view, read, earliest, latest)) {
        const first = paid(view, read, earliest)
        if (first.active === read.state(latest).active) {
          steadyFees += first.fees
          if (first.active) steadyActive++
          continue
        }
      }
      changing.push({ view, read })
    }
    const rate = this.ctx.cfg.l1FeePerSecond
    return times.map((at) => {
      let active = steadyActive
      let accruedFees = steadyFees + rate * BigInt(steadyActive) * BigInt(at - earliest)
      for (const { view, read } of changing) {
        if (view.creationTimestamp > at) continue
        const p = paid(view, read, at)
        if (p.active) active++
        accruedFees += p.fees
      }
      return { active, accruedFees }
    })
  }
}

type L1Reader = ReturnType<L1s["reader"]>

/**
 * Whether nothing happens to a validator in (from, to]: it exists at `from` (its block, and its
 * own time, from which its balance drains: the block may be older), and no top-up, weight change
 * or disabling falls after it.
 */
const quiet = (view: L1ValidatorView, read: L1Reader, from: number, to: number): boolean => {
  const val = view.validator
  const inside = (t: number | undefined): boolean => t !== undefined && t > from && t <= to
  return view.creationTimestamp <= from && val.createdAt <= from && !inside(val.disableAt) && !inside(val.weightChange?.at) && read.topUps(from) === read.topUps(to)
}

/** Whether a validator is active at `at`, and the fees it paid by then (deposits less what is left; a disabled one's as of its disabling). */
const paid = (view: L1ValidatorView, read: L1Reader, at: number): { readonly active: boolean; readonly fees: bigint } => {
  const val = view.validator
  const now = read.state(at)
  const end = val.disableAt !== undefined && val.disableAt <= at ? val.disableAt - 1 : at
  const deposits = val.balance + (val.topUp ? val.topUp.amount * BigInt(read.topUps(end)) : 0n)
  return { active: now.active, fees: deposits - (end === at ? now : read.state(end)).balance }
}
