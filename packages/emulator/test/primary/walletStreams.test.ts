import { describe, expect, it } from "vitest"
import { StreamTiming } from "../../src/world/primary/walletStreams.ts"
import { makeWorld } from "./support.ts"

// StreamTiming holds each wallet's interval and first time once drawn: what it answers must not
// depend on what was asked before, for the world's wallets and for any other index
describe("wallet streams' timing, drawn once", () => {
  it("given events asked in a scattered order, including wallets past the world's, then each time and type is a fresh timing's", () => {
    const net = makeWorld(7, 3).primary.network("mainnet")
    const wallets = net.ctx.cfg.wallets
    const held = new StreamTiming(net.ctx, wallets)
    const times = new Set<number>()
    for (let i = 0; i < 3_000; i++) {
      const w = (i * 7_919) % (wallets + 3)
      const chain = i % 3 === 0 ? "X" : "P"
      const e = (i * 104_729) % 40
      const fresh = new StreamTiming(net.ctx, wallets)
      expect(held.event(w, chain, e)).toEqual(fresh.event(w, chain, e))
      expect(held.indicesIn(w, chain, fresh.eventTime(w, chain, e), fresh.eventTime(w, chain, e) + 1)).toContain(e)
      times.add(held.eventTime(w, chain, e))
    }
    expect(times.size).toBeGreaterThan(500)
    expect(held.event(2, "P", 5)).toEqual(net.wallets.event(2, "P", 5))
  })
})
