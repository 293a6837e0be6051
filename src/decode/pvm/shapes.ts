/**
 * The decoded values: each unsigned tx shaped as avalanchego's json.Marshal of it after InitCtx
 * (what platform.getBlock/getTx return with encoding "json"), key for key, with uint64 as bigint
 * where the JSON has a number, uint32/uint16/byte as number, ids as cb58 text.
 * Go source of each shape: vms/platformvm/txs/*.go, vms/components/avax, vms/secp256k1fx,
 * vms/platformvm/{stakeable,signer}, vms/platformvm/warp/message.
 */
import type { PBlockTypeName, PTxTypeName } from "./types.ts"

/** secp256k1fx.OutputOwners: its MarshalJSON writes a map, so the keys come sorted. */
export interface OutputOwnersJson {
  /** "P-<hrp>1…" bech32 (InitCtx gave the owners the chain and network). */
  readonly addresses: ReadonlyArray<string>
  readonly locktime: bigint
  readonly threshold: number
}

/** secp256k1fx.TransferOutput: MarshalJSON is OutputOwners' map plus "amount". */
export interface TransferOutputJson extends OutputOwnersJson {
  readonly amount: bigint
}

/** stakeable.LockOut: the embedded TransferableOut is tagged "output", so it nests. */
export interface StakeableLockOutJson {
  readonly locktime: bigint
  readonly output: TransferOutputJson
}

export type OutputJson = TransferOutputJson | StakeableLockOutJson

/** secp256k1fx.Input (also a tx's subnet/disable/config authorization). */
export interface InputJson {
  readonly signatureIndices: ReadonlyArray<number>
}

/** secp256k1fx.TransferInput: Input is embedded untagged, so its field is flattened in. */
export interface TransferInputJson extends InputJson {
  readonly amount: bigint
}

export interface StakeableLockInJson {
  readonly locktime: bigint
  readonly input: TransferInputJson
}

export type InputTypeJson = TransferInputJson | StakeableLockInJson

/** avax.TransferableOutput: Asset flattened, fxID as InitCtx sets it (never serialized). */
export interface TransferableOutputJson {
  readonly assetID: string
  readonly fxID: string
  readonly output: OutputJson
}

/** avax.TransferableInput: UTXOID and Asset flattened. */
export interface TransferableInputJson {
  readonly txID: string
  readonly outputIndex: number
  readonly assetID: string
  readonly fxID: string
  readonly input: InputTypeJson
}

/** secp256k1fx.Credential's MarshalJSON: 65-byte signatures as "0x" hex. */
export interface CredentialJson {
  readonly signatures: ReadonlyArray<string>
}

/** signer.ProofOfPossession's MarshalJSON: both as "0x" hex. */
export interface ProofOfPossessionJson {
  readonly publicKey: string
  readonly proofOfPossession: string
}

/** signer.Empty has no fields: {}. */
export type EmptySignerJson = Record<string, never>

export type SignerJson = EmptySignerJson | ProofOfPossessionJson

/** warp/message.PChainOwner: no MarshalJSON and no InitCtx, so its ids.ShortID addresses are cb58. */
export interface PChainOwnerJson {
  readonly threshold: number
  readonly addresses: ReadonlyArray<string>
}

/** txs.Validator. */
export interface ValidatorJson {
  readonly nodeID: string
  readonly start: bigint
  readonly end: bigint
  readonly weight: bigint
}

/** txs.SubnetValidator: Validator embedded untagged (flattened) plus the subnet. */
export interface SubnetValidatorJson extends ValidatorJson {
  readonly subnetID: string
}

/** txs.ConvertSubnetToL1Validator. */
export interface L1ValidatorJson {
  /** types.JSONByteSlice, so "0x" hex of the bytes, not "NodeID-…". */
  readonly nodeID: string
  readonly weight: bigint
  readonly balance: bigint
  readonly signer: ProofOfPossessionJson
  readonly remainingBalanceOwner: PChainOwnerJson
  readonly deactivationOwner: PChainOwnerJson
}

/** txs.BaseTx embeds avax.BaseTx untagged: these keys head every tx that has them. */
export interface BaseTxJson {
  readonly networkID: number
  readonly blockchainID: string
  readonly outputs: ReadonlyArray<TransferableOutputJson>
  readonly inputs: ReadonlyArray<TransferableInputJson>
  /** types.JSONByteSlice: "0x" hex ("0x" when empty). */
  readonly memo: string
}

