/**
 * The P-chain codec's type ids (avalanchego vms/platformvm/block/codec.go and txs/codec.go): ids
 * are handed out in registration order, so blocks take 0-4, the secp256k1fx types and Apricot txs
 * 5-22, Banff txs and signers 23-28, Banff blocks 29-32, and later eras' txs 33 on.
 * Everything that needs a type's name, id or era derives it from these tables.
 */

export type Era = "Apricot" | "Banff" | "Durango" | "Etna" | "Helicon"

export const P_BLOCK_TYPES = [
  { typeId: 0, name: "ApricotProposalBlock", era: "Apricot" },
  { typeId: 1, name: "ApricotAbortBlock", era: "Apricot" },
  { typeId: 2, name: "ApricotCommitBlock", era: "Apricot" },
  { typeId: 3, name: "ApricotStandardBlock", era: "Apricot" },
  { typeId: 4, name: "ApricotAtomicBlock", era: "Apricot" },
  { typeId: 29, name: "BanffProposalBlock", era: "Banff" },
  { typeId: 30, name: "BanffAbortBlock", era: "Banff" },
  { typeId: 31, name: "BanffCommitBlock", era: "Banff" },
  { typeId: 32, name: "BanffStandardBlock", era: "Banff" }
] as const satisfies ReadonlyArray<{ typeId: number; name: string; era: Era }>

export const P_TX_TYPES = [
  { typeId: 12, name: "AddValidatorTx", era: "Apricot" },
  { typeId: 13, name: "AddSubnetValidatorTx", era: "Apricot" },
  { typeId: 14, name: "AddDelegatorTx", era: "Apricot" },
  { typeId: 15, name: "CreateChainTx", era: "Apricot" },
  { typeId: 16, name: "CreateSubnetTx", era: "Apricot" },
  { typeId: 17, name: "ImportTx", era: "Apricot" },
  { typeId: 18, name: "ExportTx", era: "Apricot" },
  { typeId: 19, name: "AdvanceTimeTx", era: "Apricot" },
  { typeId: 20, name: "RewardValidatorTx", era: "Apricot" },
  { typeId: 23, name: "RemoveSubnetValidatorTx", era: "Banff" },
  { typeId: 24, name: "TransformSubnetTx", era: "Banff" },
  { typeId: 25, name: "AddPermissionlessValidatorTx", era: "Banff" },
  { typeId: 26, name: "AddPermissionlessDelegatorTx", era: "Banff" },
  { typeId: 33, name: "TransferSubnetOwnershipTx", era: "Durango" },
  { typeId: 34, name: "BaseTx", era: "Durango" },
  { typeId: 35, name: "ConvertSubnetToL1Tx", era: "Etna" },
  { typeId: 36, name: "RegisterL1ValidatorTx", era: "Etna" },
  { typeId: 37, name: "SetL1ValidatorWeightTx", era: "Etna" },
  { typeId: 38, name: "IncreaseL1ValidatorBalanceTx", era: "Etna" },
  { typeId: 39, name: "DisableL1ValidatorTx", era: "Etna" },
  { typeId: 40, name: "AddAutoRenewedValidatorTx", era: "Helicon" },
  { typeId: 41, name: "SetAutoRenewedValidatorConfigTx", era: "Helicon" },
  { typeId: 42, name: "RewardAutoRenewedValidatorTx", era: "Helicon" }
] as const satisfies ReadonlyArray<{ typeId: number; name: string; era: Era }>

/** The codec's other registered types: what may sit in a tx's interface-typed fields. */
export const P_COMPONENT_TYPE_IDS = {
  TransferInput: 5,
  TransferOutput: 7,
  Credential: 9,
  Input: 10,
  OutputOwners: 11,
  StakeableLockIn: 21,
  StakeableLockOut: 22,
  EmptySigner: 27,
  ProofOfPossession: 28
} as const

export type PBlockTypeName = (typeof P_BLOCK_TYPES)[number]["name"]
export type PTxTypeName = (typeof P_TX_TYPES)[number]["name"]

export interface PTypeInfo<Name extends string> {
  readonly typeId: number
  readonly name: Name
  readonly era: Era
}

const byId = <Name extends string>(table: ReadonlyArray<PTypeInfo<Name>>): ReadonlyArray<PTypeInfo<Name> | undefined> => {
  const out: Array<PTypeInfo<Name> | undefined> = []
  for (const t of table) out[t.typeId] = t
  return out
}

const BLOCK_BY_ID = byId<PBlockTypeName>(P_BLOCK_TYPES)
const TX_BY_ID = byId<PTxTypeName>(P_TX_TYPES)

export const pBlockTypeById = (typeId: number): PTypeInfo<PBlockTypeName> | undefined => BLOCK_BY_ID[typeId]
export const pTxTypeById = (typeId: number): PTypeInfo<PTxTypeName> | undefined => TX_BY_ID[typeId]

export const pTxTypeByName = (name: PTxTypeName): PTypeInfo<PTxTypeName> => P_TX_TYPES.find((t) => t.name === name) as PTypeInfo<PTxTypeName>
