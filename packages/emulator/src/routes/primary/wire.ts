/**
 * World records → the chain-data document's shapes (PChainUtxo, Utxo, AssetAmount,
 * PChainTransaction). Only fields the document declares are emitted; optional ones only when they
 * carry a value. Addresses are bare bech32 ("avax1…"), as the document's examples show them.
 */
import type { PrimaryNetwork, TxRecord, UtxoRecord } from "../../world/primary/index.ts"
import { balanceDeposit } from "../../world/primary/l1Txs.ts"
import { feePercent } from "../../world/primary/nodeViews.ts"
import { l1TxFields } from "./l1Wire.ts"

export interface AssetAmount {
  readonly assetId: string
  readonly name: string
  readonly symbol: string
  readonly denomination: number
  readonly type: "secp256k1"
  readonly amount: string
}

export const assetAmount = (net: PrimaryNetwork, assetId: string, amount: bigint): AssetAmount => {
  const a = net.assets.byId(assetId, Number.MAX_SAFE_INTEGER) ?? net.assets.avax
  return { assetId, name: a.name, symbol: a.symbol, denomination: a.denomination, type: "secp256k1", amount: amount.toString() }
}

/** Sums per asset, AVAX first, then by asset id. */
export const assetTotals = (net: PrimaryNetwork, utxos: ReadonlyArray<UtxoRecord>): AssetAmount[] => {
  const totals = new Map<string, bigint>()
  for (const u of utxos) totals.set(u.assetId, (totals.get(u.assetId) ?? 0n) + u.amount)
  return [...totals.entries()]
    .sort(([a], [b]) => (a === net.avaxAssetId ? -1 : b === net.avaxAssetId ? 1 : a < b ? -1 : 1))
    .map(([assetId, amount]) => assetAmount(net, assetId, amount))
}

const addresses = (net: PrimaryNetwork, u: UtxoRecord): string[] => u.owners.addresses.map((a) => net.ctx.bech32Of(a))

const spentAt = (u: UtxoRecord, now: number): UtxoRecord["spent"] => (u.spent && u.spent.block.timestamp <= now ? u.spent : undefined)

/** PChainUtxo (p-chain listings and staking txs). */
export const pChainUtxo = (net: PrimaryNetwork, u: UtxoRecord, now: number): Record<string, unknown> => {
  const spent = spentAt(u, now)
  const ids = net.blockchainIds
  return {
    addresses: addresses(net, u),
    asset: assetAmount(net, u.assetId, u.amount),
    consumedOnChainId: ids[u.consumedOn],
    ...(spent ? { consumingTxHash: spent.txId } : {}),
    createdOnChainId: ids[u.createdOn],
    utxoId: net.utxoId(u),
    utxoBytes: net.utxoHex(u),
    amount: u.amount.toString(),
    assetId: u.assetId,
    blockNumber: u.created.height.toString(),
    blockTimestamp: u.created.timestamp,
    ...(spent ? { consumingBlockNumber: spent.block.height.toString(), consumingBlockTimestamp: spent.block.timestamp } : {}),
    platformLocktime: u.owners.locktime,
    outputIndex: u.outputIndex,
    ...(u.rewardType ? { rewardType: u.rewardType } : {}),
    stakeableLocktime: u.stakeableLocktime,
    staked: u.staking !== undefined && now < u.staking.end,
    threshold: u.owners.threshold,
    txHash: u.txId,
    ...(u.staking ? { utxoEndTimestamp: u.staking.end, utxoStartTimestamp: u.staking.start } : {}),
    utxoType: u.kind === "stake" ? "STAKE" : "TRANSFER"
  }
}

/** Utxo (x-chain and c-chain listings). */
export const xChainUtxo = (net: PrimaryNetwork, u: UtxoRecord, now: number): Record<string, unknown> => {
  const spent = spentAt(u, now)
  const ids = net.blockchainIds
  return {
    addresses: addresses(net, u),
    asset: assetAmount(net, u.assetId, u.amount),
    consumedOnChainId: ids[u.consumedOn],
    ...(spent ? { consumingTxHash: spent.txId, consumingTxTimestamp: spent.block.timestamp } : {}),
    createdOnChainId: ids[u.createdOn],
    utxoId: net.utxoId(u),
    utxoBytes: net.utxoHex(u),
    creationTxHash: u.txId,
    locktime: u.owners.locktime,
    outputIndex: String(u.outputIndex),
    threshold: u.owners.threshold,
    timestamp: u.created.timestamp,
    utxoType: "transfer"
  }
}

const STAKING_TYPES = new Set(["AddValidatorTx", "AddDelegatorTx", "AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"])

/** PChainTransaction for a staking tx (route 4): its UTXOs, amounts and staking or L1 details. */
export const stakingTransaction = (net: PrimaryNetwork, tx: TxRecord, now: number): Record<string, unknown> => {
  const s = tx.staking
  const rewards = (tx.rewards ?? []).filter((u) => u.created.timestamp <= now)
  const emitted = [...tx.outputs, ...(tx.stake ?? []), ...rewards]
  const ended = s !== undefined && now >= s.end
  const memo = Buffer.from(tx.memo).toString("utf8")
  // an L1 tx burns its fee and, apart, what it moves into validator balances (amountL1ValidatorBalanceBurned)
  const deposit = tx.l1 ? balanceDeposit(tx.l1) : 0n
  const fee = tx.burned - deposit
  return {
    txHash: tx.id,
    txType: tx.type,
    blockTimestamp: tx.block.timestamp,
    blockNumber: tx.block.height.toString(),
    blockHash: tx.block.blockId,
    consumedUtxos: tx.inputs.map((u) => pChainUtxo(net, u, now)),
    emittedUtxos: emitted.map((u) => pChainUtxo(net, u, now)),
    value: assetTotals(net, [...tx.outputs, ...(tx.stake ?? [])]),
    amountBurned: fee > 0n ? [assetAmount(net, net.avaxAssetId, fee)] : [],
    amountStaked: assetTotals(net, tx.stake ?? []),
    amountL1ValidatorBalanceBurned: deposit > 0n ? [assetAmount(net, net.avaxAssetId, deposit)] : [],
    ...(s && STAKING_TYPES.has(tx.type)
      ? {
          startTimestamp: s.start,
          endTimestamp: s.end,
          ...(s.shares !== undefined ? { delegationFeePercent: feePercent(s.shares) } : {}),
          nodeId: s.nodeId,
          subnetId: s.subnetId,
          estimatedReward: s.estimatedReward.toString(),
          ...(ended && tx.rewardTxId ? { rewardTxHash: tx.rewardTxId } : {}),
          rewardAddresses: s.rewardOwner.addresses.map((a) => net.ctx.bech32Of(a)),
          ...(s.signer ? { blsCredentials: { publicKey: s.signer.publicKey, proofOfPossession: s.signer.proofOfPossession } } : {})
        }
      : {}),
    ...l1TxFields(net, tx),
    ...(memo.length > 0 ? { memo } : {})
  }
}
