import { describe, expect, it } from "vitest"
import { PvmDecodeError, decodePBlock, decodePTx, pBytesFromNodeHex } from "../../../src/decode/pvm/index.ts"
import { Wire, buildTx, sha256, withCodecVersion } from "./encode.ts"

/** A BanffStandardBlock (type 32) holding one BaseTx: version 2 + type 4 + time 8 + parent 32 + height 8 = 54, then the tx count. */
const standardBlock = () => {
  const tx = buildTx("BaseTx", 1)
  const w = new Wire()
  w.u16(0)
  w.u32(32)
  w.u64(1_700_000_000n)
  w.id()
  w.u64(42n)
  w.u32(1)
  w.raw(tx.bytes)
  return w.bytes()
}
const TX_START = 58

/** Standalone BaseTx offsets: version 2, type id 4, networkID 4, blockchainID 32, then the outputs count. */
const OUTPUTS_COUNT = 42
const FIRST_OUTPUT_TYPE = OUTPUTS_COUNT + 4 + 32

const setU32 = (bytes: Uint8Array, at: number, v: number): Uint8Array => {
  const copy = new Uint8Array(bytes)
  new DataView(copy.buffer).setUint32(at, v)
  return copy
}

const failure = (f: () => unknown): PvmDecodeError => {
  try {
    f()
  } catch (err) {
    if (err instanceof PvmDecodeError) return err
    throw err
  }
  throw new Error("decoded without an error")
}

