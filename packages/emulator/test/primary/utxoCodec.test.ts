import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { avax } from "../../src/world/primary/avax.ts"
import { cb58 } from "../../src/world/primary/ids.ts"
import { readReferenceJson } from "../../../../test/support/reference.ts"
import { parseAddress } from "../../src/world/primary/ids.ts"
import { sortAddresses } from "../../src/world/primary/codec/owners.ts"
import { decodeUtxoHex, encodeUtxo, utxoHex, utxoId, type UtxoChain } from "../../src/world/primary/utxoCodec.ts"

interface Vector {
  readonly label: string
  readonly chain: UtxoChain
  readonly hrp: string
  readonly hex: string
  readonly expected: {
    readonly txId: string
    readonly outputIndex: number
    readonly utxoId: string
    readonly assetId: string
    readonly amount: string
    readonly locktime: string
    readonly stakeableLocktime: string
    readonly threshold: number
    readonly addresses: ReadonlyArray<string>
  }
}

const vectors: ReadonlyArray<Vector> = readReferenceJson<{ vectors: Vector[] }>("utxo-vectors.json").vectors

const addressBytes = (a: string): Uint8Array => {
  const parsed = parseAddress(a)
  if (typeof parsed === "string") throw new Error(parsed)
  return parsed.bytes
}

describe("UTXO codec against the node's documented vectors", () => {
  it.each(vectors)("given the decoded values of '$label', when encoded, then the node's hex is reproduced byte for byte", (v) => {
    const hex = utxoHex(v.chain, {
      txId: v.expected.txId,
      outputIndex: v.expected.outputIndex,
      assetId: v.expected.assetId,
      amount: BigInt(v.expected.amount),
      locktime: BigInt(v.expected.locktime),
      threshold: v.expected.threshold,
      addresses: v.expected.addresses.map(addressBytes),
      stakeableLocktime: BigInt(v.expected.stakeableLocktime)
    })
    expect(hex).toBe(v.hex)
  })

  it.each(vectors)("given '$label', when its tx id and index are hashed, then the UTXO id is the node's ($expected.utxoId)", (v) => {
    expect(utxoId(v.expected.txId, v.expected.outputIndex)).toBe(v.expected.utxoId)
  })

  it.each(vectors)("given the hex of '$label', when decoded, then every field matches the documented values", (v) => {
    const d = decodeUtxoHex(v.chain, v.hex)
    expect({
      txId: d.txId,
      outputIndex: d.outputIndex,
      utxoId: d.utxoId,
      assetId: d.assetId,
      amount: d.amount.toString(),
      locktime: d.locktime.toString(),
      stakeableLocktime: d.stakeableLocktime.toString(),
      threshold: d.threshold,
      addresses: d.addresses.map((a) => Buffer.from(a).toString("hex"))
    }).toEqual({
      ...v.expected,
      outputTypeId: undefined,
      addresses: v.expected.addresses.map((a) => Buffer.from(addressBytes(a)).toString("hex"))
    } as unknown)
  })

  it("given a hex whose checksum is altered, when decoded, then it is refused", () => {
    const v = vectors[0] as Vector
    const broken = v.hex.slice(0, -1) + (v.hex.endsWith("0") ? "1" : "0")
    expect(() => decodeUtxoHex(v.chain, broken)).toThrow(/checksum/)
  })

  it("given a P-chain output with a stakeable lock, when encoded and decoded, then the lock survives (StakeableLockOut, type 22)", () => {
    const fields = {
      txId: vectors[2]?.expected.txId as string,
      outputIndex: 3,
      assetId: vectors[2]?.expected.assetId as string,
      amount: 123_456_789n,
      locktime: 0n,
      threshold: 1,
      addresses: [addressBytes("P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5")],
      stakeableLocktime: 1_800_000_000n
    }
    const hex = utxoHex("P", fields)
    // codec 0000, tx id, index, asset id, then the output's type id 0x16 = 22
    expect(hex.slice(2 + 4 + 64 + 8 + 64, 2 + 4 + 64 + 8 + 64 + 8)).toBe("00000016")
    expect(decodeUtxoHex("P", hex).stakeableLocktime).toBe(1_800_000_000n)
  })
})

