/**
 * P-chain blocks and signed txs from their bytes (vms/platformvm/block/*.go, txs/tx.go): the
 * types come from the codec's type ids, which the node's JSON encoding never names.
 *
 * A block is codec version (u16, 0), its type id (u32), then its struct: a Banff block puts its
 * time first, then (proposal blocks) its decision txs, then the embedded Apricot block: parent id,
 * height, then its tx(s). A tx inside a block is a txs.Tx struct (no codec version of its own):
 * the unsigned tx's type id and fields, then its credentials.
 */
import { credentials, type TxReader } from "./components.ts"
import { ByteReader } from "./reader.ts"
import type { PBlock, PTx } from "./shapes.ts"
import { cb58, sha256 } from "./text.ts"
import { pBlockTypeById, pTxTypeById } from "./types.ts"
import { UNSIGNED_TX_DECODERS } from "./unsignedTxs.ts"

const CODEC_VERSION = 0
// type id + AdvanceTimeTx's one u64 + an empty credential list
const MIN_TX_BYTES = 4 + 8 + 4

export interface PDecodeOptions {
  /** The chain alias owner addresses are written with, as the node's InitCtx does ("P"). */
  readonly chainAlias?: string
}

const codecVersion = (r: ByteReader): void => {
  const v = r.u16("codec version")
  if (v !== CODEC_VERSION) r.fail(`codec version ${v} is not ${CODEC_VERSION}`, 0)
}

// codec version 0 then a tx's bytes, reused from tx to tx (one copy is cheaper than a hash object per tx)
let scratch = Buffer.alloc(4096)

/** cb58(sha256(codec version ‖ the tx's bytes)): the bytes Go's tx.Initialize marshals and hashes. */
const txId = (bytes: Uint8Array, start: number, end: number): string => {
  const n = end - start + 2
  if (scratch.length < n) scratch = Buffer.alloc(Math.max(n, scratch.length * 2))
  scratch[0] = CODEC_VERSION >> 8
  scratch[1] = CODEC_VERSION & 0xff
  scratch.set(bytes.subarray(start, end), 2)
  return cb58(sha256(scratch.subarray(0, n)))
}

const signedTx = (r: ByteReader, chainAlias: string): PTx => {
  const start = r.pos
  const typeId = r.u32("tx type id")
  const info = pTxTypeById(typeId)
  if (info === undefined) return r.fail(`unknown tx type id ${typeId}`, start)
  const c: TxReader = { r, chainAlias, addresses: undefined }
  const unsignedTx = UNSIGNED_TX_DECODERS[info.name](c)
  const creds = credentials(c)
  // the decoder table pairs each name with its own shape, which TS cannot follow through the index
  return { type: info.name, id: txId(r.bytes, start, r.pos), unsignedTx, credentials: creds } as PTx
}

const txList = (r: ByteReader, chainAlias: string): PTx[] => {
  const n = r.count("txs", MIN_TX_BYTES)
  const out = new Array<PTx>(n)
  for (let i = 0; i < n; i++) out[i] = signedTx(r, chainAlias)
  return out
}

const noneLeft = (r: ByteReader): void => {
  if (r.remaining > 0) r.fail(`${r.remaining} bytes left over after the ${r.what}`)
}

/**
 * Decodes a P-chain block's bytes (platform.getBlock/getBlockByHeight with encoding "hex", once
 * the hex is undone and its checksum removed: see pBytesFromNodeHex). Throws PvmDecodeError for
 * anything avalanchego's codec would refuse: another codec version, an unknown type id, a read
 * past the end, bytes left over.
 */
export const decodePBlock = (bytes: Uint8Array, options: PDecodeOptions = {}): PBlock => {
  const chainAlias = options.chainAlias ?? "P"
  const r = new ByteReader(bytes, "block")
  codecVersion(r)
  const typeAt = r.pos
  const typeId = r.u32("block type id")
  const info = pBlockTypeById(typeId)
  if (info === undefined) return r.fail(`unknown block type id ${typeId}`, typeAt)
  const banff = info.era === "Banff"
  const time = banff ? r.u64("time") : undefined
  const decisionTxs = info.name === "BanffProposalBlock" ? txList(r, chainAlias) : []
  const parentID = r.id("parentID")
  const height = r.u64("height")
  let txs: PTx[]
  switch (info.name) {
    case "ApricotProposalBlock":
    case "ApricotAtomicBlock":
      txs = [signedTx(r, chainAlias)]
      break
    case "BanffProposalBlock":
      decisionTxs.push(signedTx(r, chainAlias))
      txs = decisionTxs
      break
    case "ApricotStandardBlock":
    case "BanffStandardBlock":
      txs = txList(r, chainAlias)
      break
    default:
      txs = []
  }
  noneLeft(r)
  return { type: info.name, id: cb58(sha256(bytes)), parentID, height, time, txs }
}

/**
 * Decodes a standalone signed P-chain tx (codec version, then the tx: platform.getTx or
 * issueTx hex once undone). Its id is cb58(sha256(all the bytes)).
 */
export const decodePTx = (bytes: Uint8Array, options: PDecodeOptions = {}): PTx => {
  const r = new ByteReader(bytes, "tx")
  codecVersion(r)
  const tx = signedTx(r, options.chainAlias ?? "P")
  noneLeft(r)
  return tx
}