export interface AddValidatorTxJson extends BaseTxJson {
  readonly validator: ValidatorJson
  readonly stake: ReadonlyArray<TransferableOutputJson>
  readonly rewardsOwner: OutputOwnersJson
  readonly shares: number
}

export interface AddSubnetValidatorTxJson extends BaseTxJson {
  readonly validator: SubnetValidatorJson
  readonly subnetAuthorization: InputJson
}

export interface AddDelegatorTxJson extends BaseTxJson {
  readonly validator: ValidatorJson
  readonly stake: ReadonlyArray<TransferableOutputJson>
  readonly rewardsOwner: OutputOwnersJson
}

export interface CreateChainTxJson extends BaseTxJson {
  readonly subnetID: string
  readonly chainName: string
  readonly vmID: string
  readonly fxIDs: ReadonlyArray<string>
  /** A plain Go []byte: encoding/json writes it as std base64, not hex. */
  readonly genesisData: string
  readonly subnetAuthorization: InputJson
}

export interface CreateSubnetTxJson extends BaseTxJson {
  readonly owner: OutputOwnersJson
}

export interface ImportTxJson extends BaseTxJson {
  readonly sourceChain: string
  readonly importedInputs: ReadonlyArray<TransferableInputJson>
}

export interface ExportTxJson extends BaseTxJson {
  readonly destinationChain: string
  readonly exportedOutputs: ReadonlyArray<TransferableOutputJson>
}

export interface AdvanceTimeTxJson {
  readonly time: bigint
}

export interface RewardValidatorTxJson {
  readonly txID: string
}

export interface RemoveSubnetValidatorTxJson extends BaseTxJson {
  readonly nodeID: string
  readonly subnetID: string
  readonly subnetAuthorization: InputJson
}

export interface TransformSubnetTxJson extends BaseTxJson {
  readonly subnetID: string
  readonly assetID: string
  readonly initialSupply: bigint
  readonly maximumSupply: bigint
  readonly minConsumptionRate: bigint
  readonly maxConsumptionRate: bigint
  readonly minValidatorStake: bigint
  readonly maxValidatorStake: bigint
  readonly minStakeDuration: number
  readonly maxStakeDuration: number
  readonly minDelegationFee: number
  readonly minDelegatorStake: bigint
  readonly maxValidatorWeightFactor: number
  readonly uptimeRequirement: number
  readonly subnetAuthorization: InputJson
}

export interface AddPermissionlessValidatorTxJson extends BaseTxJson {
  readonly validator: ValidatorJson
  readonly subnetID: string
  readonly signer: SignerJson
  readonly stake: ReadonlyArray<TransferableOutputJson>
  readonly validationRewardsOwner: OutputOwnersJson
  readonly delegationRewardsOwner: OutputOwnersJson
  readonly shares: number
}

export interface AddPermissionlessDelegatorTxJson extends BaseTxJson {
  readonly validator: ValidatorJson
  readonly subnetID: string
  readonly stake: ReadonlyArray<TransferableOutputJson>
  readonly rewardsOwner: OutputOwnersJson
}

export interface TransferSubnetOwnershipTxJson extends BaseTxJson {
  readonly subnetID: string
  readonly subnetAuthorization: InputJson
  readonly newOwner: OutputOwnersJson
}

export type BaseTxOnlyJson = BaseTxJson

export interface ConvertSubnetToL1TxJson extends BaseTxJson {
  readonly subnetID: string
  readonly chainID: string
  /** types.JSONByteSlice: "0x" hex. */
  readonly address: string
  readonly validators: ReadonlyArray<L1ValidatorJson>
  readonly subnetAuthorization: InputJson
}

export interface RegisterL1ValidatorTxJson extends BaseTxJson {
  readonly balance: bigint
  /**
   * A Go [96]byte with no MarshalJSON: encoding/json writes a byte array (unlike a byte slice)
   * as an array of 96 numbers, so that is what the node returns.
   */
  readonly proofOfPossession: ReadonlyArray<number>
  /** types.JSONByteSlice: "0x" hex of the signed warp message. */
  readonly message: string
}

