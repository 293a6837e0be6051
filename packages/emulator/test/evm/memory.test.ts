import { describe, expect, it } from "vitest"
import { makeEvm } from "./support.ts"

describe("EVM world at large scale", () => {
  it("given scale 10000, when 20k blocks are walked without keeping them, then heights reach millions and heap growth stays bounded", () => {
    const { evm } = makeEvm(3, 10_000)
    const chain = evm.chain("43114")!
    expect(chain.latestHeight()).toBeGreaterThan(10_000_000n)
    const mid = chain.latestHeight() / 2n
    globalThis.gc?.()
    const before = process.memoryUsage().heapUsed
    let txs = 0n
    for (let h = mid; h < mid + 20_000n; h++) txs += BigInt(chain.block(h)!.txCount)
    const last = chain.block(mid + 19_999n)!
    expect(last.cumulativeTransactions - chain.block(mid - 1n)!.cumulativeTransactions).toBe(txs)
    globalThis.gc?.()
    // caches are bounded LRUs (512 blocks, 4096 addresses): far below what 20k blocks would hold
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024)
  })
})
