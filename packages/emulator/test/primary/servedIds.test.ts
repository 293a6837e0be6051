import { describe, expect, it } from "vitest"
import { sha256 } from "../../src/world/cb58.ts"
import { TxBytes } from "../../src/world/primary/codec/txBytes.ts"
import { cb58 } from "../../src/world/primary/ids.ts"
import { makeWorld } from "./support.ts"

// ids that are no locator of the world: the adopted L1's subnet and chain (the EVM world names
// them, yet their txs are the P-chain's and hashed) and strings that only look like ids
describe("served ids of ids that are no locator", () => {
  it.each(["mainnet", "fuji"] as const)("given %s's adopted L1, when its subnet and chain ids are served, then each is its tx's hash and resolves back", (network) => {
    const net = makeWorld(7, 1).primary.network(network)
    const l1 = net.l1s.l1(0)!
    expect(net.l1s.isAdopted(l1.subnetId) && net.l1s.isAdopted(l1.chainId)).toBe(true)
    const reference = new TxBytes(net, net.served.of, false)
    for (const [id, type] of [
      [l1.subnetId, "CreateSubnetTx"],
      [l1.chainId, "CreateChainTx"]
    ] as const) {
      const tx = net.txAnyTime(id)!
      expect(tx.type).toBe(type)
      const served = net.served.of(id)
      expect(served).toBe(cb58(sha256(reference.bytes(tx))))
      expect(served).not.toBe(id)
      expect(net.served.resolve(served)).toBe(id)
    }
  })

  it("given cb58 strings of random bytes and another L1's subnet id, when served, then the random ones are served as they are and the L1's is hashed", () => {
    const net = makeWorld(7, 1).primary.network("mainnet")
    for (let i = 0; i < 50; i++) {
      const id = cb58(sha256(`not an id ${i}`))
      expect(net.l1s.isAdopted(id)).toBe(false)
      expect(net.served.of(id)).toBe(id)
    }
    const other = net.l1s.l1(1)
    expect(other).toBeDefined()
    expect(net.l1s.isAdopted(other!.subnetId)).toBe(false)
    expect(net.served.of(other!.subnetId)).not.toBe(other!.subnetId)
  })
})
