/**
 * The EVM world's public records. Block numbers, amounts, gas and fees are bigint (exact); the
 * routes turn them into decimal strings. Addresses are EIP-55 mixed-case hex.
 */
import type { ErcType } from "./spec.ts"

export type { ErcType }

export interface EvmChainInfo {
  readonly evmChainId: string
  readonly blockchainId: string
  readonly subnetId: string
  readonly network: "mainnet" | "fuji"
  readonly isTestnet: boolean
  /** True for the two C-chains (43114, 43113). */
  readonly isCChain: boolean
  readonly chainName: string
  readonly description: string
  readonly vmId: string
  readonly networkToken: { readonly name: string; readonly symbol: string; readonly decimals: number; readonly description: string }
  readonly genesisTime: number
  /** Mean seconds between blocks at this scale. */
  readonly blockGap: number
  readonly gasLimit: bigint
  readonly multicallAddress: string
}

export interface EvmBlock {
  readonly chainId: string
  readonly blockNumber: bigint
  readonly blockTimestamp: number
  readonly blockHash: string
  readonly parentHash: string
  readonly txCount: number
  readonly baseFee: bigint
  readonly gasUsed: bigint
  readonly gasLimit: bigint
  /** Avalanche's per-block gas cost header field. */
  readonly gasCost: bigint
  /** Sum of gasUsed × receipt gas price over the block's transactions. */
  readonly feesSpent: bigint
  /** Transactions in blocks 0..blockNumber. */
  readonly cumulativeTransactions: bigint
}

export interface TokenRef {
  readonly address: string
  readonly ercType: ErcType
  readonly name: string
  readonly symbol: string
  /** 0 for NFTs. */
  readonly decimals: number
}

export interface TokenTransfer {
  readonly token: TokenRef
  readonly blockNumber: bigint
  readonly blockTimestamp: number
  readonly blockHash: string
  readonly txHash: string
  /** Index of the log within its block. */
  readonly logIndex: number
  readonly from: string
  readonly to: string
  /** Amount moved (ERC-20 base units, ERC-1155 copies, 1 for ERC-721). */
  readonly value: bigint
  /** NFT token id; undefined for ERC-20. */
  readonly tokenId?: bigint
}

export type InternalTxType = "CALL" | "CREATE" | "CREATE2"

export interface InternalTransaction {
  readonly type: InternalTxType
  readonly from: string
  readonly to: string
  readonly value: bigint
  readonly gasUsed: bigint
  readonly gasLimit: bigint
  readonly isReverted: boolean
}

export interface EvmTransaction {
  readonly chainId: string
  readonly blockNumber: bigint
  readonly blockTimestamp: number
  readonly blockHash: string
  readonly blockIndex: number
  readonly txHash: string
  /** 1 success, 0 reverted. */
  readonly txStatus: 0 | 1
  /** 0 legacy, 2 EIP-1559. */
  readonly txType: 0 | 2
  readonly from: string
  /** For a contract creation, the created contract. */
  readonly to: string
  readonly value: bigint
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  /** Receipt (effective) gas price. */
  readonly gasPrice: bigint
  readonly baseFeePerGas: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  /** Strictly increasing per sender (not necessarily consecutive). */
  readonly nonce: bigint
  readonly input: string
  readonly method: { readonly callType: "NATIVE_TRANSFER" | "CONTRACT_CALL" | "CONTRACT_CREATION"; readonly methodHash: string; readonly methodName: string }
  readonly tokenTransfers: ReadonlyArray<TokenTransfer>
  readonly internalTransactions: ReadonlyArray<InternalTransaction>
  readonly crosschain?: {
    readonly messageId: string
    readonly direction: "SOURCE_TRANSACTION" | "DESTINATION_TRANSACTION"
    readonly sourceBlockchainId?: string
    readonly destinationBlockchainId?: string
  }
}

export type ContractKind = "token" | "factory" | "messenger" | "multicall" | "dapp" | "created"

export interface ContractInfo {
  readonly address: string
  readonly kind: ContractKind
  readonly name: string
  /** Set for token contracts. */
  readonly token?: TokenRef
  readonly deployment: {
    readonly txHash: string
    readonly blockNumber: bigint
    /** The transaction's sender. */
    readonly deployerAddress: string
    /** The contract that ran CREATE2, for factory deployments. */
    readonly deployerContractAddress?: string
  }
}

export interface NftTokenInfo {
  readonly contract: TokenRef
  readonly tokenId: bigint
  readonly tokenUri: string
  /** ERC-721 only: current owner. */
  readonly ownerAddress?: string
  readonly metadata: {
    readonly name: string
    readonly description: string
    readonly imageUri: string
    readonly animationUri: string
    readonly externalUrl: string
    readonly background: string
    /** JSON text: attributes (ERC-721) or properties (ERC-1155). */
    readonly attributes: string
    readonly lastUpdatedTimestamp: number
  }
}

export interface Holder {
  readonly address: string
  /** Route-dependent: token balance (route 14) or NFTs held (route 18). */
  readonly amount: bigint
}
