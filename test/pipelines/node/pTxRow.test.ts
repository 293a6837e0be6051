/**
 * Nothing a P-chain tx carries is dropped on its way into node_p_blocks' `txs`: for every tx type
 * the codec registers, a tx built from fresh values (test/decode/pvm/encode.ts: every value on the
 * wire differs from every other) is decoded and mapped, and each of its fields is found again in a
 * column or, under its json name, in `other_fields`.
 */
import { describe, expect, it } from "vitest"
import { pTxRow } from "../../../pipelines/_shared/pTxRow.ts"
import { decodePTx, P_TX_TYPES, type PTx } from "../../../src/decode/pvm/index.ts"
import { cb58 } from "../../../src/decode/pvm/text.ts"
import { buildTx, withCodecVersion } from "../../decode/pvm/encode.ts"

type Leaf = string

/** Every scalar inside a value, as text: bigints and numbers as digits, Dates as Unix seconds. */
const leaves = (v: unknown, out: Leaf[] = []): Leaf[] => {
  if (v === null || v === undefined) return out
  if (v instanceof Date) out.push(String(v.getTime() / 1000))
  else if (Array.isArray(v)) for (const x of v) leaves(x, out)
  else if (typeof v === "object") for (const x of Object.values(v)) leaves(x, out)
  else out.push(String(v))
  return out
}

/** The row's values, with `other_fields` read back from its JSON text. */
const rowLeaves = (row: ReturnType<typeof pTxRow>): Set<Leaf> => {
  const { other_fields: other, ...columns } = row
  return new Set([...leaves(columns), ...leaves(other === null ? null : JSON.parse(other))])
}

/** Fields with a column of their own, and the column (txs.Validator's fields: the validator's columns). */
const COLUMN_OF: Readonly<Record<string, ReadonlyArray<string>>> = {
  networkID: ["network_id"],
  blockchainID: ["blockchain_id"],
  outputs: ["outputs"],
  inputs: ["inputs"],
  memo: ["memo"],
  sourceChain: ["source_chain"],
  importedInputs: ["imported_inputs"],
  destinationChain: ["destination_chain"],
  exportedOutputs: ["exported_outputs"],
  stake: ["stake"],
  validator: ["node_id", "start_time", "end_time", "weight"],
  subnetID: ["subnet_id"]
}

/**
 * The tx of `type` decoded. A validator's fresh start and end are far past what a timestamp column
 * holds (such a record is a reject, src/transform/ColumnRange.ts): here they become times of 2024.
 */
const decoded = (type: PTx["type"]): PTx => {
  const tx = decodePTx(withCodecVersion(buildTx(type).bytes))
  const u = tx.unsignedTx as { validator?: { start: bigint; end: bigint } }
  if (u.validator === undefined) return tx
  return { ...tx, unsignedTx: { ...tx.unsignedTx, validator: { ...u.validator, start: 1_704_067_200n, end: 1_706_745_600n } } } as PTx
}

describe("P-chain tx rows keep every field", () => {
  for (const { name } of P_TX_TYPES) {
    it(`given a ${name} of fresh values, when it becomes a row, then each field is a column or a key of other_fields, and every value inside it is in the row`, () => {
      const tx = decoded(name)
      const row = pTxRow(tx)
      expect(row.tx_type).toBe(name)
      expect(row.tx_id).toBe(tx.id)
      const other = row.other_fields === null ? {} : (JSON.parse(row.other_fields) as Record<string, unknown>)
      for (const key of Object.keys(tx.unsignedTx)) {
        const columns = COLUMN_OF[key] ?? (key === "txID" && name.startsWith("Reward") ? ["rewarded_tx_id"] : key === "nodeID" && name !== "ConvertSubnetToL1Tx" ? ["node_id"] : [])
        if (columns.length > 0) {
          for (const c of columns) expect(row[c as keyof typeof row], `${name}.${key} → ${c}`).not.toBeNull()
          expect(key in other, `${name}.${key} is a column and not also in other_fields`).toBe(false)
        } else expect(key in other, `${name}.${key} is kept in other_fields`).toBe(true)
      }
      const kept = rowLeaves(row)
      // a few types write a node id as hex (types.JSONByteSlice): its column holds it as NodeID-…
      const asColumns = (leaf: Leaf): Leaf => (leaf.startsWith("0x") && leaf.length === 42 && row.node_id !== null ? `NodeID-${cb58(Buffer.from(leaf.slice(2), "hex"))}` : leaf)
      const lost = leaves(tx.unsignedTx).filter((leaf) => !kept.has(leaf) && !kept.has(asColumns(leaf)))
      expect(lost, name).toEqual([])
      expect(row.credentials.map((c) => c.signatures)).toEqual(tx.credentials.map((c) => c.signatures))
    })
  }

  it("given the staker and subnet txs, when they become rows, then the validator's node, period, weight and subnet and the rewarded tx land in their columns", () => {
    const subnetValidator = decoded("AddSubnetValidatorTx")
    const v = (subnetValidator.unsignedTx as { validator: { nodeID: string; start: bigint; end: bigint; weight: bigint; subnetID: string } }).validator
    expect(pTxRow(subnetValidator)).toMatchObject({
      node_id: v.nodeID,
      start_time: new Date(Number(v.start) * 1000),
      end_time: new Date(Number(v.end) * 1000),
      weight: v.weight,
      subnet_id: v.subnetID
    })
    const reward = decoded("RewardValidatorTx")
    expect(pTxRow(reward)).toMatchObject({ rewarded_tx_id: (reward.unsignedTx as { txID: string }).txID, other_fields: null, inputs: [], outputs: [] })
    const advance = decoded("AdvanceTimeTx")
    expect(JSON.parse(pTxRow(advance).other_fields ?? "{}")).toEqual({ time: String((advance.unsignedTx as { time: bigint }).time) })
  })
})
