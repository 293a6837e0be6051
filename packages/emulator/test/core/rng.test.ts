import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { bytes, hash32, hashKey } from "../../src/world/rng.ts"
import { makeWorld } from "../primary/support.ts"

describe("the world's 32-bit key hash", () => {
  const paths: Array<ReadonlyArray<string | number | bigint>> = [
    [],
    ["bg-amount", "P", 12, 0],
    ["stake-change", "v", 3, 17, 0],
    ["d-amount", 2 ** 27 + 5, -1, 0.5, 10n ** 20n],
    ["", "é", "ünïcode"]
  ]

  it("given key paths of strings, numbers and bigints, when one key more is hashed from the path's hash, then it equals hashing the longer path", () => {
    for (const seed of [0, 1, 7, 2 ** 31 + 3]) {
      for (const path of paths) {
        for (const k of ["hi", "lo", 0, 123_456_789, 5n]) expect(hashKey(hash32(seed, ...path), k)).toBe(hash32(seed, ...path, k))
      }
    }
  })

  it("given integer keys on both sides of the digit fast path's bound, when hashed, then each hashes as its decimal text", () => {
    const keys = [0, -0, 7, 9, 10, 99, 100, 123_456_789, 2 ** 31, 2 ** 32 + 1, 2 ** 48 - 1, 2 ** 48, 2 ** 53 - 1, 1e21, -1, -(2 ** 40)]
    for (const h of [0, 0x9e3779b9, 123_456]) {
      for (const k of keys) expect(hashKey(h, k)).toBe(hashKey(h, String(k)))
    }
    expect(hash32(1, "d-amount", 2 ** 27 + 5, 3, 0)).toBe(hash32(1, "d-amount", "134217733", "3", "0"))
  })

  it("given a network, when amounts are drawn, then each is the two 32-bit draws of its key path with hi and lo, as before the path was shared", () => {
    const ctx = makeWorld(7, 1).primary.network("mainnet").ctx
    const seedN = (ctx as unknown as { seedN: number }).seedN
    const lo = 1_000_000n
    const hi = 90_000_000_000n
    for (let h = 0; h < 200; h++) {
      const keys = ["bg-change", "P", h, h % 3] as const
      const v = (BigInt(hash32(seedN, ...keys, "hi")) << 32n) | BigInt(hash32(seedN, ...keys, "lo"))
      expect(ctx.big(lo, hi, ...keys)).toBe(lo + (v % (hi - lo + 1n)))
    }
  })
})

describe("the world's pseudo-random bytes", () => {
  /** sha256 in counter mode over the key path's text, as the bytes are defined. */
  const reference = (seed: number, n: number, keys: ReadonlyArray<string | number | bigint>): string => {
    const prefix = `${seed}|${keys.join("|")}|`
    let all = Buffer.alloc(0)
    for (let counter = 0; all.length < n; counter++) all = Buffer.concat([all, createHash("sha256").update(prefix + counter).digest()])
    return all.subarray(0, n).toString("hex")
  }

  it("given lengths from none to past ten digests and key paths short, long and not ASCII, when drawn, then the bytes are sha256 in counter mode over the path", () => {
    const paths: Array<ReadonlyArray<string | number | bigint>> = [[], ["sig", "2JrAk5H7ekn95aB1VbVjJuGY6ouTRURqFAPj1fg4KDs5Nrb8Zz", 0, 1], ["id", "mainnet", 32, 2n ** 60n], ["x".repeat(150)], ["naïve", 3]]
    for (const keys of paths) {
      for (const n of [0, 1, 20, 24, 32, 33, 65, 96, 320, 321, 400]) expect(Buffer.from(bytes(12_345, n, ...keys)).toString("hex")).toBe(reference(12_345, n, keys))
    }
  })
})
