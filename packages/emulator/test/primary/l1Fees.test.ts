import { describe, expect, it } from "vitest"
import type { L1Validator } from "../../src/world/primary/l1.ts"
import { makeWorld } from "./support.ts"

const DAY = 86_400

describe("an L1 validator's state read for many times at once (L1s.reader)", () => {
  it("gives at each time what the fold up to that time alone gives", () => {
    // given: mainnet's L1 validators that top up, at scale 20 (many top-ups each)
    const net = makeWorld(7, 20).primary.network("mainnet")
    const l1s = net.l1s
    const toppedUp: L1Validator[] = []
    for (let l = 0; l < l1s.count && toppedUp.length < 12; l++) {
      const p = l1s.l1(l)!
      for (let v = 0; v < l1s.validatorCount(p, net.now()) && toppedUp.length < 12; v++) {
        const val = l1s.validator(p, v)!
        if (val.topUp !== undefined && l1s.topUpTimes(val, net.now()).length >= 3) toppedUp.push(val)
      }
    }
    expect(toppedUp.length).toBe(12)
    let compared = 0
    for (const val of toppedUp) {
      // when: one reader made up to now answers every day back to before the validator existed
      const read = l1s.reader(val, net.now())
      for (let t = net.now(); t >= val.createdAt - 2 * DAY; t -= DAY - 17) {
        // then: the same state and top-up count as a reader made for that very time
        expect(read.state(t)).toEqual(l1s.reader(val, t).state(t))
        expect(read.topUps(t)).toBe(l1s.topUpTimes(val, t).length)
        compared++
      }
    }
    expect(compared).toBeGreaterThan(100)
  })

  it("drains the balance between top-ups at the L1 fee rate", () => {
    // given: a validator that topped up at least once
    const net = makeWorld(7, 20).primary.network("mainnet")
    const l1s = net.l1s
    const all = Array.from({ length: l1s.count }, (_, l) => l1s.l1(l)!).flatMap((p) => Array.from({ length: l1s.validatorCount(p, net.now()) }, (_, v) => l1s.validator(p, v)!))
    const val = all.find((x) => x.topUp !== undefined && x.disableAt === undefined && x.weightChange === undefined && l1s.topUpTimes(x, net.now()).length > 0)!
    const first = l1s.topUpTimes(val, net.now())[0]!
    const read = l1s.reader(val, net.now())
    // when: read an hour after its creation and an hour after its first top-up
    const early = read.state(val.createdAt + 3600)
    const later = read.state(first + 3600)
    // then: an hour of fees went from the initial balance, and the top-up's amount came in
    const rate = net.ctx.cfg.l1FeePerSecond
    expect(early.balance).toBe(val.balance - rate * 3600n)
    const before = val.balance - rate * BigInt(first - val.createdAt)
    expect(later.balance).toBe((before > 0n ? before : 0n) + val.topUp!.amount - rate * 3600n)
  })
})

describe("a page of P-chain blocks' L1 fields (L1View.blockStats)", () => {
  it.each([
    { seed: 1, scale: 5 },
    { seed: 7, scale: 20 }
  ])("equal, block by block, each validator's state and deposits told at that block's time (seed $seed, scale $scale)", ({ seed, scale }) => {
    // given: mainnet, and the rule the fields follow, told validator by validator
    const net = makeWorld(seed, scale).primary.network("mainnet")
    const l1s = net.l1s
    const told = (times: ReadonlyArray<number>) => {
      const views = net.l1View.allValidators(Math.max(...times))
      return times.map((at) => {
        let active = 0
        let accruedFees = 0n
        for (const view of views) {
          if (view.creationTimestamp > at) continue
          const val = view.validator
          if (l1s.state(val, at).active) active++
          const end = val.disableAt !== undefined && val.disableAt <= at ? val.disableAt - 1 : at
          accruedFees += val.balance + (val.topUp ? val.topUp.amount * BigInt(l1s.topUpTimes(val, end).length) : 0n) - l1s.state(val, end).balance
        }
        return { active, accruedFees }
      })
    }
    const tip = Number(net.height("P"))
    let blocks = 0
    let withValidators = 0
    // when: pages of 100 blocks, newest first as route 12 serves them, from the tip back through the L1s' history
    for (let top = tip; top > 100; top -= 397) {
      const times = Array.from({ length: 100 }, (_, i) => net.ctx.timelines.P.time(top - i))
      const stats = net.l1View.blockStats(times)
      // then: the same count and fees at every block
      expect(stats).toEqual(told(times))
      blocks += times.length
      withValidators += stats.filter((s) => s.active > 0).length
    }
    expect(blocks).toBeGreaterThan(1500)
    expect(withValidators).toBeGreaterThan(500)
  })
})
