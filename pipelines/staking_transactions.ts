/**
 * staking_transactions — route 4 (P-chain only) per network, in time windows of block time
 * (startTimestamp / endTimestamp; Windows.ts), consumed/emitted UTXOs and amounts kept as nested
 * lists. The route lists the transactions active at request time, so a window holds those
 * active when it was last fetched; the head window is topped up until a run completes it an hour
 * past its end.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { windowListing } from "../src/crawl/WindowListing.ts"
import { type WindowSpec, windowSlices } from "../src/crawl/Windows.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { DecimalString, IntegerLike, UnixSeconds, decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/staking_transactions.ts"
import { columnKey, utcDate } from "./_shared/partitions.ts"
import { latestPrimaryBlockTime } from "./_shared/restListings.ts"
import { AssetAmount, assetAmountRow, Utxo, utxoRow } from "./_shared/restUtxo.ts"
import { DAY, HOUR, NETWORK_LAUNCH } from "./_shared/time.ts"
import { withGrain } from "../src/crawl/Grain.ts"

const opt = Schema.optional
const Bls = Schema.Struct({ publicKey: Schema.String, proofOfPossession: Schema.String })

const StakingTx = Schema.Struct({
  txHash: Schema.String,
  txType: Schema.String,
  blockTimestamp: UnixSeconds,
  blockNumber: DecimalString,
  blockHash: Schema.String,
  consumedUtxos: Schema.Array(Utxo),
  emittedUtxos: Schema.Array(Utxo),
  sourceChain: opt(Schema.String),
  destinationChain: opt(Schema.String),
  value: Schema.Array(AssetAmount),
  amountBurned: Schema.Array(AssetAmount),
  amountStaked: Schema.Array(AssetAmount),
  amountL1ValidatorBalanceBurned: Schema.Array(AssetAmount),
  startTimestamp: opt(UnixSeconds),
  endTimestamp: opt(UnixSeconds),
  delegationFeePercent: opt(Schema.String),
  nodeId: opt(Schema.String),
  subnetId: opt(Schema.String),
  l1ValidatorManagerDetails: opt(Schema.Struct({ blockchainId: Schema.String, contractAddress: Schema.String })),
  l1ValidatorDetails: opt(
    Schema.Array(
      Schema.Struct({
        validationId: Schema.String,
        validationIdHex: Schema.String,
        nodeId: Schema.String,
        subnetId: Schema.String,
        weight: IntegerLike,
        remainingBalance: IntegerLike,
        balanceChange: opt(IntegerLike),
        blsCredentials: opt(Schema.Struct({ publicKey: opt(Schema.String), proofOfPossession: opt(Schema.String) }))
      })
    )
  ),
  estimatedReward: opt(DecimalString),
  rewardTxHash: opt(Schema.String),
  rewardAddresses: opt(Schema.Array(Schema.String)),
  memo: opt(Schema.String),
  stakingTxHash: opt(Schema.String),
  subnetOwnershipInfo: opt(
    Schema.Struct({ locktime: IntegerLike, threshold: Schema.Number.pipe(Schema.int()), addresses: Schema.Array(Schema.String) })
  ),
  blsCredentials: opt(Bls),
  blockchainInfo: opt(Schema.Struct({ chainName: opt(Schema.String), vmId: opt(Schema.String), genesisData: opt(Schema.Unknown) }))
})

const decode = decoder(StakingTx)

const windows: WindowSpec = {
  bases: (job) => job.networks.map((network) => ({ network })),
  defaults: { window: DAY, lookback: HOUR, since: NETWORK_LAUNCH },
  // staking transactions are sparse: the P-chain's newest block says how far the service is
  latest: (base) => latestPrimaryBlockTime(base["network"] ?? "", "p-chain"),
}

const genesisText = (g: unknown): string | null =>
  g === undefined ? null : JSON.stringify(g, (_k, v) => (typeof v === "bigint" ? v.toString() : v))

export const dataset: DatasetDef<RestClient> = withGrain({
  name: "staking_transactions",
  description: "P-chain staking transactions with their UTXOs and amounts (chain-data route 4)",
  schema,
  partitionBy: [
    columnKey("network")
  ],
  // Grain: month. Staking transactions are a few hundred to a few thousand a day on mainnet
  // (fewer on fuji), a few MB a day at most even with their UTXO lists: by day most folders held
  // one file of KBs (137 files for 204 rows in the emulator run); a month is tens of MB. `date`
  // stays a column inside the file, so `WHERE date = …` still works
  timePartition: { day: utcDate("block_timestamp"), grain: "month" },
  key: ["tx_hash"],
  // compacted files are in block order, so block-number and block-time filters skip row groups.
  // Not (block_number, tx_hash): within a block the listing is not in hash order, so its parts
  // never read as sorted and every merge was a sort, which for these wide rows needs several
  // times the memory of concatenating them (src/compact/RowGroups.ts); a sort breaks ties by the key
  sortBy: ["block_number"],
  windows,
  rerun: "always",
  slices: windowSlices("staking_transactions", windows),
  listing: windowListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/blockchains/p-chain/transactions:listStaking`,
    query: () => ({ sortOrder: "asc" }),
    items: "transactions",
    timeField: "blockTimestamp",
    pageSize: 100
  }),
  toRow: (raw, slice) => {
    const t = decode(raw)
    return {
      network: slice.params["network"],
      tx_hash: t.txHash,
      tx_type: t.txType,
      block_timestamp: t.blockTimestamp,
      block_number: t.blockNumber,
      block_hash: t.blockHash,
      consumed_utxos: t.consumedUtxos.map(utxoRow),
      emitted_utxos: t.emittedUtxos.map(utxoRow),
      source_chain: t.sourceChain ?? null,
      destination_chain: t.destinationChain ?? null,
      value: t.value.map(assetAmountRow),
      amount_burned: t.amountBurned.map(assetAmountRow),
      amount_staked: t.amountStaked.map(assetAmountRow),
      amount_l1_validator_balance_burned: t.amountL1ValidatorBalanceBurned.map(assetAmountRow),
      start_timestamp: t.startTimestamp ?? null,
      end_timestamp: t.endTimestamp ?? null,
      delegation_fee_percent: t.delegationFeePercent ?? null,
      node_id: t.nodeId ?? null,
      subnet_id: t.subnetId ?? null,
      l1_validator_manager_blockchain_id: t.l1ValidatorManagerDetails?.blockchainId ?? null,
      l1_validator_manager_contract_address: t.l1ValidatorManagerDetails?.contractAddress ?? null,
      l1_validator_details: (t.l1ValidatorDetails ?? []).map((v) => ({
        validation_id: v.validationId,
        validation_id_hex: v.validationIdHex,
        node_id: v.nodeId,
        subnet_id: v.subnetId,
        weight: v.weight,
        remaining_balance: v.remainingBalance,
        balance_change: v.balanceChange ?? null,
        bls_public_key: v.blsCredentials?.publicKey ?? null,
        bls_proof_of_possession: v.blsCredentials?.proofOfPossession ?? null
      })),
      estimated_reward: t.estimatedReward ?? null,
      reward_tx_hash: t.rewardTxHash ?? null,
      reward_addresses: t.rewardAddresses ?? [],
      memo: t.memo ?? null,
      staking_tx_hash: t.stakingTxHash ?? null,
      subnet_owner_locktime: t.subnetOwnershipInfo?.locktime ?? null,
      subnet_owner_threshold: t.subnetOwnershipInfo?.threshold ?? null,
      subnet_owner_addresses: t.subnetOwnershipInfo?.addresses ?? [],
      bls_public_key: t.blsCredentials?.publicKey ?? null,
      bls_proof_of_possession: t.blsCredentials?.proofOfPossession ?? null,
      blockchain_name: t.blockchainInfo?.chainName ?? null,
      blockchain_vm_id: t.blockchainInfo?.vmId ?? null,
      blockchain_genesis_data: genesisText(t.blockchainInfo?.genesisData)
    }
  }
})
