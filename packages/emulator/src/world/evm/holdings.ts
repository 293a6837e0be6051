/**
 * Who holds what: balances come from lot ownership (tokens.ts), so any moment's holdings cost
 * O(lots) and a period costs O(lots + events in the period).
 */
import type { EvmChain } from "./chain.ts"
import { bytesOf, h32 } from "./hash.ts"
import { FAUCET_REF, ZERO_REF, type Ref } from "./refs.ts"
import { lotAmount, type TokenSpec } from "./spec.ts"
import { eventCore, eventsThroughTx, eventTxOf, firstEventOfLot, lotOwnerAt, lotOwnersAt, tokenIdOfLot, totalSupply } from "./tokens.ts"
import type { Holder, NftTokenInfo } from "./types.ts"
import { tokenRefOf } from "./render.ts"

const specOf = (chain: EvmChain, system: number): TokenSpec => {
  const t = chain.model.spec.systems[system]?.token
  if (!t) throw new RangeError(`system contract ${system} is not a token`)
  return t
}

const balancesAt = (chain: EvmChain, system: number, n: number): Map<Ref, bigint> => {
  const m = chain.model
  const token = specOf(chain, system)
  const out = new Map<Ref, bigint>()
  lotOwnersAt(m, system, n).forEach((owner, lot) => {
    if (owner === undefined) return
    out.set(owner, (out.get(owner) ?? 0n) + lotAmount(m.seed, m.spec.ordinal, system, token, lot))
  })
  return out
}

const byAmountThenAddress = (a: Holder, b: Holder): number =>
  a.amount === b.amount ? (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1) : a.amount > b.amount ? -1 : 1

/**
 * Addresses whose balance was above `threshold` at any moment of [startTime, endTime] (after the
 * transactions of the block at startTime, through those of the last block ≤ endTime), each with
 * its balance at the latest block; largest first, ties by address.
 */
export const holdersAbove = (chain: EvmChain, system: number, threshold: bigint, startTime: number, endTime: number): Holder[] => {
  const m = chain.model
  const latestTx = m.lastTxAt(chain.latest())
  const nStart = Math.min(m.lastTxAtTime(startTime), latestTx)
  const nEnd = Math.min(m.lastTxAtTime(Math.min(endTime, chain.now())), latestTx)
  const balances = balancesAt(chain, system, nStart)
  const above = new Set<Ref>()
  for (const [r, v] of balances) if (v > threshold) above.add(r)
  if (nEnd > nStart) {
    const token = specOf(chain, system)
    if (token.ercType === "ERC-20" && nStart < system && system <= nEnd) {
      balances.set(FAUCET_REF, totalSupply(m, system))
      if ((balances.get(FAUCET_REF) as bigint) > threshold) above.add(FAUCET_REF)
    }
    const from = eventsThroughTx(m, system, nStart)
    const to = eventsThroughTx(m, system, nEnd)
    for (let e = from; e < to; e++) {
      const t = eventCore(m, system, e)
      if (t.from !== ZERO_REF) balances.set(t.from, (balances.get(t.from) ?? 0n) - t.amount)
      const v = (balances.get(t.to) ?? 0n) + t.amount
      balances.set(t.to, v)
      if (v > threshold) above.add(t.to)
    }
  }
  above.delete(ZERO_REF)
  const latest = nEnd === latestTx ? balances : balancesAt(chain, system, latestTx)
  return [...above].map((r) => ({ address: m.hex(r), amount: latest.get(r) ?? 0n })).sort(byAmountThenAddress)
}

export interface NftHolders {
  readonly name: string
  readonly symbol: string
  /** Current holders with the number of NFTs (ERC-1155: copies) each holds; most first. */
  readonly holders: ReadonlyArray<Holder>
  readonly totalHolders: number
  /** NFTs in circulation: the sum of the holders' counts. */
  readonly totalTokens: bigint
}

export const nftHolders = (chain: EvmChain, system: number): NftHolders | undefined => {
  const token = specOf(chain, system)
  if (token.ercType === "ERC-20") return undefined
  const m = chain.model
  const balances = balancesAt(chain, system, m.lastTxAt(chain.latest()))
  const holders = [...balances].map(([r, v]) => ({ address: m.hex(r), amount: v })).sort(byAmountThenAddress)
  let total = 0n
  for (const h of holders) total += h.amount
  return { name: token.name, symbol: token.symbol, holders, totalHolders: holders.length, totalTokens: total }
}

/**
 * An NFT's details as of transaction n: undefined until minted. Metadata dates from the first
 * mint of the token id; the owner is given for ERC-721 only.
 */
export const nftTokenOf = (chain: EvmChain, system: number, tokenId: bigint, n = chain.model.lastTxAt(chain.latest())): NftTokenInfo | undefined => {
  const token = specOf(chain, system)
  if (token.ercType === "ERC-20") return undefined
  const m = chain.model
  const events = eventsThroughTx(m, system, n)
  let firstMint = Number.MAX_SAFE_INTEGER
  let firstLot = -1
  for (let lot = 0; lot < token.lots; lot++) {
    if (tokenIdOfLot(token, lot) !== tokenId) continue
    const e = firstEventOfLot(token, lot)
    if (e < events && e < firstMint) {
      firstMint = e
      firstLot = lot
    }
    // an ERC-721 id is one lot: no need to look further
    if (token.ercType === "ERC-721") break
  }
  if (firstLot < 0) return undefined
  const mintTime = m.timeline.time(m.counts.blockOf(eventTxOf(m, system, firstMint)))
  const cid = "bafybei" + bytesOf(m.sub("cid"), 24, system).toString("hex").slice(0, 46)
  const traits = ["Ember", "Tide", "Moss", "Frost", "Dusk", "Gale"]
  const trait = traits[h32(m.sub("trait"), system, Number(tokenId % 1_000_000n)) % traits.length] as string
  const attributes = JSON.stringify([
    { trait_type: "Element", value: trait },
    { trait_type: "Rank", value: Number(tokenId % 97n) }
  ])
  const owner = token.ercType === "ERC-721" ? lotOwnerAt(m, system, firstLot, n) : undefined
  return {
    contract: tokenRefOf(m, system),
    tokenId,
    tokenUri: `ipfs://${cid}/${tokenId}.json`,
    ...(owner !== undefined ? { ownerAddress: m.hex(owner) } : {}),
    metadata: {
      name: `${token.name} #${tokenId}`,
      description: `${token.name} item ${tokenId}.`,
      imageUri: `ipfs://${cid}/${tokenId}.png`,
      animationUri: `ipfs://${cid}/${tokenId}.mp4`,
      externalUrl: `https://${token.symbol.toLowerCase()}.example/items/${tokenId}`,
      background: `#${bytesOf(m.sub("bg"), 3, system, String(tokenId)).toString("hex")}`,
      attributes,
      lastUpdatedTimestamp: mintTime
    }
  }
}
