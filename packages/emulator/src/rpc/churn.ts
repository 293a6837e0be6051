/**
 * Rule 6 of avm.getUTXOs ("a UTXO may repeat and the UTXO set may change between calls") made
 * deterministic, for the world's `utxoChurn` option:
 *
 * - overlap: a page asked to start after (address, utxo) starts AT it, so the last UTXO of one
 *   page is the first of the next. Not with limit 1, where that would never move forward.
 * - change: the world counts getUTXOs calls (0, 1, 2, …, across all addresses); on every odd call
 *   one UTXO of the set, the one at position (call number mod set size), is left out, and it is
 *   back on the next call.
 *
 * The same sequence of calls on the same world therefore always sees the same pages.
 */
import type { World } from "../world/world.ts"
import type { KeyedUtxo } from "./utxoPages.ts"

const calls = new WeakMap<World, number>()

/** This call's number on `world` (0 for the first); moves the count on. */
export const nextCall = (world: World): number => {
  const n = calls.get(world) ?? 0
  calls.set(world, n + 1)
  return n
}

/** The set as call `n` sees it under churn. */
export const churnedSet = (sorted: ReadonlyArray<KeyedUtxo>, n: number): ReadonlyArray<KeyedUtxo> => {
  if (n % 2 === 0 || sorted.length === 0) return sorted
  const hidden = n % sorted.length
  return sorted.filter((_, i) => i !== hidden)
}

/** Whether a page starting at a given index re-includes it. */
export const overlaps = (limit: number): boolean => limit > 1
