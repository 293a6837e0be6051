/**
 * Decodes a UTXO as the node's getUTXOs returns it: "0x" + codec version + Utxo bytes + the last
 * 4 bytes of their sha256. Parsing is avalanchejs' own (the chain's codec manager and the Utxo
 * serializable), so every output type those codecs register is understood, not only the
 * secp256k1 transfer output.
 */
import { avalanchejs, type Utxo } from "./avalanchejs.ts"

export type ChainLetter = "X" | "P" | "C"

export interface DecodedUtxo {
  /** cb58 of sha256(txID ‖ outputIndex), the id the node and the REST service key the UTXO by. */
  readonly utxoId: string
  readonly txId: string
  readonly outputIndex: number
  readonly assetId: string
  /** Codec type id of the output: 7 secp256k1 transfer, 22 P-chain stakeable lock, 6/10/11… mint and NFT outputs. */
  readonly outputType: number
  /** 0 for outputs that carry no amount (mint and NFT outputs). */
  readonly amount: bigint
  readonly locktime: bigint
  /** The stakeable lock's end for output type 22, else 0. */
  readonly stakeableLocktime: bigint
  readonly threshold: number
  /** Owners in output order, chain-prefixed bech32 ("X-avax1…"). */
  readonly addresses: ReadonlyArray<string>
  /** The hex exactly as given. */
  readonly bytes: string
}

export class UtxoDecodeError extends Error {
  override readonly name = "UtxoDecodeError"
}

const VM_OF: Readonly<Record<ChainLetter, "AVM" | "PVM" | "EVM">> = { X: "AVM", P: "PVM", C: "EVM" }

const CHECKSUM_BYTES = 4

const describe = (hex: string): string => (hex.length > 24 ? `${hex.slice(0, 24)}…` : hex)

const bytesOf = (hex: string): Uint8Array => {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(hex)) throw new UtxoDecodeError(`UTXO ${describe(hex)} is not 0x-prefixed hex of whole bytes`)
  const all = avalanchejs().utils.hexToBuffer(hex)
  if (all.length <= CHECKSUM_BYTES) throw new UtxoDecodeError(`UTXO ${describe(hex)} is too short to hold a checksum`)
  return all
}

/** The body without its checksum, once the checksum is verified. */
const verifiedBody = (hex: string): Uint8Array => {
  const all = bytesOf(hex)
  const body = all.subarray(0, all.length - CHECKSUM_BYTES)
  const expected = avalanchejs().utils.addChecksum(body).subarray(body.length)
  const given = all.subarray(body.length)
  if (!expected.every((b, i) => b === given[i])) {
    throw new UtxoDecodeError(`UTXO ${describe(hex)} fails its checksum: the last 4 bytes are not the tail of sha256 of the rest`)
  }
  return body
}

const fail = (hex: string, chain: ChainLetter, err: unknown): never => {
  if (err instanceof UtxoDecodeError) throw err
  const reason = err instanceof Error ? err.message : String(err)
  throw new UtxoDecodeError(`UTXO ${describe(hex)} does not parse as a ${chain}-chain UTXO: ${reason}`)
}

const parse = (body: Uint8Array, chain: ChainLetter): { utxo: Utxo; outputType: number } => {
  const [codec, rest] = avalanchejs().utils.getManagerForVM(VM_OF[chain]).getCodecFromBuffer(body)
  const [utxo, remaining] = avalanchejs().Utxo.fromBytes(rest, codec)
  if (remaining.length > 0) throw new Error(`${remaining.length} bytes left over after the UTXO`)
  const outputType = codec.typeToTypeID.get(utxo.output._type)
  if (outputType === undefined) throw new Error("output type is not registered in the codec")
  return { utxo, outputType }
}

/**
 * Decodes one hex UTXO of chain `chainLetter`, formatting owners with `hrp` ("avax", "fuji").
 * Throws UtxoDecodeError when the hex is malformed, the checksum does not match or the bytes do
 * not parse.
 */
export const decodeUtxoHex = (hex: string, hrp: string, chainLetter: ChainLetter): DecodedUtxo => {
  const body = verifiedBody(hex)
  try {
    const { utxo, outputType } = parse(body, chainLetter)
    // both read the output's owners, which throws for output types that have none
    const { utils } = avalanchejs()
    const info = utils.getUtxoInfo(utxo)
    const owners = utxo.getOutputOwners()
    return {
      utxoId: utxo.ID(),
      txId: utxo.utxoId.txID.toString(),
      outputIndex: utxo.utxoId.outputIdx.value(),
      assetId: info.assetId,
      outputType,
      amount: info.amount,
      locktime: info.locktime,
      stakeableLocktime: info.stakeableLocktime,
      threshold: info.threshold,
      addresses: owners.addrs.map((a) => utils.format(chainLetter, hrp, a.toBytes())),
      bytes: hex
    }
  } catch (err) {
    return fail(hex, chainLetter, err)
  }
}
