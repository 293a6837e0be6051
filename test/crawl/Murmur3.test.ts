/**
 * The listing guard's key digest is the reference MurmurHash3_x86_128, not a look-alike: SMHasher's
 * own verification (256 keys of growing length, each with its own seed, then the digest of their
 * digests) must give the value SMHasher lists for that function, 0xB3ECE62A. A wrong tail case, a
 * wrong rotation or a missed finalization step changes it.
 */
import { describe, expect, it } from "vitest"
import { murmur3String, murmur3x86_128 } from "../../src/crawl/Murmur3.ts"

const bytesOf = (words: Uint32Array): Uint8Array => new Uint8Array(words.buffer.slice(0))

describe("MurmurHash3_x86_128", () => {
  it("gives SMHasher's verification value", () => {
    // given the keys [], [0], [0,1], … [0..254] with seeds 256, 255, … 1
    const key = Uint8Array.from({ length: 256 }, (_, i) => i)
    const digests = new Uint8Array(256 * 16)
    const out = new Uint32Array(4)
    for (let i = 0; i < 256; i++) {
      murmur3x86_128(key, i, 256 - i, out)
      digests.set(bytesOf(out), i * 16)
    }
    // when the digests' concatenation is digested with seed 0
    murmur3x86_128(digests, digests.length, 0, out)
    // then its first four bytes, little-endian, are SMHasher's value
    const b = bytesOf(out)
    expect((b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0).toBe(0xb3ece62a)
  })

  it("digests a string as its UTF-8 bytes, long and non-ASCII ones included", () => {
    const out = new Uint32Array(4)
    const expected = new Uint32Array(4)
    for (const text of ["", "0xabc", "dévalidé ✓ 𝔸", "x".repeat(1000) + "é".repeat(300)]) {
      // given a key text and its UTF-8 bytes
      const bytes = new TextEncoder().encode(text)
      // when both are digested
      murmur3String(text, 7, out)
      murmur3x86_128(bytes, bytes.length, 7, expected)
      // then the digests are the same
      expect([...out]).toEqual([...expected])
    }
  })

  it("gives different digests for different seeds and for texts one character apart", () => {
    const a = new Uint32Array(4)
    const b = new Uint32Array(4)
    murmur3String("0x01", 1, a)
    murmur3String("0x01", 2, b)
    expect([...a]).not.toEqual([...b])
    murmur3String("0x02", 1, b)
    expect([...a]).not.toEqual([...b])
  })
})
