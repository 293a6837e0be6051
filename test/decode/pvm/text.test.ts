import * as avalanchejs from "@avalabs/avalanchejs"
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { AddressFormatter, hrpOf } from "../../../src/decode/pvm/address.ts"
import { cb58, recurringIdText } from "../../../src/decode/pvm/text.ts"

const { utils } = avalanchejs as unknown as {
  utils: { format(chain: string, hrp: string, addr: Uint8Array): string; base58check: { encode(b: Uint8Array): string } }
}

const bytesOf = (seed: string, n: number): Uint8Array => {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i += 32) out.set(createHash("sha256").update(`${seed} ${i}`).digest().subarray(0, Math.min(32, n - i)), i)
  return out
}

describe("address and id text", () => {
  it("given 200 addresses and every hrp, when formatted, then each equals avalanchejs' bech32", () => {
    for (const hrp of ["avax", "fuji", "local", "custom", "testing", "cascade", "denali", "everest"]) {
      const f = new AddressFormatter("P", hrp)
      for (let i = 0; i < 200; i++) {
        const addr = bytesOf(`${hrp} ${i}`, 20)
        expect(f.format(addr)).toBe(utils.format("P", hrp, addr))
      }
    }
    const zero = new Uint8Array(20)
    expect(new AddressFormatter("X", "avax").format(zero)).toBe(utils.format("X", "avax", zero))
  })

  it("given avalanchego's network ids, when their hrp is looked up, then it is utils/constants' NetworkIDToHRP, else custom", () => {
    expect([1, 2, 3, 4, 5, 10, 12345, 0, 6, 1337].map(hrpOf)).toEqual(["avax", "cascade", "denali", "everest", "fuji", "testing", "local", "custom", "custom", "custom"])
  })

  it("given ids with and without leading zero bytes, when written as cb58, then each equals avalanchejs' base58check", () => {
    const samples = [new Uint8Array(32), Uint8Array.of(0, 0, 1, ...bytesOf("z", 29)), ...Array.from({ length: 100 }, (_, i) => bytesOf(`id ${i}`, 32)), bytesOf("short", 20)]
    for (const b of samples) expect(cb58(b)).toBe(utils.base58check.encode(b))
  })

  it("given ids that share their first and last two bytes, when written as recurring ids, then each still gets its own text", () => {
    const a = bytesOf("a", 32)
    const b = new Uint8Array(a)
    b[10] = (b[10] as number) ^ 0xff

    const texts = [recurringIdText(a), recurringIdText(b), recurringIdText(a), recurringIdText(b.subarray(0, 20))]

    expect(texts).toEqual([cb58(a), cb58(b), cb58(a), cb58(b.subarray(0, 20))])
  })
})
