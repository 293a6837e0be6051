/**
 * The 32 bytes of an id named by its cb58 string, as avalanchejs' Id.fromString reads it, and the
 * id maps the encoders take.
 */
import { fromCb58 } from "../../cb58.ts"
import { Lru } from "../lru.ts"
import { lib } from "./avalanche.ts"

/** Maps an id of the world to the id the node serves for it (identity for ids that are not hashed). */
export type IdMap = (id: string) => string

/**
 * Maps an id of the world to the bytes of the id the node serves for it: what `idBytes(ids(id))`
 * gives, without making the served id's text when its bytes are at hand (a hashed tx's, kept as
 * bytes).
 */
export type IdBytesMap = (id: string) => Uint8Array

/** An IdBytesMap through an IdMap's text. */
export const bytesVia =
  (ids: IdMap): IdBytesMap =>
  (id) =>
    idBytes(ids(id))

/**
 * Id bytes by cb58 string: the same few thousand ids (assets, chains, consumed txs) are decoded
 * over and over while a chain is hashed, and base58 decoding was the largest cost. Bounded.
 */
const decoded = new Lru<string, Uint8Array>(100_000)
export const idBytes = (s: string): Uint8Array =>
  decoded.get(s, () => {
    // lib.Id.fromString(s).toBytes(): the cb58 body's first 32 bytes, zero-padded on the left to 32
    const body = fromCb58(s)
    if (body === undefined) return lib.Id.fromString(s).toBytes()
    if (body.length >= 32) return body.slice(0, 32)
    const b = new Uint8Array(32)
    b.set(body, 32 - body.length)
    return b
  })

/**
 * Holds the bytes a cb58 string was just made from (a tx's served id, from its hash): the txs
 * spending its outputs name it soon after, and would decode it again.
 */
export const rememberIdBytes = (s: string, b: Uint8Array): void => decoded.set(s, new Uint8Array(b))
