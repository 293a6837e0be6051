import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { avax } from "../../src/world/primary/avax.ts"
import { base58, cb58, fromBase58, fromCb58, sha256 } from "../../src/world/cb58.ts"
import { createHash } from "node:crypto"
import bs58 from "bs58"

const samples = (): Uint8Array[] => {
  const out: Uint8Array[] = [new Uint8Array(0), new Uint8Array(1), new Uint8Array(32), new Uint8Array(36).fill(255)]
  for (let i = 0; i < 3000; i++) {
    const b = randomBytes([20, 32, 1, 2, 5, 36, 48][i % 7] as number)
    // leading zero bytes are where base58 codecs differ most
    for (let z = 0; z < i % 4 && z < b.length; z++) b[z] = 0
    out.push(new Uint8Array(b))
  }
  return out
}

describe("cb58 and base58 (the emulator's own codec)", () => {
  it("given random bytes with and without leading zeros, when encoded, then the strings equal avalanchejs' base58check", () => {
    for (const b of samples()) expect(cb58(b)).toBe(avax.utils.base58check.encode(b))
  })

  it("given bytes of every length up to 80 and longer than the scratch arrays, all zero, all 0xff or random after zeros, when encoded, then the strings equal bs58's", () => {
    for (const n of [...Array.from({ length: 81 }, (_, i) => i), 127, 128, 129, 200]) {
      for (const b of [new Uint8Array(n), new Uint8Array(n).fill(255), new Uint8Array(randomBytes(n))]) {
        for (let z = 0; z <= Math.min(n, 3); z++) {
          const c = b.slice()
          c.fill(0, 0, z)
          expect(base58(c)).toBe(bs58.encode(c))
        }
      }
    }
  })

  it("given cb58 strings, when decoded, then the bytes equal avalanchejs' and round-trip", () => {
    for (const b of samples()) {
      const s = avax.utils.base58check.encode(b)
      expect(Buffer.from(fromCb58(s) ?? [])).toEqual(Buffer.from(avax.utils.base58check.decode(s)))
      expect(Buffer.from(fromBase58(base58(b)) ?? [1, 2, 3])).toEqual(Buffer.from(b))
    }
  })

  it("given strings that are not cb58, when decoded, then the same bytes as avalanchejs (which checks no checksum), undefined where it throws", () => {
    const good = cb58(new Uint8Array(randomBytes(32)))
    const bad = ["", "1", "11111", "2", "0OIl", good.slice(0, -1), good.slice(0, -1) + (good.endsWith("2") ? "3" : "2"), "é" + good, good + "!", "zzz"]
    for (const s of bad) {
      let theirs: Uint8Array | undefined
      try {
        theirs = avax.utils.base58check.decode(s)
      } catch {
        theirs = undefined
      }
      expect(fromCb58(s) === undefined ? undefined : Buffer.from(fromCb58(s)!)).toEqual(theirs === undefined ? undefined : Buffer.from(theirs))
    }
  })

  it("given bytes, when hashed, then sha256 equals createHash's", () => {
    for (const b of samples().slice(0, 50)) expect(sha256(b)).toEqual(createHash("sha256").update(b).digest())
    for (const s of ["", "7|id|mainnet|32|123|0", "é|ü"]) expect(sha256(s)).toEqual(createHash("sha256").update(s).digest())
  })
})
