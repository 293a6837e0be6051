/**
 * Block bytes in avalanchego's layouts around the txs of txBytes.ts: a 2-byte codec version, the
 * block's type id, then its struct's serialized fields in order, embedded structs inline.
 * - X-chain StandardBlock (type 20: after the AVM's 5 tx types and 15 fx types): parent, height,
 *   time, merkle root (unused, zero), txs (vms/avm/block/standard_block.go).
 * - P-chain (vms/platformvm/block/codec.go; type ids in registration order):
 *   ApricotProposalBlock 0 and ApricotAtomicBlock 4: parent, height, the one tx;
 *   ApricotAbortBlock 1 and ApricotCommitBlock 2: parent, height;
 *   ApricotStandardBlock 3: parent, height, txs;
 *   BanffProposalBlock 29: time, decision txs, then the Apricot proposal's fields;
 *   BanffAbortBlock 30, BanffCommitBlock 31: time, parent, height;
 *   BanffStandardBlock 32: time, parent, height, txs.
 * Each tx is a signed tx without its codec version (the block carries one for all).
 * A node's block id is sha256 of these bytes (servedIds.ts): the parent goes through `ids` too.
 * `blockBytes` writes them into one buffer; `codecBlockBytes`, with avalanchejs' primitives, is
 * the reference packages/emulator/test/primary/directCodec.test.ts holds it to.
 */
import type { BlockRecord, PBlockType, TxRecord } from "../types.ts"
import { sha256 } from "../../cb58.ts"
import { lib } from "./avalanche.ts"
import { idBytes, type IdMap } from "./idBytes.ts"
import type { TxBytes } from "./txBytes.ts"
import { withWriter, type Writer } from "./writer.ts"

const X_STANDARD_BLOCK = 20
export const P_BLOCK_TYPE_ID: Readonly<Record<PBlockType, number>> = {
  ApricotProposalBlock: 0,
  ApricotAbortBlock: 1,
  ApricotCommitBlock: 2,
  ApricotStandardBlock: 3,
  ApricotAtomicBlock: 4,
  BanffProposalBlock: 29,
  BanffAbortBlock: 30,
  BanffCommitBlock: 31,
  BanffStandardBlock: 32
}
const CODEC_VERSION_BYTES = 2

const u32 = (n: number): Uint8Array => new lib.Int(n).toBytes()
const u64 = (n: bigint): Uint8Array => new lib.BigIntPr(n).toBytes()

/** The same bytes built with avalanchejs' primitives: the reference `blockBytes` is tested against. */
export const codecBlockBytes = (b: BlockRecord, txs: ReadonlyArray<TxRecord>, txBytes: Pick<TxBytes, "bytes">, ids: IdMap): Uint8Array => {
  const signed = txs.map((t) => txBytes.bytes(t).subarray(CODEC_VERSION_BYTES))
  const list = (some: Uint8Array[]): Uint8Array[] => [u32(some.length), ...some]
  const one = (): Uint8Array => {
    if (signed.length !== 1) throw new Error(`a ${b.blockType} holds exactly one tx, block ${b.height} has ${signed.length}`)
    return signed[0] as Uint8Array
  }
  const version = new lib.Short(0).toBytes()
  const common = [lib.Id.fromString(ids(b.parentId)).toBytes(), u64(b.height)]
  const time = u64(BigInt(b.timestamp))
  const bytes = (type: number, ...parts: Uint8Array[]): Uint8Array => lib.utils.concatBytes(version, u32(type), ...parts)
  switch (b.blockType) {
    case "StandardBlock":
      return bytes(X_STANDARD_BLOCK, ...common, time, new Uint8Array(32), ...list(signed))
    case "ApricotProposalBlock":
    case "ApricotAtomicBlock":
      return bytes(P_BLOCK_TYPE_ID[b.blockType], ...common, one())
    case "ApricotAbortBlock":
    case "ApricotCommitBlock":
      return bytes(P_BLOCK_TYPE_ID[b.blockType], ...common)
    case "ApricotStandardBlock":
      return bytes(P_BLOCK_TYPE_ID[b.blockType], ...common, ...list(signed))
    case "BanffProposalBlock":
      // the decision txs before the proposal tx (none so far), as BanffProposalBlock.Txs() orders them
      return bytes(P_BLOCK_TYPE_ID[b.blockType], time, ...list(signed.slice(0, -1)), ...common, signed[signed.length - 1] ?? one())
    case "BanffAbortBlock":
    case "BanffCommitBlock":
      return bytes(P_BLOCK_TYPE_ID[b.blockType], time, ...common)
    case "BanffStandardBlock":
      return bytes(P_BLOCK_TYPE_ID[b.blockType], time, ...common, ...list(signed))
    case "EVMBlock":
      throw new Error("C-chain blocks are the EVM world's")
  }
}

