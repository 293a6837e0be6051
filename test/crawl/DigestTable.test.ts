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
})
