/**
 * UTXO bytes exactly as a node serves them, produced and read by avalanchejs (no home-made codec):
 * codec version (2 bytes) + Utxo serialization; on the wire `0x` + bytes + 4-byte checksum (last
 * 4 bytes of sha256). The UTXO id is avalanchejs' UTXOID.ID(): cb58 of sha256(outputIndex as
 * uint64 BE ‖ txID), avalanchego's txID.Prefix(index) — checked against the shared vectors.
 */
import { avax, type UtxoT } from "./avax.ts"
import { cb58, sha256 } from "../cb58.ts"
import { idBytes } from "./codec/idBytes.ts"

const { Address, BigIntPr, Id, Int, OutputOwners, TransferOutput, Utxo, pvmSerial, utils } = avax
const { UTXOID } = avax.avaxSerial

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

/** Owners sorted by bytes: the node rejects outputs whose addresses are not sorted and unique. */
export const sortAddresses = (addrs: ReadonlyArray<Uint8Array>): Uint8Array[] =>
  [...addrs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))

const toUtxo = (f: UtxoFields): UtxoT => {
  const owners = new OutputOwners(
    new BigIntPr(f.locktime),
    new Int(f.threshold),
    sortAddresses(f.addresses).map((a) => new Address(a))
  )
  const transfer = new TransferOutput(new BigIntPr(f.amount), owners)
  const output = f.stakeableLocktime > 0n ? new pvmSerial.StakeableLockOut(new BigIntPr(f.stakeableLocktime), transfer) : transfer
  // the ids' bytes as Id.fromString reads them, from the memo the tx encoders share (its base58 decoding was most of a page's cost)
  return new Utxo(new UTXOID(new Id(idBytes(f.txId)), new Int(f.outputIndex)), new Id(idBytes(f.assetId)), output)
}

/** Codec version + Utxo bytes, without checksum. */
export const encodeUtxo = (chain: UtxoChain, f: UtxoFields): Uint8Array => {
  if (chain === "X" && f.stakeableLocktime > 0n) throw new Error("stakeable locks exist only on the P-chain")
  const manager = managerOf(chain)
  return utils.concatBytes(manager.getDefaultCodecId().toBytes(), toUtxo(f).toBytes(manager.getDefaultCodec()))
}

/** The node's hex form: 0x + bytes + checksum. */
export const utxoHex = (chain: UtxoChain, f: UtxoFields): string => utils.bufferToHex(utils.addChecksum(encodeUtxo(chain, f)))

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
  const owners = utxo.getOutputOwners()
  return {
    txId: utxo.utxoId.txID.toString(),
    outputIndex: utxo.utxoId.outputIdx.value(),
    assetId: info.assetId,
    amount: info.amount,
    locktime: info.locktime,
    threshold: info.threshold,
    addresses: owners.addrs.map((a) => a.toBytes()),
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
