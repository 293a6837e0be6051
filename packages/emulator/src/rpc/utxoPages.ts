/**
 * getUTXOs pagination as avalanchego keys it: UTXOs indexed by (owner address, UTXO id), both in
 * byte order, and a page continues strictly after the (address, utxo) it is given.
 *
 * A UTXO owned by several requested addresses is listed once, under the lowest of them, so a walk
 * from endIndex to endIndex meets every UTXO exactly once (the node itself may repeat such UTXOs
 * across pages, which rule 6 allows; the churn option, churn.ts, adds that behaviour on purpose).
 */
import type { UtxoRecord } from "../world/primary/types.ts"

export interface IndexKey {
  /** 20-byte address. */
  readonly address: Uint8Array
  /** 32-byte UTXO id. */
  readonly utxo: Uint8Array
}

export interface KeyedUtxo extends IndexKey {
  readonly record: UtxoRecord
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length))

export const compareKeys = (a: IndexKey, b: IndexKey): number => compareBytes(a.address, b.address) || compareBytes(a.utxo, b.utxo)

/** Each UTXO keyed under its lowest owner among `requested`, in index order. */
export const keyUtxos = (utxos: ReadonlyArray<UtxoRecord>, requested: ReadonlyArray<Uint8Array>, idBytesOf: (u: UtxoRecord) => Uint8Array): KeyedUtxo[] => {
  const wanted = new Set(requested.map((a) => Buffer.from(a).toString("hex")))
  const out: KeyedUtxo[] = []
  for (const record of utxos) {
    const owners = record.owners.addresses.filter((a) => wanted.has(Buffer.from(a).toString("hex"))).sort(compareBytes)
    const address = owners[0]
    if (address) out.push({ address, utxo: idBytesOf(record), record })
  }
  return out.sort(compareKeys)
}

export interface Page {
  readonly items: ReadonlyArray<KeyedUtxo>
  /** Key of the last item, or the start (zero key without one) when the page is empty. */
  readonly end: IndexKey
}

export const ZERO_KEY: IndexKey = { address: new Uint8Array(20), utxo: new Uint8Array(32) }

/**
 * Up to `limit` items after `start` (all from the beginning without it). With `inclusive` the
 * item at `start` itself is returned again first: the overlap the churn option produces.
 */
export const pageAfter = (sorted: ReadonlyArray<KeyedUtxo>, start: IndexKey | undefined, limit: number, inclusive = false): Page => {
  const from = start === undefined ? 0 : sorted.findIndex((u) => (inclusive ? compareKeys(u, start) >= 0 : compareKeys(u, start) > 0))
  const items = from < 0 ? [] : sorted.slice(from, from + limit)
  const last = items[items.length - 1]
  return { items, end: last ? { address: last.address, utxo: last.utxo } : (start ?? ZERO_KEY) }
}
