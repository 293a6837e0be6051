import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { hasInvalidText } from "../../src/source/InvalidText.ts"
import { parseJsonLossless } from "../../src/source/LosslessJson.ts"
import { parseJson } from "../../src/source/Response.ts"
import { parseSplit, type SplitOptions } from "../../src/source/SplitJson.ts"
import { rawTexts } from "../../src/transform/RawText.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)
/** Every array of the body is split, at every comma. */
const everyComma: SplitOptions = { minArrayBytes: 0, pieceBytes: 1 }
const split = (text: string, options: SplitOptions = everyComma) => parseSplit(utf8(text), options)

/** A page whose `transactions` make a body above the default 64 KB. */
const largePage = (records: ReadonlyArray<string>) => `{"transactions": [${records.join(", ")}], "nextPageToken": "tok"}`
const record = (i: number) => `{"txHash": "0x${i.toString(16).padStart(64, "0")}", "amount": ${1000 + i}, "memo": "${"m".repeat(200)}"}`

describe("parseSplit", () => {
  it.each([
    ["a REST page", '{"delegators": [{"a": 1}, {"b": [1, 2, {"c": "]"}]}, {}], "nextPageToken": "t"}'],
    ["a body that is an array", ' [ 1, "two", {"three": [3]}, [4, [5]], null, true, -0.5e3 ] \n'],
    ["a JSON-RPC answer", '{"jsonrpc": "2.0", "id": 1, "result": {"utxos": ["0x1", "0x2", "0x3"], "endIndex": {"address": "X-a", "utxo": "u"}, "numFetched": "3"}}'],
    ["two lists and an empty one", '{"a": [1, 2], "b": {"c": [3, 4]}, "d": [], "e": [ ]}'],
    ["strings holding structure", '{"items": ["a,b", "[", "]", "{\\"}", "\\\\", "\\\\\\"", "\\u005d", "é, ü, 漢字, 🙂"]}'],
    ["big integers in records and envelope", '{"n": 18446744073709551616, "items": [{"w": 123456789012345678901234567890}, -99999999999999999999, 1.5]}'],
    ["arrays deeper than they are split", '{"a": {"b": {"c": [1, 2]}}, "l": [[1, 2], [3, [4, 5]]]}'],
    ["whitespace everywhere", '\n\t{ "items" :\r\n [ 1 ,\n 2 , \t3 ] , "x" : [ ] }\n']
  ])("given %s, when split at every comma, then the value is the whole parse's", (_name, text) => {
    const parsed = split(text)
    expect(parsed).toBeDefined()
    expect(parsed!.value).toEqual(parseJsonLossless(text))
    expect(parsed!.validUtf8).toBe(true)
  })

  it("given a large page with one integer above 2^53 among many records, when split, then it alone is a bigint, exact", () => {
    const records = Array.from({ length: 600 }, (_, i) => record(i).replace(`"amount": ${1000 + i}`, `"amount": ${i === 431 ? "18446744073709551617" : 1000 + i}, "note": "${"9".repeat(20)}"`))
    const text = largePage(records)
    const parsed = split(text, { minArrayBytes: 1024, pieceBytes: 4096 })
    const items = (parsed!.value as { transactions: Array<{ amount: unknown; note: unknown }> }).transactions
    expect(items[431]!.amount).toBe(18446744073709551617n)
    expect(items[430]!.amount).toBe(1430)
    expect(items[0]!.note).toBe("9".repeat(20))
    expect(parsed!.value).toEqual(parseJsonLossless(text))
  })

  it("given a duplicate key, when split, then the last one wins as in JSON.parse, whichever holds the list", () => {
    for (const text of ['{"items": [1, 2], "items": "x"}', '{"items": "x", "items": [1, 2]}', '{"r": {"items": [1], "items": [2, 3]}}']) {
      expect(split(text)!.value).toEqual(JSON.parse(text))
    }
  })

  it("given a list under the key __proto__, when split, then it is an own property and the prototype is untouched", () => {
    const value = split('{"__proto__": [1, 2], "a": {"__proto__": [3]}}')!.value as Record<string, any>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")!.value).toEqual([1, 2])
    expect(Object.getOwnPropertyDescriptor(value.a, "__proto__")!.value).toEqual([3])
    expect(value).toEqual(JSON.parse('{"__proto__": [1, 2], "a": {"__proto__": [3]}}'))
  })

  it("given a string the service sent that looks like our marker, when split, then it stays a string", () => {
    const forged = "\u0000chainetl-part-000000000000:0"
    const text = `{"s": ${JSON.stringify(forged)}, "items": [${JSON.stringify(forged)}]}`
    expect(split(text)!.value).toEqual({ s: forged, items: [forged] })
  })

  it("given small bodies or bodies without a large list, when asked with the defaults, then they are left to the whole parse", () => {
    expect(parseSplit(utf8('{"items": [1, 2, 3]}'))).toBeUndefined()
    expect(parseSplit(utf8(`{"blob": "${"x".repeat(100_000)}"}`))).toBeUndefined()
    expect(parseSplit(utf8(`"just a string"`), everyComma)).toBeUndefined()
    // a byte-order mark: the whole parse strips it, as it always did
    expect(parseSplit(utf8(`\uFEFF{"items": [1]}`), everyComma)).toBeUndefined()
  })

  it.each([
    ["a trailing comma", '{"items": [1, 2,]}'],
    ["an empty element", '{"items": [1,, 2]}'],
    ["a leading comma", '[, 1]'],
    ["mismatched brackets", '{"items": [{"a": 1]}]}'],
    ["a close without an open", '{"items": [1]}]'],
    ["trailing text", '{"items": [1, 2]} x'],
    ["a truncated body", '{"items": [1, 2'],
    ["an unterminated string", '{"items": ["a, 1]}'],
    ["a bad token in a record", '{"items": [{"a": tru}, 2]}'],
    ["a bad envelope", '{"items": [1, 2] "x": 1}'],
    ["a byte-order mark between records", '{"items": [1,\uFEFF2]}']
  ])("given %s, when split, then no value comes back", (_name, text) => {
    let outcome: unknown
    try {
      outcome = split(text)
    } catch {
      outcome = undefined
    }
    expect(outcome).toBeUndefined()
    expect(() => JSON.parse(text)).toThrow()
  })

  it("given random JSON with random spacing, when split at random sizes, then every value is the whole parse's", () => {
    let seed = 7
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rnd() * xs.length)]!
    const space = () => pick(["", "", " ", "\n", "\t ", "\r\n"])
    const scalar = () =>
      pick([
        () => String(Math.floor(rnd() * 1000) - 500),
        () => "12345678901234567890123",
        () => pick(["-12345678901234567890", "1234567890123456", "9007199254740993", "0.12345678901234567890", "12345678901234567.5e2"]),
        () => "1.25e-3",
        () => JSON.stringify(pick(["", "a,b", "]}", "\\", '"', "ü漢🙂", "\u0000"])),
        () => pick(["true", "false", "null"])
      ])()
    const value = (depth: number): string => {
      const r = rnd()
      if (depth > 4 || r < 0.4) return scalar()
      const n = Math.floor(rnd() * 5)
      const items = Array.from({ length: n }, (_, i) =>
        r < 0.7 ? value(depth + 1) : `${JSON.stringify(pick(["a", "b", `k${i}`, "__proto__", "é"]))}${space()}:${space()}${value(depth + 1)}`
      )
      const [open, close] = r < 0.7 ? ["[", "]"] : ["{", "}"]
      return `${open}${space()}${items.join(`${space()},${space()}`)}${space()}${close}`
    }
    let splitCount = 0
    for (let k = 0; k < 400; k++) {
      const text = `${space()}${rnd() < 0.5 ? `{"items":${value(0)},"more":{"x":${value(0)}}}` : value(0)}${space()}`
      const options = { minArrayBytes: Math.floor(rnd() * 20), pieceBytes: 1 + Math.floor(rnd() * 30) }
      const parsed = split(text, options)
      if (parsed === undefined) continue
      splitCount++
      expect(parsed.value, text).toEqual(parseJsonLossless(text))
    }
    expect(splitCount).toBeGreaterThan(100)
  })

  it("given valid bodies with one byte deleted, doubled or replaced, when split, then a value comes back only where the whole parse gives the same", () => {
    let seed = 11
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    const base = '{ "items": [ {"a": [1, 2], "s": "x,]\\"y"}, 3, [4, {"b": null}], "z" ], "next": {"l": [5, 6]}, "n": 12345678901234567890 }'
    const structural = [",", "[", "]", "{", "}", '"', "\\", " ", ":", "1"]
    let accepted = 0
    let rejected = 0
    for (let k = 0; k < 3000; k++) {
      const at = Math.floor(rnd() * base.length)
      const op = Math.floor(rnd() * 3)
      const ch = structural[Math.floor(rnd() * structural.length)]!
      const text = op === 0 ? base.slice(0, at) + base.slice(at + 1) : op === 1 ? base.slice(0, at) + ch + base.slice(at) : base.slice(0, at) + ch + base.slice(at + 1)
      let whole: unknown
      let wholeFailed = false
      try {
        whole = parseJsonLossless(text)
      } catch {
        wholeFailed = true
      }
      let parsed
      try {
        parsed = split(text)
      } catch {
        parsed = undefined
      }
      if (parsed === undefined) {
        rejected++
        continue
      }
      accepted++
      expect(wholeFailed, text).toBe(false)
      expect(parsed.value, text).toEqual(whole)
    }
    expect(accepted).toBeGreaterThan(300)
    expect(rejected).toBeGreaterThan(300)
  })
})

