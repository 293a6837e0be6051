/**
 * TxIdStore: hashed txs' served ids kept as bytes under their packed locators, and back from a
 * served id to what names its tx.
 */
import { describe, expect, it } from "vitest"
import { cb58, sha256 } from "../../src/world/cb58.ts"
import { Kind, type Locator } from "../../src/world/primary/ids.ts"
import { TxIdStore, locatorOfKey, txKey } from "../../src/world/primary/txIdStore.ts"

const servedOf = (i: number): Uint8Array => sha256(`tx ${i}`)

/** Locators spread over kinds and all three coordinates, as the world's txs are. */
const locatorOf = (i: number): Locator => ({ kind: i % 3 === 0 ? Kind.WalletPTx : i % 3 === 1 ? Kind.Validation : Kind.WalletImportXTx, a: i * 97, b: i % 4001, c: i % 251 })

describe("TxIdStore", () => {
  it("given locators at the edges of the packing, when packed and unpacked, then each comes back as it was and those that do not fit are refused", () => {
    const edges: Locator[] = [
      { kind: Kind.PBlock, a: 0, b: 0, c: 0 },
      { kind: Kind.ArchiveAddress, a: 2 ** 27 - 1, b: 4095, c: 255 },
      { kind: Kind.L1Tx, a: 123_456, b: 7, c: 3 }
    ]
    for (const l of edges) expect(locatorOfKey(txKey(l)!)).toEqual(l)
    expect(txKey({ kind: Kind.L1Tx, a: 2 ** 27, b: 0, c: 0 })).toBeUndefined()
    expect(txKey({ kind: Kind.L1Tx, a: 1, b: 4096, c: 0 })).toBeUndefined()
    expect(new Set(edges.map(txKey)).size).toBe(edges.length)
  })

  it("given more txs than a chunk holds and than the first table indexes, when looked up by locator and by served id, then each gives the other", () => {
    // given 70,000 txs (past one chunk of 65,536 and several doublings of the table), two named by string
    const store = new TxIdStore()
    const n = 70_000
    for (let i = 0; i < n; i++) expect(store.add(i === 5 || i === 66_000 ? `adopted-${i}` : txKey(locatorOf(i))!, servedOf(i))).toBe(i)

    // when/then every locator finds its entry, the entry its served id, and the served id the locator
    expect(store.count).toBe(n)
    for (const i of [0, 1, 4, 6, 65_535, 65_536, 65_537, 69_999]) {
      const e = store.find(txKey(locatorOf(i))!)
      expect(e).toBe(i)
      expect(Buffer.from(store.bytes(i)).equals(servedOf(i))).toBe(true)
      expect(store.entryOfServed(cb58(servedOf(i)))).toBe(i)
      expect(locatorOfKey(store.nameOf(i) as number)).toEqual(locatorOf(i))
    }
    for (const i of [5, 66_000]) {
      expect(store.find(`adopted-${i}`)).toBe(i)
      expect(store.nameOf(i)).toBe(`adopted-${i}`)
      expect(store.entryOfServed(cb58(servedOf(i)))).toBe(i)
    }
  })

  it("given a store, when asked for a locator, a string or a served id it does not hold, then it says none", () => {
    const store = new TxIdStore()
    for (let i = 0; i < 10; i++) store.add(txKey(locatorOf(i))!, servedOf(i))
    expect(store.find(txKey(locatorOf(10))!)).toBeUndefined()
    expect(store.find("adopted")).toBeUndefined()
    expect(store.entryOfServed(cb58(servedOf(10)))).toBeUndefined()
  })
})
