/**
 * avm.getBalance and avm.getAllBalances over the X-chain's own UTXOs (the node's state, not shared
 * memory). Like the node, without includePartial only outputs the address owns alone (1-of-1) and
 * can spend now (locktime passed) count.
 */
import type { PrimaryNetwork } from "../world/primary/index.ts"
import type { UtxoRecord } from "../world/primary/types.ts"
import { fromCb58 } from "../world/primary/ids.ts"
import { serverError } from "./params.ts"

export const AVAX_ALIAS = "AVAX"

/** The node's lookupAssetID: the AVAX alias or any cb58 id (existence is not checked). */
export const lookupAssetId = (net: PrimaryNetwork, asset: string): string => {
  if (asset === AVAX_ALIAS) return net.avaxAssetId
  const bytes = fromCb58(asset)
  if (!bytes || bytes.length !== 32) throw serverError(`asset '${asset}' not found`)
  return asset
}

/** The asset as the node names it in balances: its alias when it has one. */
export const assetAlias = (net: PrimaryNetwork, assetId: string): string => (assetId === net.avaxAssetId ? AVAX_ALIAS : assetId)

/** The address's spendable X-chain outputs, as the balance methods count them. */
export const countedUtxos = (net: PrimaryNetwork, address: Uint8Array, includePartial: boolean): UtxoRecord[] => {
  const now = BigInt(net.now())
  return net.utxos("X", [address], { view: "node" }).filter((u) => includePartial || (u.owners.addresses.length === 1 && u.owners.locktime <= now))
}

/** Per-asset sums; AVAX first, then by asset id (the node's map order is random). */
export const sumsByAsset = (net: PrimaryNetwork, utxos: ReadonlyArray<UtxoRecord>): Array<{ readonly assetId: string; readonly balance: bigint }> => {
  const sums = new Map<string, bigint>()
  for (const u of utxos) sums.set(u.assetId, (sums.get(u.assetId) ?? 0n) + u.amount)
  const rank = (id: string): string => (id === net.avaxAssetId ? "" : id)
  return [...sums.entries()].map(([assetId, balance]) => ({ assetId, balance })).sort((a, b) => (rank(a.assetId) < rank(b.assetId) ? -1 : 1))
}
