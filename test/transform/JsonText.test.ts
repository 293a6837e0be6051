import { describe, expect, it } from "vitest"
import { jsonText } from "../../src/transform/JsonText.ts"
import { rejectRow } from "../../src/transform/Rejects.ts"

describe("jsonText", () => {
  it("given records of every JSON shape, when written, then the text is JSON.stringify's (bigints as strings of digits)", () => {
    const records: unknown[] = [
      { a: 1, b: "x\"y\\z\u0000", c: [1, null, true, { d: [] }], e: {}, f: undefined, g: 12345678901234567890n },
      [undefined, 1.5, -0, Number.NaN, "é"],
      "text",
      null,
      7
    ]
    for (const r of records) {
      expect(jsonText(r)).toBe(JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v)))
    }
  })

  it("given a record 100,000 levels deep, when a reject is made of it, then its raw text is the whole record, not [object Object]", () => {
    let deep: unknown = { leaf: 1n }
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const record = { txHash: "0xabc", deep }
    const row = rejectRow("staking_transactions", { id: "s", dataset: "staking_transactions", params: {} } as never, { runId: "r", ingestedAt: new Date(0), page: 3 }, record, "too deep")
    const raw = row["raw"] as string
    expect(raw.startsWith('{"txHash":"0xabc","deep":[[[')).toBe(true)
    expect(raw.endsWith('{"leaf":"1"}' + "]".repeat(100_000) + "}")).toBe(true)
    expect(raw.length).toBe('{"txHash":"0xabc","deep":'.length + 2 * 100_000 + '{"leaf":"1"}'.length + 1)
  })
})
