import { describe, expect, it } from "vitest"
import { AVAX_ASSET_ID, BLOCKCHAIN_ID, NETWORK_ID } from "../../src/world/constants.ts"
import type { PrimaryNetwork } from "../../src/world/primary/index.ts"
import { makeWorld } from "./support.ts"

const fingerprint = (net: PrimaryNetwork): unknown => {
  const h = Number(net.height("P"))
  const blocks = [0, 1, Math.floor(h / 2), h].map((x) => net.block("P", BigInt(x)))
  const set = net.addressSets()[1]
  const utxos = set ? net.utxos("P", set.addresses, { view: "rest", includeSpent: true }).slice(0, 20).map((u) => net.utxoHex(u)) : []
  return {
    heights: [net.height("P"), net.height("X"), net.cHeight()],
    blocks: blocks.map((b) => [b?.id, b?.timestamp, b?.txIds]),
    utxos,
    validators: net.stakingView.currentValidations().map((v) => [v.txId, v.validation.start, v.validation.stake.toString()])
  }
}

describe("primary-network world", () => {
  it("given one seed, when two worlds are built, then blocks, UTXO bytes and validators are identical", () => {
    const a = makeWorld(7).primary.network("mainnet")
    const b = makeWorld(7).primary.network("mainnet")
    expect(fingerprint(b)).toEqual(fingerprint(a))
  })

  it("given a world, when its primary and EVM parts are read, then the P-chain's C-chain and adopted L1 are the EVM world's own objects", () => {
    const world = makeWorld()
    for (const name of ["mainnet", "fuji"] as const) {
      expect(world.primary.network(name).cChain).toBe(world.evm.cChain(name))
      const l1 = world.evm.chains().find((c) => c.info.network === name && !c.info.isCChain)!
      expect(world.primary.network(name).l1s.l1(0)?.chainId).toBe(l1.info.blockchainId)
    }
  })

  it("given two seeds, when their worlds are built, then their block ids differ", () => {
    const a = makeWorld(7).primary.network("mainnet")
    const b = makeWorld(8, 1, makeWorld(7).options.clock.now()).primary.network("mainnet")
    expect(b.block("P", 1n)?.id).not.toBe(a.block("P", 1n)?.id)
  })

  it("given mainnet and fuji, when their identities are read, then they carry the real network ids, chain ids, AVAX ids and HRPs", () => {
    const world = makeWorld()
    const main = world.primary.network("mainnet")
    const fuji = world.primary.network("testnet")
    expect([main.networkId, main.hrp, main.blockchainIds.X, main.avaxAssetId]).toEqual([NETWORK_ID.mainnet, "avax", BLOCKCHAIN_ID.mainnet.X, AVAX_ASSET_ID.mainnet])
    expect([fuji.networkId, fuji.hrp, fuji.blockchainIds.C, fuji.avaxAssetId]).toEqual([5, "fuji", BLOCKCHAIN_ID.fuji.C, AVAX_ASSET_ID.fuji])
    expect(fuji).toBe(world.primary.network("fuji"))
    expect(main.addressSets()[0]?.p[0]).toMatch(/^P-avax1[02-9ac-hj-np-z]{38}$/)
    expect(fuji.addressSets()[0]?.x[0]).toMatch(/^X-fuji1[02-9ac-hj-np-z]{38}$/)
  })

  it("given scale 1, when the world is sized, then it is small: hundreds of P slots (under two thousand blocks with the reward pairs and the archive), dozens of validators, address sets of tens to hundreds of UTXOs", () => {
    const net = makeWorld().primary.network("mainnet")
    const pHeight = Number(net.height("P"))
    expect(pHeight).toBeGreaterThanOrEqual(200)
    expect(pHeight).toBeLessThan(2000)
    expect(net.stakingView.nodes().length).toBe(30)
    const current = net.stakingView.currentValidations().length
    expect(current).toBeGreaterThan(10)
    expect(current).toBeLessThan(60)
    for (const set of net.addressSets()) {
      const n = net.utxos("P", set.addresses, { view: "rest" }).length + net.utxos("X", set.addresses, { view: "rest" }).length
      expect(n).toBeGreaterThanOrEqual(10)
      expect(n).toBeLessThan(2000)
    }
  })

  it("given the clock, when a block is read, then every revealed block has a timestamp at or before now and the next one is hidden", () => {
    const world = makeWorld()
    const net = world.primary.network("mainnet")
    const now = world.options.clock.now()
    for (const c of ["P", "X"] as const) {
      const h = net.height(c)
      expect(net.block(c, h)?.timestamp).toBeLessThanOrEqual(now)
      expect(net.block(c, h + 1n)).toBeUndefined()
      expect(net.ctx.timelines[c].time(Number(h) + 1)).toBeGreaterThan(now)
    }
  })

  it("given an advance of one hour, when heights are read again, then new P and X blocks with transactions are revealed", () => {
    const world = makeWorld()
    const net = world.primary.network("mainnet")
    const before = net.height("P")
    const hiddenId = net.ctx.blockId("P", Number(before) + 5)
    expect(net.blockById("P", hiddenId)).toBeUndefined()
    world.options.clock.advance(3600)
    expect(net.height("P")).toBe(before + 120n)
    expect(net.blockById("P", hiddenId)?.height).toBe(before + 5n)
    const fresh = net.block("P", before + 1n)
    expect(fresh?.txIds.length).toBeGreaterThan(0)
    expect(net.tx(fresh?.txIds[0] as string, "P")?.block.height).toBe(before + 1n)
  })

  it("given an advance of sixty days, when staking is read, then staking transactions issued in between become visible and new validations start", () => {
    const world = makeWorld()
    const net = world.primary.network("mainnet")
    const t0 = world.options.clock.now()
    const next = net.stakingView
      .nodes()
      .map((n) => net.staking.validation(n, net.staking.validationsUpTo(n, t0).length))
      .find((v) => v !== undefined && v.issue > t0 + 600)
    expect(next).toBeDefined()
    const txId = net.stakingTxs.validationTxId(next!)
    expect(net.tx(txId)).toBeUndefined()
    world.options.clock.advance(60 * 86_400)
    expect(net.tx(txId)?.type).toMatch(/^Add(Permissionless)?ValidatorTx$/)
  })

  it("given a large scale, when the latest blocks are read, then the world answers without materialising the scale", () => {
    // the heap as this test finds it, not with what earlier files in this worker left to collect
    globalThis.gc?.()
    const before = process.memoryUsage().heapUsed
    const net = makeWorld(7, 100).primary.network("mainnet")
    const h = net.height("P")
    expect(h).toBeGreaterThan(20_000n)
    net.prefetch("P", h - 50n, h)
    for (let x = h - 50n; x <= h; x++) {
      const b = net.block("P", x)
      // a commit block decides the proposal before it and holds no tx; every other block holds some
      if (b?.blockType === "BanffCommitBlock") expect(b.txIds).toEqual([])
      else expect(b?.txIds.length).toBeGreaterThan(0)
    }
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024)
  })
})
