/** Values as the node writes them: uint64 quantities, times, owners, decoded UTXO bytes. */
import { Schema } from "effect"
import { DecimalStringOrInteger } from "../../src/transform/Decode.ts"
import type { DecodedUtxo } from "../../src/decode/utxo.ts"

const opt = Schema.optional

// node JSON values: uint64 quantities are decimal strings (seed: Conventions), though small ones
// (threshold, denomination) sometimes come as JSON numbers; both decode to exact integers

/** A uint64 as a decimal string or a JSON integer, to bigint. */
export const NodeUint = DecimalStringOrInteger

/** A small integer (threshold, output index, denomination) as a JSON number or a decimal string. */
export const NodeInt = Schema.Union(Schema.Number.pipe(Schema.int()), Schema.NumberFromString.pipe(Schema.int()))

/** Unix seconds as the node writes them (decimal string), to a Date. */
export const nodeTime = (seconds: bigint): Date => new Date(Number(seconds) * 1000)

/** An owner set {locktime, threshold, addresses} (reward owners, L1 balance owners). */
export const NodeOwner = Schema.Struct({ locktime: opt(NodeUint), threshold: opt(NodeInt), addresses: opt(Schema.Array(Schema.String)) })

export const ownerRow = (o: typeof NodeOwner.Type | undefined) =>
  o === undefined ? null : { locktime: o.locktime ?? null, threshold: o.threshold ?? null, addresses: o.addresses ?? [] }

/** JSON text of a value that may hold bigints (unknown shapes are kept as text). */
export const jsonText = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))


/** A UTXO's columns from its node bytes (utxos and avm_utxos alike); `utxo_bytes` is the hex as sent. */
export const decodedUtxoColumns = (d: DecodedUtxo) => ({
  utxo_id: d.utxoId,
  tx_id: d.txId,
  output_index: d.outputIndex,
  asset_id: d.assetId,
  output_type: d.outputType,
  amount: d.amount,
  locktime: d.locktime,
  stakeable_locktime: d.stakeableLocktime,
  threshold: d.threshold,
  addresses: d.addresses,
  utxo_bytes: d.bytes
})