describe("malformed P-chain bytes", () => {
  it("given every truncation of a valid block, when decoded, then each throws PvmDecodeError and none returns a partial block", () => {
    const bytes = standardBlock()
    expect(decodePBlock(bytes).txs).toHaveLength(1)

    for (let n = 0; n < bytes.length; n++) {
      expect(() => decodePBlock(bytes.subarray(0, n)), `cut at ${n}`).toThrow(PvmDecodeError)
    }
  })

  it("given a block cut inside its parent id, when decoded, then the error names the field, what was missing and where", () => {
    const cut = standardBlock().subarray(0, 14 + 10)

    const err = failure(() => decodePBlock(cut))

    expect(err.message).toBe("parentID needs 32 bytes but only 10 remain at byte 14 of the block")
    expect(err.offset).toBe(14)
  })

  it("given empty bytes, when decoded, then the codec version is missing", () => {
    expect(failure(() => decodePBlock(new Uint8Array())).message).toBe("codec version needs 2 bytes but only 0 remain at byte 0 of the block")
  })

  it("given bytes left after a valid block, when decoded, then it says how many and where they start", () => {
    const bytes = standardBlock()
    const longer = new Uint8Array([...bytes, 1, 2, 3])

    expect(failure(() => decodePBlock(longer)).message).toBe(`3 bytes left over after the block at byte ${bytes.length} of the block`)
  })

  it("given a codec version other than 0, when decoded, then it is refused", () => {
    const bytes = standardBlock()
    bytes[1] = 1

    expect(failure(() => decodePBlock(bytes)).message).toBe("codec version 1 is not 0 at byte 0 of the block")
  })

  it("given block type ids that are not blocks, when decoded, then each is an unknown block type id at byte 2", () => {
    for (const id of [5, 12, 28, 33, 99]) {
      expect(failure(() => decodePBlock(setU32(standardBlock(), 2, id))).message).toBe(`unknown block type id ${id} at byte 2 of the block`)
    }
  })

  it("given tx type ids that are not txs, when decoded in a block, then each is an unknown tx type id where the tx starts", () => {
    for (const id of [0, 7, 21, 29, 43]) {
      expect(failure(() => decodePBlock(setU32(standardBlock(), TX_START, id))).message).toBe(`unknown tx type id ${id} at byte ${TX_START} of the block`)
    }
  })

  it("given a tx count the block cannot hold, when decoded, then the length is past the end", () => {
    const bytes = setU32(standardBlock(), 54, 0xffffffff)

    expect(failure(() => decodePBlock(bytes)).message).toBe(`txs count 4294967295 runs past the end (${bytes.length - TX_START} bytes remain) at byte 54 of the block`)
  })

  it("given an output count or memo length past the end of a tx, when decoded, then the error names it", () => {
    const signed = withCodecVersion(buildTx("BaseTx", 1).bytes)

    expect(failure(() => decodePTx(setU32(signed, OUTPUTS_COUNT, 1_000_000))).message).toBe(
      `outputs count 1000000 runs past the end (${signed.length - OUTPUTS_COUNT - 4} bytes remain) at byte ${OUTPUTS_COUNT} of the tx`
    )
    // the memo's length precedes its 5 bytes and the credentials (count 4, then 4 + 4 + 65 and 4 + 4 + 130)
    const memoAt = signed.length - (4 + 73 + 138) - 5 - 4
    expect(failure(() => decodePTx(setU32(signed, memoAt, 1_000_000))).message).toBe(
      `memo length 1000000 runs past the end (${signed.length - memoAt - 4} bytes remain) at byte ${memoAt} of the tx`
    )
  })

  it("given an output whose type id is not an output, when decoded, then the error says what was expected", () => {
    const signed = withCodecVersion(buildTx("BaseTx", 1).bytes)

    expect(failure(() => decodePTx(setU32(signed, FIRST_OUTPUT_TYPE, 5))).message).toBe(
      `unknown output type id 5 (expected 7 TransferOutput or 22 StakeableLockOut) at byte ${FIRST_OUTPUT_TYPE} of the tx`
    )
  })

  it("given a credential of another type, a lock inside a lock, a signer and an owner of wrong types, when decoded, then each is refused", () => {
    // AdvanceTimeTx with one empty credential: version 2 + type 4 + time 8 + count 4, then the credential's type id at 18
    const advance = withCodecVersion(buildTx("AdvanceTimeTx", 1, [0]).bytes)
    expect(failure(() => decodePTx(setU32(advance, 18, 10))).message).toBe("unknown credential type id 10 (expected 9 Credential) at byte 18 of the tx")

    // BaseTx's second output is a LockOut: its inner type id follows the lock's locktime
    const base = withCodecVersion(buildTx("BaseTx", 1).bytes)
    const secondOutput = FIRST_OUTPUT_TYPE + 4 + 8 + 8 + 4 + 4 + 2 * 20
    const innerType = secondOutput + 32 + 4 + 8
    expect(new DataView(base.buffer).getUint32(secondOutput + 32)).toBe(22)
    expect(failure(() => decodePTx(setU32(base, innerType, 22))).message).toBe(`unknown locked output type id 22 (expected 7 TransferOutput) at byte ${innerType} of the tx`)
  })

  it("given a valid standalone tx with bytes after it, when decoded, then the leftover is refused", () => {
    const signed = withCodecVersion(buildTx("RewardValidatorTx", 1, []).bytes)

    expect(failure(() => decodePTx(new Uint8Array([...signed, 0]))).message).toBe(`1 bytes left over after the tx at byte ${signed.length} of the tx`)
  })
})

describe("pBytesFromNodeHex", () => {
  const body = standardBlock()
  const hex = `0x${Buffer.concat([body, sha256(body).subarray(28)]).toString("hex")}`

  it("given the node's hex of a block, when read, then the checksum is checked and removed", () => {
    expect(pBytesFromNodeHex(hex)).toEqual(body)
    expect(decodePBlock(pBytesFromNodeHex(hex)).height).toBe(42n)
  })

  it("given a flipped checksum, no 0x, or half a byte, when read, then each is refused", () => {
    const flipped = `${hex.slice(0, -1)}${hex.endsWith("0") ? "1" : "0"}`
    expect(failure(() => pBytesFromNodeHex(flipped)).message).toBe("node hex fails its checksum: its last 4 bytes are not the tail of sha256 of the rest")
    expect(failure(() => pBytesFromNodeHex(hex.slice(2))).message).toMatch(/^node hex does not start with 0x/)
    expect(failure(() => pBytesFromNodeHex(hex.slice(0, -1))).message).toMatch(/^node hex is not whole bytes of hex digits/)
  })
})
