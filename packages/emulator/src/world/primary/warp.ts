/**
 * Signed warp messages the P-chain's validators attest for L1-related txs (route 1), serialized
 * by avalanchejs: codec version, unsigned message (network id, P-chain id, AddressedCall with
 * an empty source address and the L1 payload), then a bit-set signature. The aggregate BLS
 * signature is a real signature over the unsigned bytes, made with the sum of the signers'
 * secret keys (BLS aggregation is linear), so it is a valid curve point a decoder accepts
 * (signed by blst: blsSign.ts).
 */
import { avax, type Codec, type Primitive } from "./avax.ts"
import { blsSign } from "./blsSign.ts"
import type { NetCtx } from "./context.ts"
import type { TxRecord } from "./types.ts"

const { Id, Int, Short, Bool, BigIntPr, Bytes, utils } = avax
const warp = avax.pvmSerial.warp
const P = warp.AddressedCallPayloads

/** The AddressedCall payload for an L1 tx, or undefined when the tx produces no warp message. */
const payloadOf = (tx: TxRecord, codec: Codec): Uint8Array | undefined => {
  const l1 = tx.l1
  if (!l1) return undefined
  switch (l1.kind) {
    case "convert":
      // the conversion id is the hash of the conversion data; the tx id stands in for it
      return new P.SubnetToL1ConversionMessage(Id.fromString(tx.id)).toBytes(codec)
    case "register":
      return new P.L1ValidatorRegistrationMessage(Id.fromString(l1.validator.validationId), new Bool(true)).toBytes(codec)
    case "setWeight":
      return new P.L1ValidatorWeightMessage(Id.fromString(l1.validationId), new BigIntPr(l1.nonce), new BigIntPr(l1.weight)).toBytes(codec)
    case "disable":
      return new P.L1ValidatorRegistrationMessage(Id.fromString(l1.validationId), new Bool(false)).toBytes(codec)
    default:
      return undefined
  }
}

/** Whether route 1 can sign a message for this tx. */
export const hasWarpMessage = (tx: TxRecord): boolean =>
  tx.l1 !== undefined && (tx.l1.kind === "convert" || tx.l1.kind === "register" || tx.l1.kind === "setWeight" || tx.l1.kind === "disable")

/** Hex (no 0x, like the document's example) of the signed message for an L1-related tx. */
export const signedWarpMessage = (ctx: NetCtx, tx: TxRecord): string | undefined => {
  const manager = warp.getWarpManager()
  const codec = manager.getDefaultCodec()
  const payload = payloadOf(tx, codec)
  if (!payload) return undefined
  // AddressedCall: codec version, type id 1, source address (empty for the P-chain), payload
  const addressedCall = utils.concatBytes(new Short(0).toBytes(), new Int(1).toBytes(), new Bytes(new Uint8Array(0)).toBytes(), new Bytes(payload).toBytes())
  const unsigned = new warp.WarpUnsignedMessage(new Int(ctx.networkId), Id.fromString(ctx.chainIds.P), new Bytes(addressedCall))
  const signerCount = ctx.int(5, 12, "warp-signers", tx.id)
  const bitset = new Uint8Array(Math.ceil(signerCount / 8))
  for (let i = 0; i < signerCount; i++) {
    const byte = bitset.length - 1 - Math.floor(i / 8)
    if (ctx.unit("warp-bit", tx.id, i) < 0.8 || i === 0) bitset[byte] = (bitset[byte] as number) | (1 << i % 8)
  }
  const secret = ctx.bytes(32, "warp-sk", tx.id)
  // keep the scalar below the BLS12-381 group order
  secret[0] = (secret[0] as number) & 0x3f
  const signature = blsSign(unsigned.toBytes(codec), secret)
  // written as signed: BlsSignature.fromSignatureBytes would decode the point and check it again
  // (~4 ms) only to write the same 96 bytes back
  const asSigned: Primitive = { toBytes: () => signature }
  const message = new warp.WarpMessage(unsigned, new warp.WarpSignature(new Bytes(bitset), asSigned))
  return Buffer.from(utils.concatBytes(manager.getDefaultCodecId().toBytes(), message.toBytes(codec))).toString("hex")
}
