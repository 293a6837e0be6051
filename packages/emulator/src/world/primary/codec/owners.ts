/**
 * An OutputOwners as avalanchego's codec writes it (vms/secp256k1fx/output_owners.go): locktime,
 * threshold, then the addresses, which the node requires sorted by bytes and unique. The one writer
 * of these bytes, shared by the tx encoders (directTx.ts) and the UTXO encoder (utxoCodec.ts).
 */
import type { Owners } from "../types.ts"
import type { Writer } from "./writer.ts"

/** Owners sorted by bytes: the node rejects outputs whose addresses are not sorted and unique. */
export const sortAddresses = (addrs: ReadonlyArray<Uint8Array>): Uint8Array[] =>
  [...addrs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))

/** An OutputOwners' fields (locktime, threshold, addresses in the codec's order). */
export const owners = (w: Writer, o: Owners): void => {
  w.u64(o.locktime)
  w.u32(o.threshold)
  const addrs = o.addresses.length > 1 ? sortAddresses(o.addresses) : o.addresses
  w.u32(addrs.length)
  for (const a of addrs) w.raw(a)
}
