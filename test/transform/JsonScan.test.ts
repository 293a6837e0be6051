import { describe, expect, it } from "vitest"
import { locate, membersAt, skipSpace, valueEnd } from "../../src/transform/JsonScan.ts"

const at = (text: string, path: ReadonlyArray<string | number>): string | undefined => {
  const span = locate(text, path)
  return span === undefined ? undefined : text.slice(span[0], span[1])
}

describe("JsonScan", () => {
  it("given strings holding escaped quotes, backslashes and brackets, when members are scanned, then each value is cut whole", () => {
    const first = String.raw`{"a": "x\"]}[{", "b\\": "\\", "c": "\\\"}"}`
    const second = String.raw`{ "note" : "she said \"[not a bracket]\" {nor this}", "n": -1.0e3 }`
    const text = `[ ${first} ,${second}, "]", 12, true, null, [] , {} ]`
    expect(JSON.parse(text)).toBeTruthy()
    expect(at(text, [0])).toBe(first)
    expect(at(text, [1])).toBe(second)
    expect(at(text, [1, "note"])).toBe(String.raw`"she said \"[not a bracket]\" {nor this}"`)
    expect(at(text, [1, "n"])).toBe("-1.0e3")
    expect(at(text, [0, "b\\"])).toBe(String.raw`"\\"`)
    expect(at(text, [0, "c"])).toBe(String.raw`"\\\"}"`)
    expect([2, 3, 4, 5, 6, 7].map((i) => at(text, [i]))).toEqual(['"]"', "12", "true", "null", "[]", "{}"])
    expect(at(text, [8])).toBeUndefined()
  })

  it("given non-ASCII text, astral characters and escaped keys, when located, then the characters are the ones sent and keys match as JSON.parse decodes them", () => {
    const text = '{"\\u0061mount":"1.0e3","naïve":{"v":"日本 🦊 \\ud83e\\udd8a"},"x":[ "é" ]}'
    expect(at(text, ["amount"])).toBe('"1.0e3"')
    expect(at(text, ["naïve"])).toBe('{"v":"日本 🦊 \\ud83e\\udd8a"}')
    expect(at(text, ["x", 0])).toBe('"é"')
  })

  it("given a key sent twice, when located, then the last one is found, as JSON.parse keeps it", () => {
    const text = '{"k": {"first": 1}, "k": {"second": 2}}'
    expect(JSON.parse(text)).toEqual({ k: { second: 2 } })
    expect(at(text, ["k"])).toBe('{"second": 2}')
  })

  it("given whitespace of every kind around values, when located, then the span starts and ends at the value itself", () => {
    const text = ' \n\t{ "items" :\r\n [ \n  { "id" : 1 }\t,\n\n  {"id":2}  ] } \n'
    expect(at(text, [])).toBe('{ "items" :\r\n [ \n  { "id" : 1 }\t,\n\n  {"id":2}  ] }')
    expect(at(text, ["items", 0])).toBe('{ "id" : 1 }')
    expect(at(text, ["items", 1])).toBe('{"id":2}')
    expect(at(text, ["items", 1, "id"])).toBe("2")
    expect(skipSpace(text, 0)).toBe(3)
  })

  it("given a value nested 300,000 levels deep, when scanned, then no stack overflows and the value and the one after it are found", () => {
    const depth = 300_000
    const deep = `${"[".repeat(depth)}{"s":"]]]"}${"]".repeat(depth)}`
    const text = `{"records":[{"deep":${deep},"after":"here"},{"next":true}]}`
    expect(at(text, ["records", 0, "deep"])).toBe(deep)
    expect(at(text, ["records", 0, "after"])).toBe('"here"')
    expect(at(text, ["records", 1])).toBe('{"next":true}')
    expect(valueEnd(deep, 0)).toBe(deep.length)
  })

  it("given an array's and an object's members, when scanned, then the kind and every span come back", () => {
    const members = membersAt('[1, "two" ,{"3":3}]', 0)
    expect(members.kind).toBe("array")
    expect(members.kind === "array" && members.spans).toEqual([
      [1, 2],
      [4, 9],
      [11, 18]
    ])
    const fields = membersAt('{"a":1,"b":[2]}', 0)
    expect(fields.kind === "object" && [...fields.spans.keys()]).toEqual(["a", "b"])
  })

  it("given a text that is not JSON, when scanned, then it throws rather than guessing", () => {
    expect(() => locate('{"a": "unterminated', ["a"])).toThrow(/JSON scan/)
    expect(() => locate('{"a" 1}', ["a"])).toThrow(/JSON scan/)
    expect(() => membersAt("12", 0)).toThrow(/JSON scan/)
  })
})
