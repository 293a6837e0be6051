/**
 * UTXO bytes exactly as a node serves them: codec version (2 bytes) + Utxo serialization
 * (vms/components/avax/utxo.go); on the wire `0x` + bytes + 4-byte checksum (last 4 bytes of
 * sha256). Written directly (a page of route 4 names hundreds of UTXOs, and avalanchejs' objects
 * per field were most of their cost); read back with avalanchejs, which stays the reference:
 * packages/emulator/test/primary/utxoCodec.test.ts compares both encoders' bytes. The UTXO id is
 * avalanchejs' UTXOID.ID(): cb58 of sha256(outputIndex as uint64 BE ‖ txID), avalanchego's
 * txID.Prefix(index) — checked against the shared vectors.
 */
import { avax } from "./avax.ts"
import { cb58, sha256 } from "../cb58.ts"
import { idBytes } from "./codec/idBytes.ts"
import { owners } from "./codec/owners.ts"
import { P_TX, SECP } from "./codec/typeIds.ts"
import { withWriter } from "./codec/writer.ts"

const { Utxo, utils } = avax

export type UtxoChain = "X" | "P"

/** The decoded fields of a secp256k1 transfer UTXO (optionally wrapped in a stakeable lock). */
export interface UtxoFields {
  readonly txId: string
  readonly outputIndex: number
  readonly assetId: string
  readonly amount: bigint
  readonly locktime: bigint
  readonly threshold: number
  /** 20-byte short ids of the owners, in output order (ascending bytes, as the node requires). */
  readonly addresses: ReadonlyArray<Uint8Array>
  /** Non-zero only for a P-chain StakeableLockOut. */
  readonly stakeableLocktime: bigint
}

const managerOf = (chain: UtxoChain) => utils.getManagerForVM(chain === "X" ? "AVM" : "PVM")

/** Codec version 0 (the output's type ids: codec/typeIds.ts, TransferOutput the same in both codecs). */
const CODEC_VERSION = 0

/** Codec version + Utxo bytes, without checksum. */
export const encodeUtxo = (chain: UtxoChain, f: UtxoFields): Uint8Array => {
  if (chain === "X" && f.stakeableLocktime > 0n) throw new Error("stakeable locks exist only on the P-chain")
  return withWriter((w) => {
    w.u16(CODEC_VERSION)
    // the ids' bytes from the memo the tx encoders share (base58 decoding was most of a page's cost)
    w.raw(idBytes(f.txId))
    w.u32(f.outputIndex)
    w.raw(idBytes(f.assetId))
    if (f.stakeableLocktime > 0n) {
      w.u32(P_TX.StakeableLockOut)
      w.u64(f.stakeableLocktime)
    }
    w.u32(SECP.TransferOutput)
    w.u64(f.amount)
    owners(w, f)
    return w.copy()
  })
}

/** The node's hex form: 0x + bytes + checksum (avalanchejs' bufferToHex(addChecksum(bytes))). */
export const utxoHex = (chain: UtxoChain, f: UtxoFields): string => {
  const b = encodeUtxo(chain, f)
  return `0x${Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex")}${sha256(b).subarray(28).toString("hex")}`
}

/**
 * The cb58 UTXO id of (txId, outputIndex): UTXOID.fromNative(txId, outputIndex).ID(), computed
 * with the emulator's own sha256 and cb58 (each UTXO of a page's txs is named so; avalanchejs'
 * base58 is the slower part), checked against it by packages/emulator/test/primary/utxoCodec.test.ts.
 */
export const utxoId = (txId: string, outputIndex: number): string => {
  const b = new Uint8Array(8 + 32)
  new DataView(b.buffer).setBigUint64(0, BigInt(outputIndex))
  b.set(idBytes(txId), 8)
  return cb58(sha256(b))
}

/** Reads a node hex UTXO back into its fields (checksum verified); throws on malformed input. */
export const decodeUtxoHex = (chain: UtxoChain, hex: string): UtxoFields & { readonly utxoId: string } => {
  const all = utils.hexToBuffer(hex)
  const body = all.subarray(0, all.length - 4)
  if (utils.bufferToHex(utils.addChecksum(body)) !== hex.toLowerCase()) throw new Error("UTXO checksum mismatch")
  const utxo = managerOf(chain).unpack(body, Utxo)
  const info = utils.getUtxoInfo(utxo)
  const outputOwners = utxo.getOutputOwners()
  return {
    txId: utxo.utxoId.txID.toString(),
    outputIndex: utxo.utxoId.outputIdx.value(),
    assetId: info.assetId,
    amount: info.amount,
    locktime: info.locktime,
    threshold: info.threshold,
    addresses: outputOwners.addrs.map((a) => a.toBytes()),
    stakeableLocktime: info.stakeableLocktime,
    utxoId: utxo.ID()
  }
}

/** The codec fields of a world UTXO record (P codec for P-chain outputs, AVM codec otherwise). */
export const fieldsOf = (u: {
  readonly txId: string
  readonly outputIndex: number
  readonly assetId: string
  readonly amount: bigint
  readonly owners: { readonly addresses: ReadonlyArray<Uint8Array>; readonly threshold: number; readonly locktime: bigint }
  readonly stakeableLocktime: bigint
}): UtxoFields => ({
  txId: u.txId,
  outputIndex: u.outputIndex,
  assetId: u.assetId,
  amount: u.amount,
  locktime: u.owners.locktime,
  threshold: u.owners.threshold,
  addresses: u.owners.addresses,
  stakeableLocktime: u.stakeableLocktime
})
