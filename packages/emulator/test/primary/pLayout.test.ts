import { describe, expect, it } from "vitest"
import { PLayout, type PSlot } from "../../src/world/primary/pLayout.ts"
import { makeWorld } from "./support.ts"

// PLayout.at keeps the spans it found last, so a walk interleaved with far heights (a staker's
// reward block, a block ref's time) does not search again: what it answers must not depend on
// the order heights are asked in
describe("P-chain layout, heights asked in any order", () => {
  const layouts = (scale: number) => {
    const net = makeWorld(7, scale).primary.network("mainnet")
    const { pLayout } = net.ctx
    const tip = Number(net.height("P"))
    // a fresh layout over the same timeline, archive and rewards for each height: nothing remembered
    const alone = (h: number): PSlot => {
      const own = new PLayout(pLayout.main, () => net.ctx.archive, () => (net.ctx as unknown as { rewardIndex(): never }).rewardIndex())
      return own.at(h)
    }
    return { pLayout, tip, alone }
  }

  it("given a walk up the chain interleaved with far heights, when each height is placed, then every answer equals a fresh layout's", () => {
    const { pLayout, tip, alone } = layouts(3)
    let kinds = new Set<string>()
    for (let h = 0; h <= tip; h++) {
      const far = (h * 7919) % (tip + 1)
      expect(pLayout.at(h)).toEqual(alone(h))
      expect(pLayout.at(far)).toEqual(alone(far))
      kinds = kinds.add(pLayout.at(h).kind)
    }
    expect([...kinds].sort()).toEqual(["archive", "commit", "main", "proposal"])
  })

  it("given a walk down the chain and random jumps, when each height is placed, then every answer equals a fresh layout's and a main slot's time is its height's", () => {
    const { pLayout, tip, alone } = layouts(2)
    for (let h = tip; h >= 0; h -= 3) expect(pLayout.at(h)).toEqual(alone(h))
    for (let i = 0; i < 500; i++) {
      const h = (i * 104_729 + 17) % (tip + 1)
      const at = pLayout.at(h)
      expect(at).toEqual(alone(h))
      if (at.kind === "main") expect(pLayout.time(h)).toBe(pLayout.main.time(at.slot))
    }
  })

  it("given times before, inside and after the world's history, when the time of the block holding each is asked, then it is the time of that block's height", () => {
    const { pLayout } = layouts(2)
    const first = pLayout.genesisTime - 86_400
    const last = pLayout.mainGenesisTime + 500 * 86_400
    let archive = 0
    let main = 0
    for (let i = 0; i < 2_000; i++) {
      const t = first + Math.floor(((last - first) * ((i * 7_919) % 2_000)) / 2_000)
      const h = pLayout.mainAt(t)
      if (pLayout.at(h).kind === "archive") archive++
      else main++
      expect(pLayout.mainTimeAt(t)).toBe(pLayout.time(h))
    }
    expect(archive).toBeGreaterThan(10)
    expect(main).toBeGreaterThan(10)
  })

  it("given refs to the blocks holding times and rewards, made in a scattered order, then each carries its height's time", () => {
    const net = makeWorld(7, 2).primary.network("mainnet")
    const { ctx } = net
    const { pLayout } = ctx
    const tip = Number(net.height("P"))
    const t0 = pLayout.genesisTime - 3_600
    const span = pLayout.time(tip) - t0
    let rewards = 0
    for (let i = 0; i < 3_000; i++) {
      const at = ctx.blockAt("P", t0 + Math.floor((span * ((i * 7_919) % 3_000)) / 3_000))
      expect(at.timestamp).toBe(pLayout.time(Number(at.height)))
      const h = (i * 104_729) % (tip + 1)
      const slot = pLayout.at(h)
      if (slot.kind !== "proposal") continue
      const r = ctx.rewardRef(slot.reward)
      const block = ctx.rewardBlock(pLayout.time(h), r)
      expect(Number(block.height)).toBe(h)
      expect(block.timestamp).toBe(pLayout.time(h))
      rewards++
    }
    expect(rewards).toBeGreaterThan(100)
  })
})