export interface SetL1ValidatorWeightTxJson extends BaseTxJson {
  readonly message: string
}

export interface IncreaseL1ValidatorBalanceTxJson extends BaseTxJson {
  readonly validationID: string
  readonly balance: bigint
}

export interface DisableL1ValidatorTxJson extends BaseTxJson {
  readonly validationID: string
  readonly disableAuthorization: InputJson
}

export interface AddAutoRenewedValidatorTxJson extends BaseTxJson {
  /** types.JSONByteSlice: "0x" hex, not "NodeID-…". */
  readonly nodeID: string
  readonly signer: SignerJson
  readonly stake: ReadonlyArray<TransferableOutputJson>
  readonly validationRewardsOwner: OutputOwnersJson
  readonly delegationRewardsOwner: OutputOwnersJson
  readonly validatorAuthority: OutputOwnersJson
  readonly delegationShares: number
  readonly autoCompoundRewardShares: number
  readonly period: bigint
}

export interface SetAutoRenewedValidatorConfigTxJson extends BaseTxJson {
  readonly txID: string
  readonly auth: InputJson
  readonly autoCompoundRewardShares: number
  readonly period: bigint
}

export interface RewardAutoRenewedValidatorTxJson {
  readonly txID: string
  readonly timestamp: bigint
}

/** Each tx type's unsignedTx shape, by the Go struct's name. */
export interface UnsignedTxByType {
  readonly AddValidatorTx: AddValidatorTxJson
  readonly AddSubnetValidatorTx: AddSubnetValidatorTxJson
  readonly AddDelegatorTx: AddDelegatorTxJson
  readonly CreateChainTx: CreateChainTxJson
  readonly CreateSubnetTx: CreateSubnetTxJson
  readonly ImportTx: ImportTxJson
  readonly ExportTx: ExportTxJson
  readonly AdvanceTimeTx: AdvanceTimeTxJson
  readonly RewardValidatorTx: RewardValidatorTxJson
  readonly RemoveSubnetValidatorTx: RemoveSubnetValidatorTxJson
  readonly TransformSubnetTx: TransformSubnetTxJson
  readonly AddPermissionlessValidatorTx: AddPermissionlessValidatorTxJson
  readonly AddPermissionlessDelegatorTx: AddPermissionlessDelegatorTxJson
  readonly TransferSubnetOwnershipTx: TransferSubnetOwnershipTxJson
  readonly BaseTx: BaseTxOnlyJson
  readonly ConvertSubnetToL1Tx: ConvertSubnetToL1TxJson
  readonly RegisterL1ValidatorTx: RegisterL1ValidatorTxJson
  readonly SetL1ValidatorWeightTx: SetL1ValidatorWeightTxJson
  readonly IncreaseL1ValidatorBalanceTx: IncreaseL1ValidatorBalanceTxJson
  readonly DisableL1ValidatorTx: DisableL1ValidatorTxJson
  readonly AddAutoRenewedValidatorTx: AddAutoRenewedValidatorTxJson
  readonly SetAutoRenewedValidatorConfigTx: SetAutoRenewedValidatorConfigTxJson
  readonly RewardAutoRenewedValidatorTx: RewardAutoRenewedValidatorTxJson
}

// the table of tx types and the shapes name the same set of types
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
const sameTypes: Same<keyof UnsignedTxByType, PTxTypeName> = true
void sameTypes

/** A signed tx: Go's txs.Tx JSON (unsignedTx, credentials, id) with the type's name added. */
export type PTx = {
  readonly [K in PTxTypeName]: {
    readonly type: K
    /** cb58(sha256(codec version 0 ‖ the tx's bytes)). */
    readonly id: string
    readonly unsignedTx: UnsignedTxByType[K]
    readonly credentials: ReadonlyArray<CredentialJson>
  }
}[PTxTypeName]

export interface PBlock {
  readonly type: PBlockTypeName
  /** cb58(sha256(the block's bytes, codec version included)). */
  readonly id: string
  readonly parentID: string
  readonly height: bigint
  /** Unix seconds; Banff blocks only (an Apricot block's time is its proposal's AdvanceTimeTx). */
  readonly time: bigint | undefined
  /** In the order of the Go block's Txs(): a Banff proposal block's decision txs, then its proposal tx. */
  readonly txs: ReadonlyArray<PTx>
}
