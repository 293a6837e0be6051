import * as runtime from "@avalabs/avalanchejs"
import { describe, expect, it } from "vitest"
import { readReferenceJson } from "../support/reference.ts"
import { UtxoDecodeError, decodeUtxoHex, type ChainLetter } from "../../src/decode/utxo.ts"

interface Vector {
  readonly label: string
  readonly chain: ChainLetter
  readonly hrp: string
  readonly hex: string
  readonly expected: {
    readonly txId: string
    readonly outputIndex: number
    readonly utxoId: string
    readonly assetId: string
    readonly outputTypeId: number
    readonly amount: string
    readonly locktime: string
    readonly stakeableLocktime: string
    readonly threshold: number
    readonly addresses: ReadonlyArray<string>
  }
}

const vectors = (
  readReferenceJson<{ vectors: Vector[] }>("utxo-vectors.json")
).vectors

/** Flips the lowest bit of the byte at `index` (negative: from the end) of a 0x hex string. */
const flipByte = (hex: string, index: number): string => {
  const bytes = Buffer.from(hex.slice(2), "hex")
  const i = index < 0 ? bytes.length + index : index
  bytes[i] = (bytes[i] as number) ^ 0x01
  return "0x" + bytes.toString("hex")
}

/** Re-checksums a body so only the parse, not the checksum, can reject it. */
const withChecksum = (body: Uint8Array): string => {
  const utils = (runtime as unknown as { utils: { addChecksum(b: Uint8Array): Uint8Array; bufferToHex(b: Uint8Array): string } }).utils
  return utils.bufferToHex(utils.addChecksum(body))
}

describe("decodeUtxoHex", () => {
  it("given the three documented node UTXOs, when decoded, then every field equals the vector's expected value", () => {
    expect(vectors).toHaveLength(3)
    for (const v of vectors) {
      const got = decodeUtxoHex(v.hex, v.hrp, v.chain)
      expect(got, v.label).toEqual({
        utxoId: v.expected.utxoId,
        txId: v.expected.txId,
        outputIndex: v.expected.outputIndex,
        assetId: v.expected.assetId,
        outputType: v.expected.outputTypeId,
        amount: BigInt(v.expected.amount),
        locktime: BigInt(v.expected.locktime),
        stakeableLocktime: BigInt(v.expected.stakeableLocktime),
        threshold: v.expected.threshold,
        addresses: v.expected.addresses,
        bytes: v.hex
      })
    }
  })

  it("given the X-chain vector, when decoded for the P-chain with the fuji prefix, then owners take that chain and prefix", () => {
    const v = vectors[0] as Vector
    const got = decodeUtxoHex(v.hex, "fuji", "P")
    const parseBech32 = (runtime as unknown as { utils: { parseBech32(s: string): [string, Uint8Array] } }).utils.parseBech32
    const [address] = got.addresses as [string]
    expect(address.startsWith("P-fuji1")).toBe(true)
    expect(parseBech32(address.slice(2))[1]).toEqual(parseBech32((v.expected.addresses[0] as string).slice(2))[1])
    expect(got.utxoId).toBe(v.expected.utxoId)
  })

  it("given a vector whose checksum byte is flipped, when decoded, then it throws a checksum error", () => {
    const v = vectors[1] as Vector
    expect(() => decodeUtxoHex(flipByte(v.hex, -1), v.hrp, v.chain)).toThrow(/fails its checksum/)
  })

  it("given a vector whose body byte is flipped, when decoded, then the checksum no longer matches", () => {
    const v = vectors[2] as Vector
    expect(() => decodeUtxoHex(flipByte(v.hex, 40), v.hrp, v.chain)).toThrow(UtxoDecodeError)
  })

  it("given garbage, when decoded, then it throws a clear UtxoDecodeError", () => {
    expect(() => decodeUtxoHex("not hex", "avax", "X")).toThrow(/not 0x-prefixed hex/)
    expect(() => decodeUtxoHex("0x0a0b", "avax", "X")).toThrow(/too short/)
    expect(() => decodeUtxoHex("0xabc", "avax", "X")).toThrow(/whole bytes/)
    // a valid checksum over bytes that are no UTXO: the parse must reject them
    expect(() => decodeUtxoHex(withChecksum(new Uint8Array([0, 0, 1, 2, 3])), "avax", "X")).toThrow(/does not parse as a X-chain UTXO/)
    expect(() => decodeUtxoHex(withChecksum(new Uint8Array([0, 9, ...new Array(40).fill(7)])), "avax", "P")).toThrow(UtxoDecodeError)
  })

  it("given a UTXO with trailing bytes under a valid checksum, when decoded, then the leftover bytes are rejected", () => {
    const v = vectors[0] as Vector
    const body = Buffer.from(v.hex.slice(2, -8), "hex")
    expect(() => decodeUtxoHex(withChecksum(new Uint8Array([...body, 0])), v.hrp, v.chain)).toThrow(/left over/)
  })

  it("given a P-chain stakeable-lock output (type 22), when decoded, then amount, both locktimes and owners come from inside the lock", () => {
    const lib = runtime as unknown as {
      Utxo: new (id: unknown, asset: unknown, out: unknown) => { toBytes(codec: unknown): Uint8Array }
      avaxSerial: { UTXOID: { fromNative(txId: string, i: number): unknown } }
      Id: { fromString(s: string): unknown }
      TransferOutput: new (amt: unknown, owners: unknown) => unknown
      OutputOwners: { fromNative(addrs: Uint8Array[], locktime: bigint, threshold: number): unknown }
      BigIntPr: new (n: bigint) => unknown
      pvmSerial: { StakeableLockOut: new (lock: unknown, out: unknown) => unknown }
      utils: { getManagerForVM(vm: "PVM"): { getDefaultCodec(): unknown; getDefaultCodecId(): { toBytes(): Uint8Array } } }
    }
    const v = vectors[2] as Vector
    const owner = Buffer.from("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c", "hex")
    const out = new lib.pvmSerial.StakeableLockOut(
      new lib.BigIntPr(1_900_000_000n),
      new lib.TransferOutput(new lib.BigIntPr(25_000_000_000n), lib.OutputOwners.fromNative([owner], 1_700_000_000n, 1))
    )
    const utxo = new lib.Utxo(lib.avaxSerial.UTXOID.fromNative(v.expected.txId, 3), lib.Id.fromString(v.expected.assetId), out)
    const manager = lib.utils.getManagerForVM("PVM")
    const hex = withChecksum(new Uint8Array([...manager.getDefaultCodecId().toBytes(), ...utxo.toBytes(manager.getDefaultCodec())]))
    const got = decodeUtxoHex(hex, "avax", "P")
    expect(got).toMatchObject({
      txId: v.expected.txId,
      outputIndex: 3,
      outputType: 22,
      amount: 25_000_000_000n,
      locktime: 1_700_000_000n,
      stakeableLocktime: 1_900_000_000n,
      threshold: 1,
      addresses: ["P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"]
    })
    // the same bytes are no X-chain UTXO: the AVM codec has no type 22
    expect(() => decodeUtxoHex(hex, "avax", "X")).toThrow(/does not parse as a X-chain UTXO/)
  })
})
