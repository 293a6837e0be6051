import { describe, expect, it } from "vitest"
import { P_BLOCK_TYPES, P_COMPONENT_TYPE_IDS, P_TX_TYPES, pBlockTypeById, pTxTypeById, pTxTypeByName } from "../../../src/decode/pvm/index.ts"

/**
 * The linear codec hands out type ids in registration order, skips included. This is that order
 * as avalanchego registers it (vms/platformvm/block/codec.go init: RegisterApricotTypes registers
 * the five Apricot blocks, then txs.RegisterApricotTypes, whose TransferInput and TransferOutput
 * are each followed by SkipRegistrations(1); RegisterBanffTypes registers txs.RegisterBanffTypes,
 * then the four Banff blocks; then txs.RegisterDurangoTypes, RegisterEtnaTypes,
 * RegisterHeliconTypes in vms/platformvm/txs/codec.go). `null` is a skipped id.
 */
const REGISTRATION_ORDER: ReadonlyArray<string | null> = [
  "ApricotProposalBlock",
  "ApricotAbortBlock",
  "ApricotCommitBlock",
  "ApricotStandardBlock",
  "ApricotAtomicBlock",
  "TransferInput",
  null,
  "TransferOutput",
  null,
  "Credential",
  "Input",
  "OutputOwners",
  "AddValidatorTx",
  "AddSubnetValidatorTx",
  "AddDelegatorTx",
  "CreateChainTx",
  "CreateSubnetTx",
  "ImportTx",
  "ExportTx",
  "AdvanceTimeTx",
  "RewardValidatorTx",
  "StakeableLockIn",
  "StakeableLockOut",
  "RemoveSubnetValidatorTx",
  "TransformSubnetTx",
  "AddPermissionlessValidatorTx",
  "AddPermissionlessDelegatorTx",
  "EmptySigner",
  "ProofOfPossession",
  "BanffProposalBlock",
  "BanffAbortBlock",
  "BanffCommitBlock",
  "BanffStandardBlock",
  "TransferSubnetOwnershipTx",
  "BaseTx",
  "ConvertSubnetToL1Tx",
  "RegisterL1ValidatorTx",
  "SetL1ValidatorWeightTx",
  "IncreaseL1ValidatorBalanceTx",
  "DisableL1ValidatorTx",
  "AddAutoRenewedValidatorTx",
  "SetAutoRenewedValidatorConfigTx",
  "RewardAutoRenewedValidatorTx"
]

/** The era each Register*Types function of the Go codecs belongs to. */
const ERA_OF_TX: Readonly<Record<string, string>> = {
  ...Object.fromEntries(REGISTRATION_ORDER.slice(12, 21).map((n) => [n, "Apricot"])),
  ...Object.fromEntries(REGISTRATION_ORDER.slice(23, 27).map((n) => [n, "Banff"])),
  TransferSubnetOwnershipTx: "Durango",
  BaseTx: "Durango",
  ...Object.fromEntries(REGISTRATION_ORDER.slice(35, 40).map((n) => [n, "Etna"])),
  ...Object.fromEntries(REGISTRATION_ORDER.slice(40).map((n) => [n, "Helicon"]))
}

const idOf = (name: string): number => REGISTRATION_ORDER.indexOf(name)

describe("the P-chain type tables", () => {
  it("given avalanchego's registration order, when each table entry's id is derived from it, then the tables agree", () => {
    for (const t of [...P_BLOCK_TYPES, ...P_TX_TYPES]) expect(t.typeId, t.name).toBe(idOf(t.name))
    for (const [name, id] of Object.entries(P_COMPONENT_TYPE_IDS)) expect(id, name).toBe(idOf(name))
  })

  it("given the registration order, when its tx and block names are listed, then the tables hold every one of them once", () => {
    const named = REGISTRATION_ORDER.filter((n): n is string => n !== null)
    const tabled = [...P_BLOCK_TYPES.map((t) => t.name), ...P_TX_TYPES.map((t) => t.name), ...Object.keys(P_COMPONENT_TYPE_IDS)]
    expect([...tabled].sort()).toEqual([...named].sort())
  })

  it("given each tx type, when its era is read, then it is the era of the Go function that registers it", () => {
    for (const t of P_TX_TYPES) expect(t.era, t.name).toBe(ERA_OF_TX[t.name])
    for (const b of P_BLOCK_TYPES) expect(b.era, b.name).toBe(b.name.startsWith("Apricot") ? "Apricot" : "Banff")
  })

  it("given a type id or name, when looked up, then the lookups invert each other and miss what is not a tx or block", () => {
    for (const t of P_TX_TYPES) {
      expect(pTxTypeById(t.typeId)).toEqual(t)
      expect(pTxTypeByName(t.name)).toEqual(t)
    }
    for (const b of P_BLOCK_TYPES) expect(pBlockTypeById(b.typeId)).toEqual(b)
    for (const id of [5, 7, 11, 22, 27, 43, 1000]) expect(pTxTypeById(id)).toBeUndefined()
    for (const id of [5, 12, 28, 33]) expect(pBlockTypeById(id)).toBeUndefined()
  })
})
