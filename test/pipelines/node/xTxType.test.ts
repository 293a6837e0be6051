/**
 * The X-chain json names no tx type, yet decides it: each of the AVM's five tx types adds its own
 * fields to avax.BaseTx's, and no two add the same set. The fields, from avalanchego's json tags:
 * - avax.BaseTx (vms/components/avax/base_tx.go): networkID, blockchainID, outputs, inputs, memo
 * - BaseTx (vms/avm/txs/base_tx.go): nothing more
 * - CreateAssetTx (create_asset_tx.go): name, symbol, denomination, initialStates
 * - OperationTx (operation_tx.go): operations
 * - ImportTx (import_tx.go): sourceChain, importedInputs
 * - ExportTx (export_tx.go): destinationChain, exportedOutputs
 */
import { describe, expect, it } from "vitest"
import { X_BASE_FIELDS, X_TX_FIELDS, xTxType } from "../../../pipelines/_shared/nodeTx.ts"
import { RecordError } from "../../../src/crawl/Dataset.ts"

const GO_FIELDS = {
  BaseTx: [],
  CreateAssetTx: ["name", "symbol", "denomination", "initialStates"],
  OperationTx: ["operations"],
  ImportTx: ["sourceChain", "importedInputs"],
  ExportTx: ["destinationChain", "exportedOutputs"]
} as const

const unsignedTx = (fields: ReadonlyArray<string>) => Object.fromEntries([...X_BASE_FIELDS, ...fields].map((k) => [k, k === "memo" ? "0x" : []]))

describe("X-chain tx types from the json's fields", () => {
  it("given avalanchego's fields of each type, when the table is read, then it holds exactly them and no two types share a set", () => {
    expect(X_TX_FIELDS).toEqual(GO_FIELDS)
    expect(X_BASE_FIELDS).toEqual(["networkID", "blockchainID", "outputs", "inputs", "memo"])
    const sets = Object.values(GO_FIELDS).map((f) => [...f].sort().join(","))
    expect(new Set(sets).size).toBe(sets.length)
  })

  for (const [type, fields] of Object.entries(GO_FIELDS)) {
    it(`given the json of a ${type}, when its type is decided, then it is ${type}, in any key order`, () => {
      expect(xTxType(unsignedTx(fields))).toBe(type)
      expect(xTxType(Object.fromEntries(Object.entries(unsignedTx(fields)).reverse()))).toBe(type)
    })
  }

  it("given json whose fields match no type (a field more, a field less, a P-chain field), when its type is decided, then it is a RecordError naming the odd fields", () => {
    const odd = [
      [unsignedTx(["sourceChain"]), "+sourceChain"],
      [unsignedTx(["operations", "name"]), "+operations, +name"],
      [{ ...unsignedTx([]), validator: {} }, "+validator"],
      [Object.fromEntries(Object.entries(unsignedTx([])).filter(([k]) => k !== "memo")), "-memo"]
    ] as const
    for (const [u, named] of odd) {
      expect(() => xTxType(u)).toThrow(RecordError)
      expect(() => xTxType(u)).toThrow(named)
    }
  })
})
