import { describe, expect, it } from "vitest"
import { makeWorld } from "./support.ts"

// blocks take their txs from time indexes (timeIndex.ts) instead of asking every node and wallet
// per window: for any window the two must find the same txs
describe("time indexes of the generators", () => {
  const windows = (net: ReturnType<ReturnType<typeof makeWorld>["primary"]["network"]>, chain: "P" | "X"): Array<readonly [number, number]> => {
    const timeline = net.ctx.slotTimelines[chain]
    const top = timeline.heightAt(net.ctx.anchor + 20 * 86_400)
    const out: Array<readonly [number, number]> = []
    for (let h = 0; h <= top; h += 23 + (h % 13)) out.push(timeline.window(h))
    // a page's worth of blocks, windows straddling the horizon and wholly past it (the scan)
    for (let h = 0; h <= top; h += 193) out.push([timeline.time(h), timeline.time(Math.min(top, h + 100))])
    out.push([net.ctx.anchor + 59 * 86_400, net.ctx.anchor + 61 * 86_400], [net.ctx.anchor + 70 * 86_400, net.ctx.anchor + 75 * 86_400])
    return out
  }
  const ids = (txs: ReadonlyArray<{ id: string }>): string[] => txs.map((t) => t.id).sort()

  for (const [network, scale] of [["mainnet", 3], ["fuji", 2]] as const) {
    it(`given ${network} at scale ${scale}, when windows are asked for staking txs, then the index finds what scanning every node finds`, () => {
      const net = makeWorld(7, scale).primary.network(network)
      const s = net.stakingTxs as unknown as { scanTxsIn(a: number, b: number): Array<{ id: string }> }
      let found = 0
      for (const [from, to] of windows(net, "P")) {
        const got = ids(net.stakingTxs.txsIn(from, to))
        expect(got).toEqual(ids(s.scanTxsIn(from, to)))
        found += got.length
      }
      expect(found).toBeGreaterThan(100)
    })

    it(`given ${network} at scale ${scale}, when windows are asked for wallet txs, then the index finds what scanning every wallet finds`, () => {
      const net = makeWorld(7, scale).primary.network(network)
      const w = net.wallets as unknown as { scanTxsIn(c: "P" | "X", a: number, b: number): Array<{ id: string }> }
      for (const chain of ["P", "X"] as const) {
        let found = 0
        for (const [from, to] of windows(net, chain)) {
          const got = ids(net.wallets.txsIn(chain, from, to))
          expect(got).toEqual(ids(w.scanTxsIn(chain, from, to)))
          found += got.length
        }
        expect(found).toBeGreaterThan(50)
      }
    })
  }

  for (const [network, scale] of [["mainnet", 4], ["fuji", 2]] as const) {
    it(`given ${network} at scale ${scale}, when day-long and longer windows are asked for L1 txs, then the index finds what asking every validator finds`, () => {
      const net = makeWorld(7, scale).primary.network(network)
      const l1 = net.l1Txs as unknown as { scanTxsIn(a: number, b: number): Array<{ id: string; issueTime: number }> }
      const start = net.ctx.slotTimelines.P.genesisTime
      const types = new Set<string>()
      let found = 0
      const windows: Array<readonly [number, number]> = []
      for (let t = start; t < net.ctx.anchor + 75 * 86_400; t += 86_400) windows.push([t, t + 86_400])
      for (let t = start + 3_600; t < net.ctx.anchor + 75 * 86_400; t += 9 * 86_400) windows.push([t, t + 9 * 86_400 + 7])
      windows.push([net.ctx.anchor + 59 * 86_400, net.ctx.anchor + 61 * 86_400])
      for (const [from, to] of windows) {
        const got = net.l1Txs.txsIn(from, to)
        const scanned = l1.scanTxsIn(from, to)
        expect(ids(got)).toEqual(ids(scanned))
        for (const tx of got) {
          expect(tx.issueTime >= from && tx.issueTime < to).toBe(true)
          types.add(tx.type)
        }
        found += got.length
      }
      expect(found).toBeGreaterThan(50)
      expect([...types].sort()).toEqual(
        ["ConvertSubnetToL1Tx", "CreateChainTx", "CreateSubnetTx", "DisableL1ValidatorTx", "IncreaseL1ValidatorBalanceTx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx"]
      )
    })
  }
})
