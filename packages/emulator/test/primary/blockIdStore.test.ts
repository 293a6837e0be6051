/**
 * BlockIdStore: served block ids by height in typed arrays, and back from an id to its height.
 */
import { describe, expect, it } from "vitest"
import { cb58, sha256 } from "../../src/world/cb58.ts"
import { BlockIdStore } from "../../src/world/primary/blockIdStore.ts"

const idOf = (h: number): Uint8Array => sha256(`block ${h}`)

describe("BlockIdStore", () => {
  it("given more ids than a chunk holds and than the first table indexes, when read back by height and by id, then each gives the other", () => {
    // given 70,000 ids: past one chunk (65,536) and past several doublings of the table
    const store = new BlockIdStore()
    const n = 70_000
    for (let h = 0; h < n; h++) store.push(idOf(h))

    // when/then every height gives its id, and its id its height
    expect(store.count).toBe(n)
    for (const h of [0, 1, 65_535, 65_536, 65_537, n - 1]) {
      expect(Buffer.from(store.bytes(h)).equals(idOf(h))).toBe(true)
      expect(store.text(h)).toBe(cb58(idOf(h)))
      expect(store.heightOf(cb58(idOf(h)))).toBe(h)
    }
  })

  it("given a store, when asked for an id it does not hold or a height not hashed, then it says none or refuses", () => {
    const store = new BlockIdStore()
    for (let h = 0; h < 10; h++) store.push(idOf(h))
    expect(store.heightOf(cb58(idOf(10)))).toBeUndefined()
    expect(store.heightOf("not-an-id")).toBeUndefined()
    expect(store.heightOf(cb58(new Uint8Array(20)))).toBeUndefined()
    expect(() => store.bytes(10)).toThrow(/not hashed yet/)
  })
})
