/**
 * Prices (seed: Price {currencyCode, value string}). Kept in millionths as bigint so a balance's
 * value is computed exactly and written as a decimal string.
 */
import { h32, saltOf } from "../hash.ts"

export const CURRENCIES = ["usd", "eur", "aud", "cad", "chf", "clp", "cny", "czk", "dkk", "gbp", "hkd", "huf", "jpy", "nzd"] as const
export type Currency = (typeof CURRENCIES)[number]

export const isCurrency = (s: string): s is Currency => (CURRENCIES as ReadonlyArray<string>).includes(s)

/** Units of each currency per US dollar, in millionths (fixed: the emulator has no FX market). */
const PER_USD_MICRO: Readonly<Record<Currency, bigint>> = {
  usd: 1_000_000n,
  eur: 920_000n,
  aud: 1_520_000n,
  cad: 1_370_000n,
  chf: 880_000n,
  clp: 940_000_000n,
  cny: 7_200_000n,
  czk: 23_100_000n,
  dkk: 6_860_000n,
  gbp: 790_000n,
  hkd: 7_810_000n,
  huf: 365_000_000n,
  jpy: 151_000_000n,
  nzd: 1_660_000n
}

export interface Price {
  readonly currencyCode: Currency
  readonly value: string
}

const formatMicro = (micro: bigint): string => {
  const neg = micro < 0n
  const a = neg ? -micro : micro
  const frac = (a % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "")
  return `${neg ? "-" : ""}${a / 1_000_000n}${frac ? "." + frac : ""}`
}

/** USD price of one whole token, in millionths, for a day (prices move daily). */
export const usdMicro = (seed: number, symbol: string, day: number): bigint => {
  const salt = saltOf(seed, "price", symbol)
  // a base level per symbol between $0.01 and ~$80, ±15 % day to day
  const base = 10_000 + (h32(salt, 0) % 80_000_000)
  const wiggle = 850 + (h32(salt, day) % 300)
  return (BigInt(base) * BigInt(wiggle)) / 1000n
}

export const priceOf = (seed: number, symbol: string, day: number, currency: Currency): Price => ({
  currencyCode: currency,
  value: formatMicro((usdMicro(seed, symbol, day) * PER_USD_MICRO[currency]) / 1_000_000n)
})

/** Value of `amount` base units with `decimals`, exact to the millionth. */
export const valueOf = (seed: number, symbol: string, day: number, currency: Currency, amount: bigint, decimals: number): Price => {
  const perToken = (usdMicro(seed, symbol, day) * PER_USD_MICRO[currency]) / 1_000_000n
  return { currencyCode: currency, value: formatMicro((amount * perToken) / 10n ** BigInt(decimals)) }
}
