import { describe, expect, it } from "vitest"
import { P_TX_TYPES, decodePBlock, type PBlockTypeName } from "../../../src/decode/pvm/index.ts"
import { Wire, buildTx, cb58, sha256, type BuiltTx } from "./encode.ts"

/**
 * Block bytes written from the Go structs (vms/platformvm/block/*.go): codec version, type id,
 * then for Banff blocks the time and (proposal only) the decision txs, then the embedded Apricot
 * block: parent id, height, and its tx(s).
 */
const blockBytes = (
  typeId: number,
  parts: { time?: bigint; decisionTxs?: ReadonlyArray<BuiltTx>; txs?: ReadonlyArray<BuiltTx>; tx?: BuiltTx }
): { bytes: Uint8Array; parentID: string; height: bigint } => {
  const w = new Wire()
  w.u16(0)
  w.u32(typeId)
  if (parts.time !== undefined) w.u64(parts.time)
  if (parts.decisionTxs !== undefined) {
    w.u32(parts.decisionTxs.length)
    for (const t of parts.decisionTxs) w.raw(t.bytes)
  }
  const parentID = w.id()
  const height = w.freshU64()
  if (parts.tx !== undefined) w.raw(parts.tx.bytes)
  if (parts.txs !== undefined) {
    w.u32(parts.txs.length)
    for (const t of parts.txs) w.raw(t.bytes)
  }
  return { bytes: w.bytes(), parentID, height }
}

const decodedTx = (t: BuiltTx) => ({ type: t.type, id: t.id, unsignedTx: t.unsignedTx, credentials: t.credentials })

const TIME = 1_700_000_123n

describe("decodePBlock, every block type", () => {
  const proposal = buildTx("AdvanceTimeTx", 1, [])
  const atomic = buildTx("ImportTx", 1)
  const decisions = [buildTx("CreateSubnetTx", 1), buildTx("ExportTx", 1), buildTx("CreateSubnetTx", 1)]
  const reward = buildTx("RewardValidatorTx", 1, [])

  const cases: ReadonlyArray<{ name: PBlockTypeName; typeId: number; parts: Parameters<typeof blockBytes>[1]; txs: ReadonlyArray<BuiltTx> }> = [
    { name: "ApricotProposalBlock", typeId: 0, parts: { tx: proposal }, txs: [proposal] },
    { name: "ApricotAbortBlock", typeId: 1, parts: {}, txs: [] },
    { name: "ApricotCommitBlock", typeId: 2, parts: {}, txs: [] },
    { name: "ApricotStandardBlock", typeId: 3, parts: { txs: decisions }, txs: decisions },
    { name: "ApricotAtomicBlock", typeId: 4, parts: { tx: atomic }, txs: [atomic] },
    // Txs() of a Banff proposal block: its decision txs, then its proposal tx
    { name: "BanffProposalBlock", typeId: 29, parts: { time: TIME, decisionTxs: decisions.slice(0, 2), tx: reward }, txs: [...decisions.slice(0, 2), reward] },
    { name: "BanffAbortBlock", typeId: 30, parts: { time: TIME }, txs: [] },
    { name: "BanffCommitBlock", typeId: 31, parts: { time: TIME }, txs: [] },
    { name: "BanffStandardBlock", typeId: 32, parts: { time: TIME, txs: decisions }, txs: decisions }
  ]

  for (const c of cases) {
    it(`given a ${c.name} (type id ${c.typeId}) with ${c.txs.length} txs, when decoded, then type, id, parent, height, time and txs are the block's`, () => {
      const { bytes, parentID, height } = blockBytes(c.typeId, c.parts)

      const block = decodePBlock(bytes)

      expect(block).toEqual({
        type: c.name,
        id: cb58(sha256(bytes)),
        parentID,
        height,
        time: c.parts.time,
        txs: c.txs.map(decodedTx)
      })
    })
  }

  it("given a commit and an abort block with the same parent and height, when decoded, then only the type id tells them apart", () => {
    const commit = blockBytes(31, { time: TIME })
    const abort = new Uint8Array(commit.bytes)
    abort[5] = 30

    const [c, a] = [decodePBlock(commit.bytes), decodePBlock(abort)]

    expect([c.type, a.type]).toEqual(["BanffCommitBlock", "BanffAbortBlock"])
    expect({ ...a, type: c.type, id: c.id }).toEqual(c)
    expect(a.id).toBe(cb58(sha256(abort)))
  })

  it("given a Banff proposal block with no decision txs, when decoded, then its one tx is the proposal", () => {
    const { bytes } = blockBytes(29, { time: TIME, decisionTxs: [], tx: proposal })

    expect(decodePBlock(bytes).txs).toEqual([decodedTx(proposal)])
  })

  it("given a standard block holding one tx of every type, when decoded, then each tx's id hashes codec version 0 and its bytes in the block", () => {
    const all = P_TX_TYPES.map(({ name }) => buildTx(name, 5))
    const { bytes } = blockBytes(32, { time: TIME, txs: all })

    const block = decodePBlock(bytes)

    expect(block.txs.map((t) => t.type)).toEqual(P_TX_TYPES.map((t) => t.name))
    expect(block.txs).toEqual(all.map(decodedTx))
    all.forEach((t, i) => expect(block.txs[i]?.id).toBe(cb58(sha256(Buffer.concat([Buffer.from([0, 0]), t.bytes])))))
  })

  it("given a block whose height and time are above 2^53, when decoded, then they stay exact bigints", () => {
    const w = new Wire()
    w.u16(0)
    w.u32(31)
    w.u64(0xffff_ffff_ffff_fffen)
    const parentID = w.id()
    w.u64(0x0020_0000_0000_0001n)

    const block = decodePBlock(w.bytes())

    expect(block).toMatchObject({ parentID, time: 0xffff_ffff_ffff_fffen, height: 9_007_199_254_740_993n })
  })
})
