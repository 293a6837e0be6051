/**
 * The listing guard's digest table: every digest set is found again with its latest value, across
 * the table's growth, and digests never set read as absent (0), even those sharing a first word
 * (the probe start) with one that was set.
 */
import { describe, expect, it } from "vitest"
import { DigestTable } from "../../src/crawl/DigestTable.ts"
import { murmur3String } from "../../src/crawl/Murmur3.ts"

const digestOf = (text: string): Uint32Array => {
  const d = new Uint32Array(4)
  murmur3String(text, 1, d)
  return d
}

describe("DigestTable", () => {
  it("finds 100,000 digests again with their latest values, through its growth", () => {
    // given 100,000 keys set once, and every third set again with another value
    const table = new DigestTable()
    for (let i = 0; i < 100_000; i++) table.set(digestOf(`key-${i}`), (i % 7) + 1)
    for (let i = 0; i < 100_000; i += 3) table.set(digestOf(`key-${i}`), 9)
    // then each holds its latest value, the count is of distinct digests, and other keys are absent
    const wrong: string[] = []
    for (let i = 0; i < 110_000; i++) {
      const want = i >= 100_000 ? 0 : i % 3 === 0 ? 9 : (i % 7) + 1
      const got = table.get(digestOf(`key-${i}`))
      if (got !== want) wrong.push(`key-${i}: ${got}, not ${want}`)
    }
    expect(table.size).toBe(100_000)
    expect(wrong).toEqual([])
  })

  it("tells apart digests that start at the same slot", () => {
    // given two digests equal in their first three words (the same probe start)
    const table = new DigestTable()
    const a = Uint32Array.of(5, 6, 7, 8)
    const b = Uint32Array.of(5, 6, 7, 9)
    table.set(a, 1)
    // then the second is absent until set, and each keeps its own value
    expect(table.get(b)).toBe(0)
    table.set(b, 2)
    expect([table.get(a), table.get(b), table.size]).toEqual([1, 2, 2])
  })

  it("given getAndSet, when a digest is set the first time and then again, then it answers 0 and then the value it replaced", () => {
    const table = new DigestTable()
    const a = digestOf("0xabc")
    expect(table.getAndSet(a, 3)).toBe(0)
    expect(table.getAndSet(a, 5)).toBe(3)
    expect([table.get(a), table.size]).toEqual([5, 1])
  })

  it("given 300,000 digests inserted with getAndSet, when the table grows from 1,024 slots and another is sized for them up front, then both hold exactly those digests with their values", () => {
    // given the same keys into a growing table and into one sized for 300,000
    const growing = new DigestTable()
    const sized = new DigestTable(300_000)
    const fresh: number[] = []
    for (let i = 0; i < 300_000; i++) {
      const d = digestOf(`0x${i.toString(16).padStart(64, "0")}`)
      if (growing.getAndSet(d, (i % 5) + 1) !== 0) fresh.push(i)
      if (sized.getAndSet(d, (i % 5) + 1) !== 0) fresh.push(i)
    }
    // then no key was taken for one already held, and each table finds all of them and nothing else
    expect(fresh).toEqual([])
    expect([growing.size, sized.size]).toEqual([300_000, 300_000])
    const wrong: string[] = []
    for (let i = 0; i < 310_000; i++) {
      const d = digestOf(`0x${i.toString(16).padStart(64, "0")}`)
      const want = i < 300_000 ? (i % 5) + 1 : 0
      if (growing.get(d) !== want || sized.get(d) !== want) wrong.push(`${i}: ${growing.get(d)}/${sized.get(d)}, not ${want}`)
    }
    expect(wrong).toEqual([])
  })
})
