/**
 * Token transfers as "lots" that move whole: a token's supply is split into a fixed number of
 * lots (one per ERC-721 token); its e-th event moves lot (e·stride mod lots) from that lot's
 * previous owner to a new one. The previous event of the same lot is e − lots, so the sender of any
 * event, and the owner of any lot at any time, is found in O(1) without replaying history.
 *
 * Each standard's events are dealt round-robin to its tokens: global event q of a standard is
 * event floor(q / tokens) of token q mod tokens.
 *
 * A token's transfer sequence (route 6) is: for an ERC-20, its deployment mint (zero address →
 * faucet, whole supply) then its events; for NFTs, its events (the first `lots` are mints).
 */
import { h32 } from "./hash.ts"
import type { Standard } from "./layout.ts"
import type { ChainModel } from "./model.ts"
import { AddressKind, FAUCET_REF, ref, ZERO_REF, type Ref } from "./refs.ts"
import { lotAmount, type TokenSpec } from "./spec.ts"

export interface TokenTransferCore {
  readonly system: number
  readonly standard: Standard
  /** Position in the token's transfer sequence. */
  readonly seq: number
  /** Global transaction number. */
  readonly n: number
  readonly from: Ref
  readonly to: Ref
  readonly amount: bigint
  /** NFT token id (ERC-721/1155); 0n for ERC-20. */
  readonly tokenId: bigint
}

const tokenOf = (model: ChainModel, system: number): TokenSpec => {
  const t = model.spec.systems[system]?.token
  if (!t) throw new RangeError(`system contract ${system} is not a token`)
  return t
}

/** System indexes of one standard's tokens, in order. */
export const tokensOfStandard = (model: ChainModel, standard: Standard): number[] =>
  model.spec.systems.filter((s) => s.token?.ercType === standard).map((s) => s.index)

const place = (model: ChainModel, system: number): { standard: Standard; slot: number; of: number } => {
  const standard = tokenOf(model, system).ercType
  const list = tokensOfStandard(model, standard)
  return { standard, slot: list.indexOf(system), of: list.length }
}

export const lotOfEvent = (token: TokenSpec, e: number): number => (e * token.stride) % token.lots

export const tokenIdOfLot = (token: TokenSpec, lot: number): bigint =>
  token.ercType === "ERC-1155" ? BigInt((lot % token.tokenIds) + 1) : token.ercType === "ERC-721" ? BigInt(lot + 1) : 0n

/** Global transaction number of the token's e-th event. */
export const eventTxOf = (model: ChainModel, system: number, e: number): number => {
  const p = place(model, system)
  return model.layout.eventTx(p.standard, e * p.of + p.slot)
}

/** The account a new owner is drawn from at transaction n: a few popular accounts, or anyone funded. */
export const pickAccount = (model: ChainModel, n: number, slot: number): Ref => {
  const available = model.layout.accountsThrough(n)
  const r = h32(model.salt, n, slot)
  const popular = (r & 3) === 0
  return ref(AddressKind.account, (r >>> 2) % (popular ? Math.min(available, 24) : available))
}

/** Owner of the lot moved by event e, after it. */
const ownerAfter = (model: ChainModel, system: number, e: number, n?: number): Ref =>
  pickAccount(model, n ?? eventTxOf(model, system, e), 0x7e57 + system)

/** The token's e-th lot event, its transaction number known or found. */
export const eventCore = (model: ChainModel, system: number, e: number, n?: number): TokenTransferCore => {
  const token = tokenOf(model, system)
  const tx = n ?? eventTxOf(model, system, e)
  const lot = lotOfEvent(token, e)
  const from = e >= token.lots ? ownerAfter(model, system, e - token.lots) : token.ercType === "ERC-20" ? FAUCET_REF : ZERO_REF
  return {
    system,
    standard: token.ercType,
    seq: token.ercType === "ERC-20" ? e + 1 : e,
    n: tx,
    from,
    to: ownerAfter(model, system, e, tx),
    amount: lotAmount(model.seed, model.spec.ordinal, system, token, lot),
    tokenId: tokenIdOfLot(token, lot)
  }
}

export const totalSupply = (model: ChainModel, system: number): bigint => {
  const token = tokenOf(model, system)
  let sum = 0n
  for (let l = 0; l < token.lots; l++) sum += lotAmount(model.seed, model.spec.ordinal, system, token, l)
  return sum
}

/** The ERC-20 deployment mint: whole supply from the zero address to the faucet. */
export const mintCore = (model: ChainModel, system: number): TokenTransferCore => ({
  system,
  standard: "ERC-20",
  seq: 0,
  n: system,
  from: ZERO_REF,
  to: FAUCET_REF,
  amount: totalSupply(model, system),
  tokenId: 0n
})

/** Lot events of the token in transactions 0..n. */
export const eventsThroughTx = (model: ChainModel, system: number, n: number): number => {
  const p = place(model, system)
  const q = model.layout.eventsThrough(p.standard, n)
  return q > p.slot ? Math.floor((q - 1 - p.slot) / p.of) + 1 : 0
}

/** Entries of the token's transfer sequence in transactions 0..n. */
export const transfersThroughTx = (model: ChainModel, system: number, n: number): number => {
  const token = tokenOf(model, system)
  const mint = token.ercType === "ERC-20" && n >= system ? 1 : 0
  return mint + eventsThroughTx(model, system, n)
}

export const transferAt = (model: ChainModel, system: number, seq: number): TokenTransferCore => {
  const token = tokenOf(model, system)
  if (token.ercType !== "ERC-20") return eventCore(model, system, seq)
  return seq === 0 ? mintCore(model, system) : eventCore(model, system, seq - 1)
}

const inverseStride = (token: TokenSpec): number => {
  for (let k = 1; k < token.lots; k++) if ((k * token.stride) % token.lots === 1) return k
  return 1
}

/**
 * Owner of each lot after transactions 0..n: the faucet for ERC-20 lots not yet moved,
 * undefined for NFT lots not yet minted.
 */
export const lotOwnersAt = (model: ChainModel, system: number, n: number): Array<Ref | undefined> => {
  const token = tokenOf(model, system)
  const events = eventsThroughTx(model, system, n)
  const inv = inverseStride(token)
  const owners: Array<Ref | undefined> = []
  for (let lot = 0; lot < token.lots; lot++) {
    const first = (lot * inv) % token.lots
    if (first >= events) {
      owners.push(token.ercType === "ERC-20" && n >= system ? FAUCET_REF : undefined)
      continue
    }
    const last = first + Math.floor((events - 1 - first) / token.lots) * token.lots
    owners.push(ownerAfter(model, system, last))
  }
  return owners
}

/** The token's first event that moves a lot (its mint for NFTs). */
export const firstEventOfLot = (token: TokenSpec, lot: number): number => (lot * inverseStride(token)) % token.lots

/** Owner of one lot after transactions 0..n (see lotOwnersAt). */
export const lotOwnerAt = (model: ChainModel, system: number, lot: number, n: number): Ref | undefined => {
  const token = tokenOf(model, system)
  const events = eventsThroughTx(model, system, n)
  const first = firstEventOfLot(token, lot)
  if (first >= events) return token.ercType === "ERC-20" && n >= system ? FAUCET_REF : undefined
  return ownerAfter(model, system, first + Math.floor((events - 1 - first) / token.lots) * token.lots)
}
