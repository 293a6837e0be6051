/**
 * World records → the chain-data document's shapes (PChainUtxo, Utxo, AssetAmount,
 * PChainTransaction). Only fields the document declares are emitted; optional ones only when they
 * carry a value. Addresses are bare bech32 ("avax1…"), as the document's examples show them.
 * uint64 fields are exact integer literals, marked where they are built (exactInteger): an answer
 * holding no bigint is written without a replacer called for each of its values.
 *
 * `ids` names a world id by the id a node serves. Route 4 passes the served ids' map and its answer
 * is not rewritten again (RouteDef.namesServedIds); the other routes leave ids as they are and the
 * HTTP layer rewrites every id-like string of their answers. Fields that can never be a world id
 * are not passed through it: a UTXO's id and bytes (made from served ids), bech32 addresses (43
 * characters, shorter than any cb58 id), NodeIDs, hex strings, decimal amounts and heights.
 */
import { exactInteger } from "../../http/exactJson.ts"
import type { PrimaryNetwork, TxRecord, UtxoRecord } from "../../world/primary/index.ts"
import type { BlockRef } from "../../world/primary/types.ts"
import { Lru } from "../../world/primary/lru.ts"
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

type Ids = (id: string) => string
const same: Ids = (id) => id

export const assetAmount = (net: PrimaryNetwork, assetId: string, amount: bigint, ids: Ids = same): AssetAmount => {
  const a = net.assets.byId(assetId, Number.MAX_SAFE_INTEGER) ?? net.assets.avax
  return { assetId: ids(assetId), name: ids(a.name), symbol: ids(a.symbol), denomination: a.denomination, type: "secp256k1", amount: amount.toString() }
}

/** Sums per asset, AVAX first, then by asset id. */
export const assetTotals = (net: PrimaryNetwork, utxos: ReadonlyArray<UtxoRecord>, ids: Ids = same): AssetAmount[] => {
  const totals = new Map<string, bigint>()
  for (const u of utxos) totals.set(u.assetId, (totals.get(u.assetId) ?? 0n) + u.amount)
  return [...totals.entries()]
    .sort(([a], [b]) => (a === net.avaxAssetId ? -1 : b === net.avaxAssetId ? 1 : a < b ? -1 : 1))
    .map(([assetId, amount]) => assetAmount(net, assetId, amount, ids))
}

/** bech32 text by network and address bytes: a page names the same few owners in most of its UTXOs. Bounded. */
const bech32Memo = new WeakMap<PrimaryNetwork, Lru<string, string>>()
const BECH32_MEMO = 32_768
const bech32Of = (net: PrimaryNetwork, a: Uint8Array): string => {
  let memo = bech32Memo.get(net)
  if (memo === undefined) bech32Memo.set(net, (memo = new Lru(BECH32_MEMO)))
  return memo.get(String.fromCharCode.apply(null, a as unknown as number[]), () => net.ctx.bech32Of(a))
}

const addresses = (net: PrimaryNetwork, u: UtxoRecord): string[] => u.owners.addresses.map((a) => bech32Of(net, a))

const spentAt = (u: UtxoRecord, now: number): UtxoRecord["spent"] => (u.spent && u.spent.block.timestamp <= now ? u.spent : undefined)

