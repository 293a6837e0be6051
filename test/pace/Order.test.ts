import { describe, expect, it } from "vitest"
import { startOrder } from "../../src/pace/Order.ts"

const w = (to: string, chain = "c-chain") => ({ params: { blockchain: chain, from: "x", to } })

describe("the order slices start in", () => {
  it("given windows of two chains, oldest first as planned, when ordered, then the newest windows of both start first", () => {
    const slices = [w("2024-07-01T00:00:00Z"), w("2024-07-15T00:00:00Z"), w("2024-07-01T00:00:00Z", "p-chain"), w("2024-07-15T00:00:00Z", "p-chain")]
    expect(startOrder(slices)).toEqual([1, 3, 0, 2])
  })

  it("given height windows, when ordered, then 1000 comes before 999 (heights by value, not as text)", () => {
    expect(startOrder([w("999"), w("1000"), w("20")])).toEqual([1, 0, 2])
  })

  it("given slices without a window, when ordered, then they keep their order after the windows", () => {
    const slices = [{ params: { chain: "a" } }, w("2024-07-01T00:00:00Z"), { params: { chain: "b" } }]
    expect(startOrder(slices)).toEqual([1, 0, 2])
  })
})
