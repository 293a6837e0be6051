import { describe, expect, it } from "vitest"
import { Lru } from "../../src/world/primary/lru.ts"

describe("the world's bounded memo", () => {
  it("given a memo that made undefined, when asked again, then it answers undefined without making it again", () => {
    const memo = new Lru<string, string | undefined>(4)
    let made = 0
    expect(memo.get("a", () => (made++, undefined))).toBeUndefined()
    expect(memo.get("a", () => (made++, "other"))).toBeUndefined()
    expect(made).toBe(1)
    expect(memo.has("a")).toBe(true)
  })

  it("given more keys than its capacity, when the oldest are asked, then the recently used ones are kept and at most twice the capacity is held", () => {
    const memo = new Lru<number, number>(3)
    for (let k = 0; k < 4; k++) memo.set(k, k)
    // 0 was used after 1 and 2 were last: it outlives them
    expect(memo.find(0)).toBe(0)
    for (let k = 4; k < 6; k++) memo.set(k, k)
    expect(memo.find(0)).toBe(0)
    expect(memo.has(1)).toBe(false)
    expect(memo.has(2)).toBe(false)
    expect(memo.find(5)).toBe(5)
    expect(memo.get(1, () => 10)).toBe(10)
  })

  it("given an undefined value pushed into the older generation, when asked again, then it is still held as undefined and not made again", () => {
    const memo = new Lru<string, string | undefined>(2)
    let made = 0
    memo.get("nothing", () => (made++, undefined))
    memo.set("b", "b")
    memo.set("c", "c")
    expect(memo.find("nothing")).toBeUndefined()
    expect(memo.has("nothing")).toBe(true)
    expect(memo.get("nothing", () => (made++, "made again"))).toBeUndefined()
    expect(made).toBe(1)
    expect(made).toBe(1)
  })
})
