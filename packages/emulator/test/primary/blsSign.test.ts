import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { avax } from "../../src/world/primary/avax.ts"
import { blsBackend, blsSign, referenceBlsSign } from "../../src/world/primary/blsSign.ts"

/** A secret key as warp.ts makes one: 32 pseudo-random bytes, the top two bits cleared (below the group order). */
const secretOf = (i: number): Uint8Array => {
  const b = new Uint8Array(createHash("sha256").update(`sk-${i}`).digest())
  b[0] = b[0]! & 0x3f
  return b
}
const messageOf = (i: number): Uint8Array => new Uint8Array(createHash("sha512").update(`msg-${i}`).digest()).subarray(0, 40 + i * 7)

describe("the emulator's BLS signatures", () => {
  it("given a Linux x64 machine (CI's), when the module loads, then blst signs, not the JavaScript fallback", ({ skip }) => {
    skip(process.platform !== "linux" || process.arch !== "x64", `checked on Linux x64 only; on ${process.platform}/${process.arch} blst may fall back`)
    expect(blsBackend).toBe("blst")
  })

  it("given 12 keys and messages, when signed, then each signature is avalanchejs' own, byte for byte, and a G2 point avalanchejs decodes", () => {
    for (let i = 0; i < 12; i++) {
      const sig = blsSign(messageOf(i), secretOf(i))
      expect(sig.length).toBe(96)
      expect(Buffer.from(sig).toString("hex")).toBe(Buffer.from(referenceBlsSign(messageOf(i), secretOf(i))).toString("hex"))
      expect(() => avax.bls.signatureFromBytes(sig)).not.toThrow()
    }
  })

  it("given a signature, when the message or the key differs by one byte, then the signature differs", () => {
    const base = blsSign(messageOf(3), secretOf(3))
    const otherMessage = messageOf(3).slice()
    otherMessage[0] = otherMessage[0]! ^ 1
    const otherKey = secretOf(3).slice()
    otherKey[31] = otherKey[31]! ^ 1
    expect(Buffer.from(blsSign(otherMessage, secretOf(3))).equals(Buffer.from(base))).toBe(false)
    expect(Buffer.from(blsSign(messageOf(3), otherKey)).equals(Buffer.from(base))).toBe(false)
  })
})