/** What a block's bytes hold besides its parent and its txs. */
export type BlockHeader = Pick<BlockRecord, "blockType" | "height" | "timestamp">

/**
 * A block's bytes written straight into one buffer. `parent` is the parent's served id as bytes
 * (servedIds.ts keeps them by height; `parentBytes` for a block record).
 */
export const blockBytes = (b: BlockHeader, parent: Uint8Array, txs: ReadonlyArray<TxRecord>, txBytes: Pick<TxBytes, "bytes">): Uint8Array =>
  blockBytesOf(
    b,
    parent,
    txs.map((t) => txBytes.bytes(t))
  )

/** The same from the txs' signed bytes (each with its codec version, as TxBytes makes them). */
export const blockBytesOf = (b: BlockHeader, parent: Uint8Array, signed: ReadonlyArray<Uint8Array>): Uint8Array =>
  withWriter((w) => {
    writeBlock(w, b, parent, signed)
    return w.copy()
  })

/**
 * The sha256 of blockBytesOf's bytes (a block's served id), hashed where they were written: the
 * hashing pass keeps no block's bytes, and a copy of more than 64 bytes costs V8 a backing store.
 */
export const blockIdOf = (b: BlockHeader, parent: Uint8Array, signed: ReadonlyArray<Uint8Array>): Uint8Array =>
  withWriter((w) => {
    writeBlock(w, b, parent, signed)
    return sha256(w.written())
  })

/** A block's bytes, written without a closure a part: a chain's hashing writes every block once. */
const writeBlock = (w: Writer, b: BlockHeader, parent: Uint8Array, signed: ReadonlyArray<Uint8Array>): void => {
  const type = b.blockType
  if (type === "EVMBlock") throw new Error("C-chain blocks are the EVM world's")
  w.u16(0)
  w.u32(type === "StandardBlock" ? X_STANDARD_BLOCK : P_BLOCK_TYPE_ID[type])
  switch (type) {
    case "StandardBlock":
      w.raw(parent)
      w.u64(b.height)
      w.u64(BigInt(b.timestamp))
      w.raw(new Uint8Array(32))
      writeList(w, signed)
      break
    case "ApricotProposalBlock":
    case "ApricotAtomicBlock":
      w.raw(parent)
      w.u64(b.height)
      writeOne(w, b, signed)
      break
    case "ApricotAbortBlock":
    case "ApricotCommitBlock":
      w.raw(parent)
      w.u64(b.height)
      break
    case "ApricotStandardBlock":
      w.raw(parent)
      w.u64(b.height)
      writeList(w, signed)
      break
    case "BanffProposalBlock":
      w.u64(BigInt(b.timestamp))
      writeList(w, signed.slice(0, -1))
      w.raw(parent)
      w.u64(b.height)
      if (signed.length === 0) writeOne(w, b, signed)
      w.raw(signed[signed.length - 1]!.subarray(CODEC_VERSION_BYTES))
      break
    case "BanffAbortBlock":
    case "BanffCommitBlock":
      w.u64(BigInt(b.timestamp))
      w.raw(parent)
      w.u64(b.height)
      break
    case "BanffStandardBlock":
      w.u64(BigInt(b.timestamp))
      w.raw(parent)
      w.u64(b.height)
      writeList(w, signed)
      break
  }
}

/** A block's txs: their count, then each one's signed bytes without its codec version. */
const writeList = (w: Writer, some: ReadonlyArray<Uint8Array>): void => {
  w.u32(some.length)
  for (const t of some) w.raw(t.subarray(CODEC_VERSION_BYTES))
}

/** The one tx of a block that holds exactly one. */
const writeOne = (w: Writer, b: BlockHeader, signed: ReadonlyArray<Uint8Array>): void => {
  if (signed.length !== 1) throw new Error(`a ${b.blockType} holds exactly one tx, block ${b.height} has ${signed.length}`)
  w.raw(signed[0]!.subarray(CODEC_VERSION_BYTES))
}

/** A block's parent's served id, as bytes. */
export const parentBytes = (b: BlockRecord, ids: IdMap): Uint8Array => idBytes(ids(b.parentId))