describe("UTXO ids computed by the emulator", () => {
  it("given random tx ids (some with leading zero bytes) and output indices up to 2^32 - 1, when named, then each id equals avalanchejs' UTXOID.ID()", () => {
    for (let i = 0; i < 2000; i++) {
      const b = new Uint8Array(randomBytes(32))
      b.fill(0, 0, i % 3)
      const txId = cb58(b)
      for (const index of [0, 1, i, 255, 256, 65_536, 2 ** 32 - 1]) expect(utxoId(txId, index)).toBe(avax.avaxSerial.UTXOID.fromNative(txId, index).ID())
    }
  })
})


/** avalanchejs' encoding of the same fields: the reference the direct encoder is held to. */
const avalanchejsBytes = (chain: UtxoChain, f: Parameters<typeof encodeUtxo>[1]): Uint8Array => {
  const { Address, BigIntPr, Id, Int, OutputOwners, TransferOutput, Utxo, pvmSerial, utils } = avax
  const manager = utils.getManagerForVM(chain === "X" ? "AVM" : "PVM")
  const owners = new OutputOwners(new BigIntPr(f.locktime), new Int(f.threshold), sortAddresses(f.addresses).map((a) => new Address(a)))
  const transfer = new TransferOutput(new BigIntPr(f.amount), owners)
  const output = f.stakeableLocktime > 0n ? new pvmSerial.StakeableLockOut(new BigIntPr(f.stakeableLocktime), transfer) : transfer
  const utxo = new Utxo(new avax.avaxSerial.UTXOID(Id.fromString(f.txId), new Int(f.outputIndex)), Id.fromString(f.assetId), output)
  return utils.concatBytes(manager.getDefaultCodecId().toBytes(), utxo.toBytes(manager.getDefaultCodec()))
}

describe("UTXO bytes written directly", () => {
  it("given random outputs of both chains (locked or not, 0–4 owners in any order, leading zero bytes in ids), when encoded, then the bytes and hex equal avalanchejs'", () => {
    for (let i = 0; i < 600; i++) {
      const chain: UtxoChain = i % 2 === 0 ? "P" : "X"
      const id = (): string => {
        const b = new Uint8Array(randomBytes(32))
        b.fill(0, 0, i % 3)
        return cb58(b)
      }
      const addresses = Array.from({ length: i % 5 }, () => new Uint8Array(randomBytes(20)))
      const fields = {
        txId: id(),
        outputIndex: [0, 1, i, 65_536, 2 ** 32 - 1][i % 5] as number,
        assetId: id(),
        amount: randomBytes(8).readBigUInt64BE(),
        locktime: i % 7 === 0 ? randomBytes(8).readBigUInt64BE() : 0n,
        threshold: Math.min(addresses.length, i % 3),
        addresses,
        stakeableLocktime: chain === "P" && i % 4 === 0 ? randomBytes(8).readBigUInt64BE() | 1n : 0n
      }
      const reference = avalanchejsBytes(chain, fields)
      expect(Buffer.from(encodeUtxo(chain, fields)).toString("hex")).toBe(Buffer.from(reference).toString("hex"))
      expect(utxoHex(chain, fields)).toBe(avax.utils.bufferToHex(avax.utils.addChecksum(reference)))
    }
  })

  it("given an X-chain output with a stakeable lock, when encoded, then it is refused", () => {
    const fields = { txId: cb58(new Uint8Array(32)), outputIndex: 0, assetId: cb58(new Uint8Array(32)), amount: 1n, locktime: 0n, threshold: 1, addresses: [new Uint8Array(20)], stakeableLocktime: 5n }
    expect(() => encodeUtxo("X", fields)).toThrow(/only on the P-chain/)
  })
})
