import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { bytes } from "../../src/world/rng.ts"
import { Kind, cb58, encodeId } from "../../src/world/primary/ids.ts"
import { makeWorld } from "./support.ts"

// NetCtx.id memoises ids under a numeric key where a locator's coordinates fit it, a string
// otherwise: whichever key an id is held under, it must be the id its locator encodes to
describe("a network's locator ids, memoised", () => {
  const ctx = makeWorld(7, 1).primary.network("mainnet").ctx
  const expected = (kind: Kind, a: number, b: number, c: number): string => cb58(encodeId(ctx.seed, ctx.name, { kind, a, b, c }, 32))

  it("given locators at the edges of the numeric key and past them, asked twice in turn, then each id is its locator's encoding", () => {
    const edges: Array<readonly [Kind, number, number, number]> = [
      [Kind.Validation, 0, 0, 0],
      [Kind.Validation, 2 ** 27 - 1, 4095, 255],
      [Kind.Validation, 2 ** 27, 0, 0],
      [Kind.Validation, 1, 4096, 0],
      [Kind.Validation, 0, 4096, 0],
      [Kind.Validation, 1, 0, 0],
      [Kind.Delegation, 1, 0, 4],
      [Kind.ExternalTx, 2 ** 27 + 5, 3, 200],
      [Kind.ArchiveAddress, 2 ** 28 - 1, 2 ** 20 - 1, 255],
      [Kind.PBlock, 12, 0, 0],
      [Kind.XBlock, 12, 0, 0]
    ]
    for (let round = 0; round < 2; round++) {
      for (const [kind, a, b, c] of edges) expect(ctx.id(kind, a, b, c)).toBe(expected(kind, a, b, c))
    }
    expect(new Set(edges.map(([kind, a, b, c]) => ctx.id(kind, a, b, c))).size).toBe(edges.length)
  })

  it("given a non-integer or out-of-range coordinate, then the id is refused even after its neighbours were made", () => {
    ctx.id(Kind.Validation, 1, 2048, 0)
    expect(() => ctx.id(Kind.Validation, 1.5, 0, 0)).toThrow(RangeError)
    expect(() => ctx.id(Kind.Validation, 2 ** 28, 0, 0)).toThrow(RangeError)
    expect(() => ctx.id(Kind.Validation, 0, 0, 256)).toThrow(RangeError)
  })

  it("given block ids of both chains at one height, then each is its chain's block locator", () => {
    expect(ctx.blockId("P", 5)).toBe(expected(Kind.PBlock, 5, 0, 0))
    expect(ctx.blockId("X", 5)).toBe(expected(Kind.XBlock, 5, 0, 0))
    expect(ctx.blockId("X", 0)).toBe(expected(Kind.XBlock, 0, 0, 0))
    expect(ctx.blockId("P", 0)).toBe(expected(Kind.PBlock, 0, 0, 0))
  })
})

// encodeId writes the layout's hashes from scratch buffers: every id must be the layout's bytes
describe("locator ids, as their layout defines them", () => {
  /** The head `bytes(seed, size - tail, "id", network, size, packed)`, then the packed locator's tail XOR sha256(head ‖ "|mask|seed"). */
  const layout = (seed: number, network: string, kind: Kind, a: number, b: number, c: number, size: 32 | 20): string => {
    const tail = size === 32 ? 8 : 7
    const packed = ((BigInt(kind) << 56n) | (BigInt(a) << 28n) | (BigInt(b) << 8n) | BigInt(c)) >> (size === 32 ? 0n : 8n)
    const head = bytes(seed, size - tail, "id", network, size, packed)
    const mask = createHash("sha256").update(Buffer.concat([head, Buffer.from(`|mask|${seed}`)])).digest()
    const t = Buffer.alloc(8)
    t.writeBigUInt64BE(packed)
    const out = Buffer.concat([head, t.subarray(8 - tail).map((x, i) => x ^ mask[i]!)])
    return out.toString("hex")
  }

  it("given locators from small to the coordinates' limits, seeds and networks, when encoded at both sizes, then the bytes are the layout's", () => {
    const locators: Array<readonly [Kind, number, number]> = [
      [Kind.PBlock, 0, 0],
      [Kind.Validation, 7, 3],
      [Kind.Delegation, 123_456, 4095],
      [Kind.ExternalTx, 2 ** 27 + 5, 3],
      [Kind.ArchiveAddress, 2 ** 28 - 1, 2 ** 20 - 1],
      [Kind.Address, 99_999_937, 0]
    ]
    for (const seed of [0, 1, 7, 4_000_000_001]) {
      for (const network of ["mainnet", "fuji"]) {
        for (const [kind, a, b] of locators) {
          for (const c of [0, 1, 255]) expect(Buffer.from(encodeId(seed, network, { kind, a, b, c }, 32)).toString("hex")).toBe(layout(seed, network, kind, a, b, c, 32))
          expect(Buffer.from(encodeId(seed, network, { kind, a, b, c: 0 }, 20)).toString("hex")).toBe(layout(seed, network, kind, a, b, 0, 20))
        }
      }
    }
  })
})
