/**
 * legacy_balances — the node's deprecated balance methods for `job.legacy.addresses` on the
 * node's network (see nodeNetwork); runs only when the job enables legacy datasets. Per address:
 * an X-chain one gets avm.getAllBalances and avm.getBalance (AVAX), whose counted UTXOs' txs get
 * avm.getTxStatus; a P-chain one gets platform.getBalance; one without a chain prefix gets both.
 * One row per address and method, one snapshot per run day.
 */
import { Effect, Schema } from "effect"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { read, type ReadValues } from "../src/transform/ColumnDecoder.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { type BalanceRow, table } from "../schemas/legacy_balances.ts"
import { NodeInt, NodeUint } from "../schemas/wire.ts"
import { nodeNetwork, onNodeNetwork, rpc, rpcDecoded } from "./_shared/nodeRpc.ts"

const opt = Schema.optional
const UtxoId = Schema.Struct({ txID: Schema.String, outputIndex: NodeInt })
const UtxoIds = Schema.Struct({ utxoIDs: opt(Schema.Array(UtxoId)) })

/** The addresses of the slice, in order: the listing's keys. */
const addressesAfter = (slice: Slice, after: string | undefined, limit: number) =>
  Effect.succeed(
    (slice.params["addresses"] ?? "")
      .split(",")
      .filter((a) => a !== "" && (after === undefined || a > after))
      .slice(0, limit)
  )

const bare = (a: string): string => a.replace(/^[PXC]-/, "")

/** avm.getBalance's UTXOs with the status of the tx that made each (one call per distinct tx). */
const withStatuses = (balance: unknown) =>
  Effect.gen(function* () {
    const ids = Schema.decodeUnknownOption(UtxoIds)(balance)
    const utxos = ids._tag === "Some" ? (ids.value.utxoIDs ?? []) : []
    const txs = [...new Set(utxos.map((u) => u.txID))]
    const statuses = yield* Effect.forEach(
      txs,
      (txID) => Effect.map(rpcDecoded("X", "avm.getTxStatus", { txID }, Schema.Struct({ status: Schema.String })), (r) => [txID, r.status] as const),
      { concurrency: 4 }
    )
    return { ...(balance as object), txStatuses: Object.fromEntries(statuses) }
  })

const recordsOf = (_slice: Slice, address: string) =>
  Effect.gen(function* () {
    const chain = /^[PXC]-/.test(address) ? address[0] : undefined
    const out: unknown[] = []
    if (chain === "X" || chain === undefined) {
      const x = `X-${bare(address)}`
      out.push({ address: x, method: "avm.getAllBalances", result: yield* rpc("X", "avm.getAllBalances", { address: x }) })
      const balance = yield* rpc("X", "avm.getBalance", { address: x, assetID: "AVAX" })
      out.push({ address: x, method: "avm.getBalance", result: yield* withStatuses(balance) })
    }
    if (chain === "P" || chain === undefined) {
      const p = `P-${bare(address)}`
      out.push({ address: p, method: "platform.getBalance", result: yield* rpc("P", "platform.getBalance", { addresses: [p] }) })
    }
    return out
  })

const AssetMap = Schema.Record({ key: Schema.String, value: NodeUint })

/** The three methods' answers, each read where it is sent. */
const result = {
  // avm.getAllBalances
  balances: read("result.balances?", Schema.Union(Schema.Array(Schema.Struct({ asset: Schema.String, balance: NodeUint })), AssetMap)),
  // avm.getBalance
  balance: read("result.balance?", NodeUint),
  // platform.getBalance
  unlockeds: read("result.unlockeds?", AssetMap),
  lockedStakeables: read("result.lockedStakeables?", AssetMap),
  lockedNotStakeables: read("result.lockedNotStakeables?", AssetMap),
  utxoIDs: read("result.utxoIDs?", Schema.Array(UtxoId)),
  txStatuses: read("result.txStatuses?", Schema.Record({ key: Schema.String, value: Schema.String }))
}

const balanceRows = (r: ReadValues<typeof result>, method: string): ReadonlyArray<BalanceRow> => {
  const b = r.balances
  if (method === "avm.getBalance") return [{ asset: "AVAX", balance: r.balance ?? null, unlocked: null, locked_stakeable: null, locked_not_stakeable: null }]
  if (Array.isArray(b)) return b.map((e) => ({ asset: e.asset, balance: e.balance, unlocked: null, locked_stakeable: null, locked_not_stakeable: null }))
  const map = (b ?? {}) as Readonly<Record<string, bigint>>
  return Object.keys(map)
    .sort()
    .map((asset) => ({
      asset,
      balance: map[asset] ?? null,
      unlocked: r.unlockeds?.[asset] ?? 0n,
      locked_stakeable: r.lockedStakeables?.[asset] ?? 0n,
      locked_not_stakeable: r.lockedNotStakeables?.[asset] ?? 0n
    }))
}

export const dataset = defineDataset(table, {
  name: "legacy_balances",
  description: "Balances of the job's legacy addresses from the node's deprecated avm.getAllBalances, avm.getBalance (+ avm.getTxStatus) and platform.getBalance, one snapshot per run day",
  services: ["node"],
  partitionBy: ["network", "snapshot_date"],
  key: ["address", "method"],
  legacy: true,
  slices: (job, { runDate }) => {
    const network = nodeNetwork(job)
    const addresses = [...new Set(job.legacy.addresses.filter((a) => a.network === network).map((a) => a.address))].sort()
    return addresses.length === 0 ? [] : [makeSlice("legacy_balances", { network, snapshot_date: runDate, addresses: addresses.join(",") })]
  },
  listing: onNodeNetwork(keyedListing<JsonRpcClient>({ nextKeys: addressesAfter, fetch: recordsOf, batch: 20, concurrency: 2 })),
  reads: result,
  compute: ({ wire, read }) => ({
    balances: balanceRows(wire, read.method),
    utxo_ids: (wire.utxoIDs ?? []).map((u) => ({ tx_id: u.txID, output_index: u.outputIndex, tx_status: wire.txStatuses?.[u.txID] ?? null }))
  })
})
