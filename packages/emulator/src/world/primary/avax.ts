/**
 * avalanchejs 5.2.0, typed for the part this world uses.
 *
 * Its declaration files import siblings without extensions ("./serializable"); the package is
 * "type": "module", so under NodeNext TypeScript cannot follow them and most exports type as
 * missing or `any`. This module runs the real library and states the signatures we call, copied
 * from its dist/*.d.ts, so a misuse still fails to compile.
 */
import * as runtime from "@avalabs/avalanchejs"

export interface Serializable {
  toBytes(codec: Codec): Uint8Array
}
export interface Codec {
  readonly _type: string
}
export interface Manager {
  getDefaultCodec(): Codec
  getDefaultCodecId(): { toBytes(): Uint8Array }
  unpack<T>(bytes: Uint8Array, unpacker: { fromBytes(b: Uint8Array, codec: Codec): [T, Uint8Array] }): T
}
export interface Primitive {
  toBytes(): Uint8Array
}
export interface IdT extends Primitive {
  toString(): string
}
export interface IntT extends Primitive {
  value(): number
}
export interface AddressT extends Primitive {}
export interface OutputOwnersT extends Serializable {
  readonly locktime: { value(): bigint }
  readonly threshold: IntT
  readonly addrs: ReadonlyArray<AddressT>
}
export interface UtxoIdT extends Serializable {
  readonly txID: IdT
  readonly outputIdx: IntT
  ID(): string
}
export interface UtxoT extends Serializable {
  readonly utxoId: UtxoIdT
  getOutputOwners(): OutputOwnersT
  ID(): string
}
export interface UtxoInfo {
  readonly amount: bigint
  readonly assetId: string
  readonly locktime: bigint
  readonly stakeableLocktime: bigint
  readonly threshold: number
  readonly utxoId: string
}
interface BytesCoder {
  encode(b: Uint8Array): string
  decode(s: string): Uint8Array
}

interface AvaxApi {
  readonly Id: { new (b: Uint8Array): IdT; fromString(s: string): IdT }
  readonly Int: new (n: number) => IntT
  readonly Short: new (n: number) => Primitive
  readonly Bool: new (b: boolean) => Primitive
  readonly BigIntPr: new (n: bigint) => Primitive
  readonly Bytes: new (b: Uint8Array) => Primitive
  readonly Address: new (b: Uint8Array) => AddressT
  readonly OutputOwners: new (locktime: Primitive, threshold: IntT, addrs: AddressT[]) => OutputOwnersT
  readonly TransferOutput: new (amt: Primitive, owners: OutputOwnersT) => Serializable
  readonly avaxSerial: {
    readonly UTXOID: { new (txId: IdT, idx: IntT): UtxoIdT; fromNative(txId: string, idx: number): UtxoIdT }
  }
  readonly Utxo: { new (utxoId: UtxoIdT, assetId: IdT, output: Serializable): UtxoT; fromBytes(b: Uint8Array, codec: Codec): [UtxoT, Uint8Array] }
  readonly pvmSerial: {
    readonly StakeableLockOut: new (lockTime: Primitive, transferOut: Serializable) => Serializable
    readonly warp: {
      getWarpManager(): Manager
      readonly WarpUnsignedMessage: new (networkId: IntT, sourceChainId: IdT, payload: Primitive) => Serializable
      readonly WarpSignature: new (signers: Primitive, signature: Primitive) => Serializable
      readonly WarpMessage: new (unsigned: Serializable, signature: Serializable) => Serializable
      readonly AddressedCallPayloads: {
        readonly L1ValidatorRegistrationMessage: new (validationId: IdT, registered: Primitive) => Serializable
        readonly L1ValidatorWeightMessage: new (validationId: IdT, nonce: Primitive, weight: Primitive) => Serializable
        readonly SubnetToL1ConversionMessage: new (conversionId: IdT) => Serializable
      }
    }
  }
  readonly bls: {
    secretKeyFromBytes(b: Uint8Array): bigint
    sign(msg: Uint8Array, sk: bigint): Uint8Array
    /** Decodes a compressed G2 point; throws when the bytes are no point of the signature group. */
    signatureFromBytes(b: Uint8Array): unknown
  }
  readonly utils: {
    readonly base58check: BytesCoder
    concatBytes(...parts: Uint8Array[]): Uint8Array
    bufferToHex(b: Uint8Array): string
    hexToBuffer(hex: string): Uint8Array
    addChecksum(b: Uint8Array): Uint8Array
    getManagerForVM(vm: "AVM" | "PVM" | "EVM"): Manager
    getUtxoInfo(u: UtxoT): UtxoInfo
    formatBech32(hrp: string, payload: Uint8Array): string
    format(chainIdAlias: string, hrp: string, addr: Uint8Array): string
    parseBech32(addr: string): [string, Uint8Array]
  }
}

export const avax = runtime as unknown as AvaxApi
