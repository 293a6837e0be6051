import { describe, expect, it } from "vitest"
import { makeEvm } from "./support.ts"

describe("EVM world", () => {
  it("given one seed, when two worlds are built, then chains, blocks and transactions are equal; another seed differs", () => {
    const a = makeEvm(11).evm
    const b = makeEvm(11).evm
    const c = makeEvm(12).evm
    expect(a.chains().map((x) => x.info)).toEqual(b.chains().map((x) => x.info))
    for (const [i, chain] of a.chains().entries()) {
      const other = b.chains()[i]!
      for (const h of [0n, 1n, 250n, chain.latestHeight()]) {
        expect(chain.block(h)).toEqual(other.block(h))
        expect(chain.transactionsOf(h)).toEqual(other.transactionsOf(h))
      }
    }
    expect(c.chains()[2]!.info.evmChainId).not.toBe(a.chains()[2]!.info.evmChainId)
    expect(c.chains()[0]!.block(100n)!.blockHash).not.toBe(a.chains()[0]!.block(100n)!.blockHash)
  })

  it("given the C-chains and two L1s, when looked up by EVM chain id or blockchain id, then the same chain answers", () => {
    const { evm } = makeEvm()
    expect(evm.chains().map((c) => c.info.evmChainId).slice(0, 2)).toEqual(["43114", "43113"])
    expect(evm.chain("2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5")).toBe(evm.chain("43114"))
    const l1 = evm.chains()[2]!
    expect(l1.info.blockchainId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{48,50}$/)
    expect(evm.chain(l1.info.blockchainId)).toBe(l1)
    expect(evm.chain("999")).toBeUndefined()
  })

  it("given scale 1, when every block is walked, then parentHash links, gasUsed and feesSpent sum the receipts and cumulativeTransactions is the running count", () => {
    const { evm } = makeEvm()
    for (const chain of evm.chains()) {
      const latest = chain.latestHeight()
      expect(latest).toBeGreaterThan(300n)
      expect(latest).toBeLessThan(2_100n)
      let running = 0n
      let prev = chain.block(0n)!
      expect(prev.parentHash).toBe("0x" + "0".repeat(64))
      expect(prev.txCount).toBe(0)
      for (let h = 1n; h <= latest; h++) {
        const b = chain.block(h)!
        const txs = chain.transactionsOf(h)
        running += BigInt(txs.length)
        expect(b.parentHash).toBe(prev.blockHash)
        expect(b.blockTimestamp).toBeGreaterThan(prev.blockTimestamp)
        expect(b.cumulativeTransactions).toBe(running)
        expect(b.txCount).toBe(txs.length)
        expect(b.gasUsed).toBe(txs.reduce((s, t) => s + t.gasUsed, 0n))
        expect(b.feesSpent).toBe(txs.reduce((s, t) => s + t.gasUsed * t.gasPrice, 0n))
        expect(b.gasUsed).toBeLessThanOrEqual(b.gasLimit)
        prev = b
      }
      expect(chain.block(latest + 1n)).toBeUndefined()
    }
  })

  it("given a transaction hash, when looked up, then the same transaction comes back in O(1), and foreign hashes are unknown", () => {
    const { evm } = makeEvm()
    const chain = evm.chain("43114")!
    const tx = chain.transactionsOf(777n)[1]!
    expect(chain.transaction(tx.txHash)).toEqual(tx)
    expect(chain.transaction(tx.txHash.toUpperCase().replace("0X", "0x"))).toEqual(tx)
    expect(evm.chain("43113")!.transaction(tx.txHash)).toBeUndefined()
    expect(chain.transaction("0x" + "ab".repeat(32))).toBeUndefined()
  })

  it("given the clock advances an hour, when the latest height is read, then new blocks appear and old ones are unchanged", () => {
    const { evm, clock } = makeEvm()
    const chain = evm.chain("43114")!
    const before = chain.latestHeight()
    const old = chain.block(before)
    expect(chain.block(before + 1n)).toBeUndefined()
    clock.advance(3 * 3600)
    expect(chain.latestHeight()).toBeGreaterThan(before)
    expect(chain.block(before)).toEqual(old)
    expect(chain.block(before + 1n)!.blockTimestamp).toBeGreaterThan(old!.blockTimestamp)
    expect(chain.block(chain.latestHeight())!.blockTimestamp).toBeLessThanOrEqual(clock.now())
  })

  it("given values past 2^64, when transactions are read, then amounts are exact bigints", () => {
    const { evm } = makeEvm()
    const chain = evm.chain("43114")!
    let huge = 0
    for (let h = 1n; h <= chain.latestHeight(); h++) {
      for (const t of chain.transactionsOf(h)) {
        if (t.value > 2n ** 64n) huge++
        for (const x of t.tokenTransfers) if (x.value > 2n ** 128n) huge++
      }
    }
    expect(huge).toBeGreaterThan(10)
  })

  it("given token transfers, when each NFT event is checked against the previous move of the same token, then the sender is the previous receiver", () => {
    const { evm } = makeEvm()
    const chain = evm.chain("43114")!
    const nft = chain.tokens().find((t) => t.ercType === "ERC-721")!
    const range = chain.tokenTransfers(nft.address)!
    const owner = new Map<bigint, string>()
    for (let seq = range.first; seq < range.end; seq++) {
      const t = range.at(seq)
      const prev = owner.get(t.tokenId!)
      expect(t.from).toBe(prev ?? "0x0000000000000000000000000000000000000000")
      owner.set(t.tokenId!, t.to)
    }
    expect(owner.size).toBeGreaterThan(20)
    for (const [id, to] of owner) expect(chain.nftToken(nft.address, id)!.ownerAddress).toBe(to)
  })

  it("given every transaction's transfers, when collected per token, then they equal the token's transfer sequence", () => {
    const { evm } = makeEvm()
    const chain = evm.chain("43113")!
    const byToken = new Map<string, string[]>()
    for (let h = 0n; h <= chain.latestHeight(); h++) {
      for (const t of chain.transactionsOf(h)) for (const x of t.tokenTransfers) byToken.set(x.token.address, [...(byToken.get(x.token.address) ?? []), `${x.txHash}:${x.logIndex}:${x.value}`])
    }
    for (const token of chain.tokens()) {
      const r = chain.tokenTransfers(token.address)!
      const seq = []
      for (let s = r.first; s < r.end; s++) {
        const x = r.at(s)
        seq.push(`${x.txHash}:${x.logIndex}:${x.value}`)
      }
      expect(seq).toEqual(byToken.get(token.address) ?? [])
    }
  })
})
