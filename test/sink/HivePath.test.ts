import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { MAX_ENCODED, decodeValue, encodeValue, isInside, isShortened, partitionDir } from "../../src/sink/HivePath.ts"

const HOSTILE = [
  "../../etc",
  "..",
  ".",
  ".hidden",
  "a/b",
  "a\\b",
  "/abs",
  "100%",
  "%2F",
  "nul\u0000byte",
  "k=v",
  "Abc",
  "abc",
  "ABC",
  "NULL",
  "null",
  "Null",
  "__HIVE_DEFAULT_PARTITION__",
  "con",
  "lpt1.txt",
  "a b+c~d",
  "€uro",
  "日本",
  "🦆",
  "",
  "x".repeat(500),
  "é".repeat(300)
]

describe("encodeValue", () => {
  it("given hostile values when encoded then each is one safe segment of kept chars and %XX escapes", () => {
    for (const value of HOSTILE) {
      const encoded = encodeValue(value)
      expect(encoded).toMatch(/^([a-z0-9_.-]|%[0-9A-F]{2}|~)*$/)
      expect(encoded).not.toMatch(/^\./)
      expect(encoded.length).toBeLessThanOrEqual(MAX_ENCODED)
    }
  })

  it("given values that are not too long when decoded then the original comes back", () => {
    for (const value of HOSTILE.filter((v) => !isShortened(encodeValue(v)))) {
      expect(decodeValue(encodeValue(value))).toBe(value)
    }
    expect(encodeValue("a/b")).toBe("a%2Fb")
    expect(encodeValue("..")).toBe("%2E.")
    expect(encodeValue("null")).toBe("%6Eull")
    expect(encodeValue("2024-05-31")).toBe("2024-05-31")
    expect(encodeValue("43114")).toBe("43114")
  })

  it("given values differing only in case when encoded then the results differ even ignoring case", () => {
    const folded = new Set(["Abc", "abc", "ABC", "aBc"].map((v) => encodeValue(v).toLowerCase()))
    expect(folded.size).toBe(4)
  })

  it("given distinct hostile values when encoded then no two collide", () => {
    const long = "x".repeat(500)
    const values = [...HOSTILE, `${long}y`, long.slice(0, 111)]
    const encoded = values.map(encodeValue)
    expect(new Set(encoded).size).toBe(new Set(values).size)
  })

  it("given a very long value when encoded then it is cut between whole characters and ends with ~ and a hash", () => {
    const encoded = encodeValue("é".repeat(300))
    expect(encoded).toMatch(/^(%C3%A9)+~[0-9a-f]{16}$/)
    expect(encodeValue("x".repeat(500))).toMatch(new RegExp(`^x{${MAX_ENCODED - 17}}~[0-9a-f]{16}$`))
  })

  it("given a string with a lone surrogate when encoded then it is refused", () => {
    expect(() => encodeValue("a\uD800b")).toThrow(/not well-formed/)
  })
})

describe("partitionDir", () => {
  it("given hostile values when joined under an output folder then the path stays inside the dataset folder", () => {
    const out = "/data/out"
    for (const value of HOSTILE) {
      const dir = path.join(out, partitionDir("blocks", [["network", value], ["date", value]]))
      expect(isInside(path.join(out, "blocks"), dir)).toBe(true)
      expect(path.relative(path.join(out, "blocks"), dir).split(path.sep)).toHaveLength(2)
    }
  })

  it("given a dataset or key that is not snake_case when joined then it throws naming it", () => {
    expect(() => partitionDir("../x", [])).toThrow(/dataset "..\/x" is not snake_case/)
    expect(() => partitionDir("Blocks", [])).toThrow(/dataset "Blocks"/)
    expect(() => partitionDir("blocks", [["Date", "x"]])).toThrow(/partition key "Date"/)
    expect(() => partitionDir("blocks", [["a=b", "x"]])).toThrow(/partition key "a=b"/)
    expect(() => partitionDir("blocks", [["d", "x"], ["d", "y"]])).toThrow(/appears twice/)
  })
})