describe("parseJson of a large body", () => {
  it("given a page above 64 KB, when parsed, then its value is the whole parse's and a record's raw text is as sent", () => {
    const records = Array.from({ length: 400 }, (_, i) => record(i))
    records[17] = '{ "txHash" :"0x11",\n "amount": 1.0e3 }'
    const text = largePage(records)
    expect(text.length).toBeGreaterThan(64 * 1024)
    const body = Either.getOrThrow(parseJson("GET test", 200, utf8(text))) as { transactions: unknown[] }
    expect(body).toEqual(JSON.parse(text))
    expect(rawTexts([body])(body.transactions[17])).toBe('{ "txHash" :"0x11",\n "amount": 1.0e3 }')
    expect(rawTexts([body.transactions])(body.transactions[399])).toBe(record(399))
  })

  it("given a large page with one record not valid UTF-8, when parsed, then that record alone is marked and the rest are kept", () => {
    const records = Array.from({ length: 400 }, (_, i) => record(i))
    const bytes = utf8(largePage(records))
    // the 250th record's memo: an `m` becomes a lone continuation byte
    const at = utf8(largePage(records.slice(0, 250))).length - 5 + 150
    expect(bytes[at]).toBe("m".charCodeAt(0))
    bytes[at] = 0x80
    const body = Either.getOrThrow(parseJson("GET test", 200, bytes)) as { transactions: Array<{ memo: string }> }
    expect(body.transactions).toHaveLength(400)
    expect(body.transactions.map((r, i) => (hasInvalidText(r) ? i : -1)).filter((i) => i >= 0)).toEqual([250])
    expect(body.transactions[250]!.memo).toContain("\uFFFD")
    expect(rawTexts([body])(body.transactions[250])).toContain("\uFFFD")
  })

  it("given a large body cut off mid-record, when parsed, then it fails with the whole parse's error, as a transient decode failure", () => {
    const text = largePage(Array.from({ length: 400 }, (_, i) => record(i))).slice(0, 70_000)
    let expected = ""
    try {
      JSON.parse(text)
    } catch (e) {
      expected = (e as Error).message
    }
    const failure = Either.getLeft(parseJson("GET test", 200, utf8(text)))
    expect(failure._tag).toBe("Some")
    const { error, retry } = (failure as any).value
    expect(retry).toBe("transient")
    expect(error.reason).toBe("Decode")
    expect(error.detail).toBe(`body is not valid JSON (70000 bytes): ${expected}`)
  })
})
