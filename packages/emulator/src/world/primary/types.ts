/**
 * The primary-network world's records. They are interface-neutral: the REST routes and the
 * JSON-RPC methods each shape them for their own document. Amounts, heights and locktimes are
 * bigint; timestamps are Unix seconds (number).
 */

export type ChainLetter = "P" | "X" | "C"

/** Where something happened: a block of one chain. */
export interface BlockRef {
  readonly chain: ChainLetter
  readonly height: bigint
  readonly blockId: string
  readonly timestamp: number
}

export interface Owners {
  /** 20-byte short ids. */
  readonly addresses: ReadonlyArray<Uint8Array>
  readonly threshold: number
  readonly locktime: bigint
}

export type UtxoKind = "transfer" | "stake" | "reward"
export type RewardType = "VALIDATOR" | "DELEGATOR" | "VALIDATOR_FEE"

export interface SpendRef {
  readonly txId: string
  readonly block: BlockRef
}

export interface UtxoRecord {
  readonly txId: string
  readonly outputIndex: number
  readonly assetId: string
  readonly amount: bigint
  readonly owners: Owners
  /** Non-zero for a P-chain output locked for anything but staking until then. */
  readonly stakeableLocktime: bigint
  /** Chain whose tx created the output. */
  readonly createdOn: ChainLetter
  /** Chain on which it can be spent (differs from createdOn for exported outputs). */
  readonly consumedOn: ChainLetter
  /** Block of the creating tx. */
  readonly created: BlockRef
  /**
   * From when the node lists it as a UTXO: a staked output only once its staking ends (the block
   * of the reward tx); otherwise the creating block.
   */
  readonly listed: BlockRef | undefined
  /** The consuming tx, possibly in a block not yet revealed at a given "now". */
  readonly spent: SpendRef | undefined
  readonly kind: UtxoKind
  readonly rewardType?: RewardType
  /** Staking period of a STAKE output. */
  readonly staking?: { readonly start: number; readonly end: number }
}

export type PTxType =
  | "AddValidatorTx"
  | "AddDelegatorTx"
  | "AddPermissionlessValidatorTx"
  | "AddPermissionlessDelegatorTx"
  | "RewardValidatorTx"
  | "AdvanceTimeTx"
  | "AddSubnetValidatorTx"
  | "RemoveSubnetValidatorTx"
  | "TransformSubnetTx"
  | "TransferSubnetOwnershipTx"
  | "BaseTx"
  | "ImportTx"
  | "ExportTx"
  | "CreateSubnetTx"
  | "CreateChainTx"
  | "ConvertSubnetToL1Tx"
  | "RegisterL1ValidatorTx"
  | "SetL1ValidatorWeightTx"
  | "IncreaseL1ValidatorBalanceTx"
  | "DisableL1ValidatorTx"

export type XTxType = "BaseTx" | "CreateAssetTx" | "OperationTx" | "ImportTx" | "ExportTx"

/**
 * An OperationTx's one secp256k1fx MintOperation (vms/secp256k1fx/mint_operation.go): it spends
 * the asset's mint output and makes a new one for the same minter plus a transfer output of the
 * newly minted amount. Its UTXOs come after the tx's outputs: the mint output, then the transfer.
 */
export interface MintOperationInfo {
  readonly assetId: string
  /** The mint output spent. */
  readonly spends: { readonly txId: string; readonly outputIndex: number }
  readonly minter: Owners
  readonly to: Owners
  readonly amount: bigint
}

export interface BlsCredentials {
  /** 0x hex, 48 bytes. */
  readonly publicKey: string
  /** 0x hex, 96 bytes. */
  readonly proofOfPossession: string
}

/** What a validator or delegator staking tx declares. */
export interface StakingInfo {
  readonly role: "validator" | "delegator"
  readonly nodeId: string
  readonly subnetId: string
  readonly start: number
  readonly end: number
  readonly weight: bigint
  /** Delegation fee in millionths (validators only). */
  readonly shares?: number
  readonly rewardOwner: Owners
  /** Validators only: where delegation fees go. */
  readonly delegationRewardOwner?: Owners
  readonly signer?: BlsCredentials
  readonly estimatedReward: bigint
}

export interface L1ValidatorSeed {
  readonly validationId: string
  readonly nodeId: string
  readonly weight: bigint
  readonly balance: bigint
  readonly signer: BlsCredentials
  readonly remainingBalanceOwner: Owners
  readonly deactivationOwner: Owners
}

