/** The chain-data service's shared objects (seed: Shared objects): an asset amount and a Utxo, and their columns. */
import { Schema } from "effect"
import { DecimalString, IntegerLike, UnixSeconds } from "../../src/transform/Decode.ts"

export const AssetAmount = Schema.Struct({
  assetId: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  denomination: Schema.Number.pipe(Schema.int()),
  type: Schema.String,
  amount: DecimalString
})

export const assetAmountRow = (a: typeof AssetAmount.Type) => ({
  asset_id: a.assetId,
  name: a.name,
  symbol: a.symbol,
  denomination: a.denomination,
  type: a.type,
  amount: a.amount
})

const opt = Schema.optional

export const Utxo = Schema.Struct({
  utxoId: Schema.String,
  txHash: Schema.String,
  outputIndex: Schema.Number.pipe(Schema.int()),
  assetId: opt(Schema.String),
  amount: opt(DecimalString),
  asset: AssetAmount,
  addresses: Schema.Array(Schema.String),
  threshold: opt(Schema.Number.pipe(Schema.int())),
  utxoType: Schema.String,
  rewardType: opt(Schema.String),
  staked: opt(Schema.Boolean),
  blockNumber: DecimalString,
  blockTimestamp: UnixSeconds,
  consumingTxHash: opt(Schema.String),
  consumingBlockNumber: opt(DecimalString),
  consumingBlockTimestamp: opt(UnixSeconds),
  createdOnChainId: Schema.String,
  consumedOnChainId: Schema.String,
  platformLocktime: opt(IntegerLike),
  stakeableLocktime: opt(IntegerLike),
  utxoStartTimestamp: opt(UnixSeconds),
  utxoEndTimestamp: opt(UnixSeconds),
  utxoBytes: opt(Schema.String)
})

export const utxoRow = (u: typeof Utxo.Type) => ({
  utxo_id: u.utxoId,
  tx_hash: u.txHash,
  output_index: u.outputIndex,
  // the top-level assetId/amount are deprecated in the official document: the asset object rules
  asset_id: u.asset.assetId,
  amount: u.asset.amount,
  addresses: u.addresses,
  threshold: u.threshold ?? null,
  ...utxoLifecycleColumns(u),
  platform_locktime: u.platformLocktime ?? null,
  stakeable_locktime: u.stakeableLocktime ?? null,
  utxo_bytes: u.utxoBytes ?? null
})

/** A REST Utxo's type, staking state and where it was created and consumed (staking_transactions and utxos alike). */
export const utxoLifecycleColumns = (u: typeof Utxo.Type) => ({
  utxo_type: u.utxoType,
  reward_type: u.rewardType ?? null,
  staked: u.staked ?? null,
  block_number: u.blockNumber,
  block_timestamp: u.blockTimestamp,
  consuming_tx_hash: u.consumingTxHash ?? null,
  consuming_block_number: u.consumingBlockNumber ?? null,
  consuming_block_timestamp: u.consumingBlockTimestamp ?? null,
  created_on_chain_id: u.createdOnChainId,
  consumed_on_chain_id: u.consumedOnChainId,
  utxo_start_timestamp: u.utxoStartTimestamp ?? null,
  utxo_end_timestamp: u.utxoEndTimestamp ?? null
})
