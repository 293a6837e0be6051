import { createHash, randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { sha256 } from "../../src/world/cb58.ts"
import { MAX_COUNTED, SMALL_INPUT, sha256Ascii, sha256AsciiCounted, sha256Bytes } from "../../src/world/sha256.ts"

const reference = (b: Uint8Array | string): Buffer => createHash("sha256").update(b).digest()

/** Lengths around each block boundary (55/56 bytes is where the length spills into a second block). */
const LENGTHS = [...Array.from({ length: SMALL_INPUT + 1 }, (_, n) => n)]

describe("sha256 in JavaScript (short inputs)", () => {
  it("given random bytes of every length up to the limit, when hashed, then the digest equals node:crypto's", () => {
    for (const n of LENGTHS) {
      for (let trial = 0; trial < 3; trial++) {
        const b = new Uint8Array(randomBytes(n))
        expect(Buffer.from(sha256Bytes(b, new Uint8Array(32))).toString("hex")).toBe(reference(b).toString("hex"))
      }
    }
  })

  it("given all-zero and all-0xff bytes, when hashed, then the digests equal node:crypto's", () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, SMALL_INPUT]) {
      for (const b of [new Uint8Array(n), new Uint8Array(n).fill(255)]) {
        expect(Buffer.from(sha256Bytes(b, new Uint8Array(32))).toString("hex")).toBe(reference(b).toString("hex"))
      }
    }
  })

  it("given ASCII text of every length up to the limit, when hashed, then the digest equals node:crypto's of its UTF-8 bytes", () => {
    for (const n of LENGTHS) {
      const s = randomBytes(n).toString("base64").slice(0, n).padEnd(n, "|")
      const out = new Uint8Array(32)
      expect(sha256Ascii(s, out)).toBe(true)
      expect(Buffer.from(out).toString("hex")).toBe(reference(s).toString("hex"))
    }
  })

  it("given text that is not ASCII or too long, when hashed as ASCII, then it declines and writes nothing", () => {
    const out = new Uint8Array(32)
    expect(sha256Ascii("seed|é|0", out)).toBe(false)
    expect(sha256Ascii("x".repeat(SMALL_INPUT + 1), out)).toBe(false)
    expect(out.every((x) => x === 0)).toBe(true)
  })

  it("given more bytes than the limit, when hashed by sha256Bytes, then it throws a RangeError", () => {
    expect(() => sha256Bytes(new Uint8Array(SMALL_INPUT + 1), new Uint8Array(32))).toThrow(RangeError)
  })

  it("given inputs either side of where cb58.ts switches to node:crypto, text with non-ASCII characters and a long block, when hashed by the emulator's sha256, then the digests equal node:crypto's", () => {
    const inputs: Array<Uint8Array | string> = [
      ...[0, 32, 55, 56, 100, 119, 120, 300, 5000].map((n) => new Uint8Array(randomBytes(n))),
      ...[0, 30, 119, 120, 400].map((n) => "a".repeat(n)),
      "1|sig|2JrAk5H7ekn95aB1VbVjJuGY6ouTRURqFAPj1fg4KDs5Nrb8Zz|0|0|1",
      "naïve|ünïcode|0"
    ]
    for (const b of inputs) expect(sha256(b).toString("hex")).toBe(reference(b).toString("hex"))
  })

  it("given two digests made one after the other, when the first is read after the second is made, then it still holds its own digest", () => {
    const first = sha256(new Uint8Array([1, 2, 3]))
    const kept = first.toString("hex")
    sha256(new Uint8Array([4, 5, 6]))
    expect(first.toString("hex")).toBe(kept)
  })

  it("given ASCII prefixes of every length up to the limit and up to ten counters, when hashed in counter mode, then each digest equals node:crypto's of the prefix and the counter", () => {
    for (let n = 0; n < SMALL_INPUT; n++) {
      const prefix = randomBytes(n).toString("hex").slice(0, n).padEnd(n, "|")
      for (const count of [1, 3, MAX_COUNTED]) {
        const out = new Uint8Array(count * 32)
        expect(sha256AsciiCounted(prefix, count, out)).toBe(true)
        for (let c = 0; c < count; c++) expect(Buffer.from(out.subarray(c * 32, c * 32 + 32)).toString("hex")).toBe(reference(prefix + c).toString("hex"))
      }
    }
  })

  it("given a prefix that is not ASCII, too long, or more than ten counters, when hashed in counter mode, then it declines and writes nothing", () => {
    const out = new Uint8Array(11 * 32)
    expect(sha256AsciiCounted("seed|é|", 1, out)).toBe(false)
    expect(sha256AsciiCounted("x".repeat(SMALL_INPUT), 1, out)).toBe(false)
    expect(sha256AsciiCounted("seed|", MAX_COUNTED + 1, out)).toBe(false)
    expect(out.every((x) => x === 0)).toBe(true)
  })
})
