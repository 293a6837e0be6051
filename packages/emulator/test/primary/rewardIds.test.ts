import { describe, expect, it } from "vitest"
import { sha256 } from "../../src/world/cb58.ts"
import { TxBytes } from "../../src/world/primary/codec/txBytes.ts"
import { cb58 } from "../../src/world/primary/ids.ts"
import { makeWorld } from "./support.ts"

// proposal blocks are hashed from the rewarded staker's served id alone (rewardIds.ts): their
// reward txs' served ids must be the ones their records hash to, and told back to their world ids
describe("reward txs hashed without their records", () => {
  const proposals = (net: ReturnType<ReturnType<typeof makeWorld>["primary"]["network"]>): number[] => {
    const out: number[] = []
    for (let h = 0; h <= Number(net.height("P")); h++) if (net.ctx.pLayout.at(h).kind === "proposal") out.push(h)
    return out
  }

  it.each(["mainnet", "fuji"] as const)("given %s's P-chain hashed to its tip, when each proposal block's reward tx is named both ways, then its served id is its record's bytes' hash and resolves back to its world id", (network) => {
    const net = makeWorld(7, 2).primary.network(network)
    const tip = Number(net.height("P"))
    net.served.block("P", tip)
    const reference = new TxBytes(net, net.served.of, false)
    const heights = proposals(net)
    expect(heights.length).toBeGreaterThan(500)
    for (const h of heights) {
      const [tx] = net.p.txs(h)
      expect(tx?.type).toBe("RewardValidatorTx")
      const served = cb58(sha256(reference.bytes(tx!)))
      expect(net.served.known(served), `reward at ${h}`).toBe(tx!.id)
      expect(net.served.resolve(served)).toBe(tx!.id)
      expect(net.served.of(tx!.id)).toBe(served)
    }
  }, 120_000)

  it("given a world nothing was hashed in yet, when a reward tx's served id is resolved, then the chains are hashed up to now and it resolves to its world id", () => {
    const hashed = makeWorld(7, 1).primary.network("mainnet")
    const h = proposals(hashed).at(-1)!
    const [tx] = hashed.p.txs(h)
    const served = hashed.served.of(tx!.id)

    const fresh = makeWorld(7, 1).primary.network("mainnet")
    expect(fresh.served.known(served)).toBeUndefined()
    expect(fresh.served.resolve(served)).toBe(tx!.id)
  })
})