/** PChainUtxo (p-chain listings and staking txs). */
export const pChainUtxo = (net: PrimaryNetwork, u: UtxoRecord, now: number, ids: Ids = same): Record<string, unknown> => {
  const spent = spentAt(u, now)
  const chains = net.blockchainIds
  return {
    addresses: addresses(net, u),
    asset: assetAmount(net, u.assetId, u.amount, ids),
    consumedOnChainId: ids(chains[u.consumedOn]),
    ...(spent ? { consumingTxHash: ids(spent.txId) } : {}),
    createdOnChainId: ids(chains[u.createdOn]),
    utxoId: net.utxoId(u),
    utxoBytes: net.utxoHex(u),
    amount: u.amount.toString(),
    assetId: ids(u.assetId),
    blockNumber: u.created.height.toString(),
    blockTimestamp: u.created.timestamp,
    ...(spent ? { consumingBlockNumber: spent.block.height.toString(), consumingBlockTimestamp: spent.block.timestamp } : {}),
    platformLocktime: exactInteger(u.owners.locktime),
    outputIndex: u.outputIndex,
    ...(u.rewardType ? { rewardType: u.rewardType } : {}),
    stakeableLocktime: exactInteger(u.stakeableLocktime),
    staked: u.staking !== undefined && now < u.staking.end,
    threshold: u.owners.threshold,
    txHash: ids(u.txId),
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
    locktime: exactInteger(u.owners.locktime),
    outputIndex: String(u.outputIndex),
    threshold: u.owners.threshold,
    timestamp: u.created.timestamp,
    utxoType: "transfer"
  }
}

/**
 * A block's id as `ids` names it. A served P- or X-chain block id is the block's hash by height:
 * taken from there when `ids` names served ids, without the world id (a locator id made, then
 * decoded again by the served ids).
 */
const blockHash = (net: PrimaryNetwork, b: BlockRef, ids: Ids): string =>
  ids !== same && b.chain !== "C" ? net.served.block(b.chain, Number(b.height)) : ids(b.blockId)

const STAKING_TYPES = new Set(["AddValidatorTx", "AddDelegatorTx", "AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"])

/** PChainTransaction for a staking tx (route 4): its UTXOs, amounts and staking or L1 details. */
export const stakingTransaction = (net: PrimaryNetwork, tx: TxRecord, now: number, ids: Ids = same): Record<string, unknown> => {
  const s = tx.staking
  const rewards = (tx.rewards ?? []).filter((u) => u.created.timestamp <= now)
  const emitted = [...tx.outputs, ...(tx.stake ?? []), ...rewards]
  const ended = s !== undefined && now >= s.end
  const memo = Buffer.from(tx.memo).toString("utf8")
  // an L1 tx burns its fee and, apart, what it moves into validator balances (amountL1ValidatorBalanceBurned)
  const deposit = tx.l1 ? balanceDeposit(tx.l1) : 0n
  const fee = tx.burned - deposit
  return {
    txHash: ids(tx.id),
    txType: tx.type,
    blockTimestamp: tx.block.timestamp,
    blockNumber: tx.block.height.toString(),
    blockHash: blockHash(net, tx.block, ids),
    consumedUtxos: tx.inputs.map((u) => pChainUtxo(net, u, now, ids)),
    emittedUtxos: emitted.map((u) => pChainUtxo(net, u, now, ids)),
    value: assetTotals(net, [...tx.outputs, ...(tx.stake ?? [])], ids),
    amountBurned: fee > 0n ? [assetAmount(net, net.avaxAssetId, fee, ids)] : [],
    amountStaked: assetTotals(net, tx.stake ?? [], ids),
    amountL1ValidatorBalanceBurned: deposit > 0n ? [assetAmount(net, net.avaxAssetId, deposit, ids)] : [],
    ...(s && STAKING_TYPES.has(tx.type)
      ? {
          startTimestamp: s.start,
          endTimestamp: s.end,
          ...(s.shares !== undefined ? { delegationFeePercent: feePercent(s.shares) } : {}),
          nodeId: s.nodeId,
          subnetId: ids(s.subnetId),
          estimatedReward: s.estimatedReward.toString(),
          ...(ended && tx.rewardTxId ? { rewardTxHash: ids(tx.rewardTxId) } : {}),
          rewardAddresses: s.rewardOwner.addresses.map((a) => bech32Of(net, a)),
          ...(s.signer ? { blsCredentials: { publicKey: s.signer.publicKey, proofOfPossession: s.signer.proofOfPossession } } : {})
        }
      : {}),
    ...l1TxFields(net, tx, ids),
    ...(memo.length > 0 ? { memo: ids(memo) } : {})
  }
}