/** What an L1-related P-chain tx declares. */
export type L1TxInfo =
  | { readonly kind: "createSubnet"; readonly owner: Owners }
  | {
      readonly kind: "createChain"
      readonly subnetId: string
      readonly chainName: string
      readonly vmId: string
      readonly genesis: Record<string, unknown>
    }
  | {
      readonly kind: "convert"
      readonly subnetId: string
      readonly chainId: string
      /** 0x hex of the validator manager contract. */
      readonly managerAddress: string
      readonly validators: ReadonlyArray<L1ValidatorSeed>
    }
  | { readonly kind: "register"; readonly subnetId: string; readonly validator: L1ValidatorSeed }
  | { readonly kind: "setWeight"; readonly subnetId: string; readonly validationId: string; readonly nonce: bigint; readonly weight: bigint }
  | { readonly kind: "increaseBalance"; readonly subnetId: string; readonly validationId: string; readonly amount: bigint }
  | { readonly kind: "disable"; readonly subnetId: string; readonly validationId: string }

/** What a subnet-administration tx of a permissioned subnet declares (archive.ts issues them). */
export type SubnetTxInfo =
  | {
      readonly kind: "addValidator"
      readonly subnetId: string
      readonly nodeId: string
      readonly start: number
      readonly end: number
      readonly weight: bigint
    }
  | { readonly kind: "removeValidator"; readonly subnetId: string; readonly nodeId: string }
  | { readonly kind: "transform"; readonly subnetId: string; readonly assetId: string; readonly rules: TransformRules }
  | { readonly kind: "transferOwnership"; readonly subnetId: string; readonly owner: Owners }

/** TransformSubnetTx's staking rules (vms/platformvm/txs/transform_subnet_tx.go). */
export interface TransformRules {
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
}

export interface AssetInfo {
  readonly assetId: string
  readonly name: string
  readonly symbol: string
  readonly denomination: number
}

export interface TxRecord {
  readonly id: string
  readonly chain: "P" | "X"
  readonly type: PTxType | XTxType
  readonly block: BlockRef
  /** Orders txs inside their block. */
  readonly issueTime: number
  /** Consumed outputs of this chain. */
  readonly inputs: ReadonlyArray<UtxoRecord>
  /** Outputs of this chain, indices 0…n-1. */
  readonly outputs: ReadonlyArray<UtxoRecord>
  readonly imported?: { readonly sourceChain: ChainLetter; readonly utxos: ReadonlyArray<UtxoRecord> }
  readonly exported?: { readonly destinationChain: ChainLetter; readonly utxos: ReadonlyArray<UtxoRecord> }
  /** Staked outputs (indices after outputs). */
  readonly stake?: ReadonlyArray<UtxoRecord>
  /** Reward outputs paid when the staking ends (indices after stake); absent while it runs. */
  readonly rewards?: ReadonlyArray<UtxoRecord>
  readonly staking?: StakingInfo
  /** RewardValidatorTx: the staking tx it closes. */
  readonly rewardedTxId?: string
  /** Staking txs: the RewardValidatorTx that closes them (whether or not revealed yet). */
  readonly rewardTxId?: string
  readonly l1?: L1TxInfo
  /** Subnet administration of a permissioned subnet (AddSubnetValidatorTx and its kin). */
  readonly subnet?: SubnetTxInfo
  /** AdvanceTimeTx: the chain time it proposes (Unix seconds). */
  readonly advanceTime?: number
  /** CreateAssetTx; `mintOwner` for a variable-cap asset, whose initial state holds a mint output (UTXO 0) before the supply. */
  readonly asset?: AssetInfo & { readonly initialSupply: bigint; readonly mintOwner?: Owners }
  /** OperationTx. */
  readonly operation?: MintOperationInfo
  readonly memo: Uint8Array
  /** nAVAX burned (inputs − outputs of AVAX). */
  readonly burned: bigint
}

/** P-chain block types, by the names of avalanchego's structs (vms/platformvm/block). */
export type PBlockType =
  | "ApricotProposalBlock"
  | "ApricotAbortBlock"
  | "ApricotCommitBlock"
  | "ApricotStandardBlock"
  | "ApricotAtomicBlock"
  | "BanffProposalBlock"
  | "BanffAbortBlock"
  | "BanffCommitBlock"
  | "BanffStandardBlock"

export interface BlockRecord {
  readonly chain: ChainLetter
  readonly height: bigint
  readonly id: string
  readonly parentId: string
  readonly timestamp: number
  readonly txIds: ReadonlyArray<string>
  /** The node's block type: the Go struct's name (PBlockType), StandardBlock on the X-chain. */
  readonly blockType: PBlockType | "StandardBlock" | "EVMBlock"
  readonly sizeBytes: number
}
