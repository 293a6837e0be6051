import { Effect } from "effect"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { makeSlice } from "../../../src/crawl/Slice.ts"
import type { RunningEmulator } from "@chainetl/emulator"
import { cb58 } from "@chainetl/emulator/world/primary/ids"
import type { TxRecord } from "@chainetl/emulator/world/primary"
import { ParquetSink } from "../../../src/sink/ParquetSink.ts"
import { dataset as staking } from "../../../pipelines/staking_transactions.ts"
import { SIGNED_TX_TYPES } from "../../../pipelines/aggregated_signatures.ts"
import type { RunReport } from "../../../src/Runner.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { fetchAll, query, runSpine } from "../../support/spine.ts"
import { NETWORKS } from "../../support/emulatorJob/groups.ts"
import { byKey, columnTypes, rejectReasons, uncommentedColumns } from "../../support/catalogReads.ts"
import { overRestClient } from "../../support/clientWraps.ts"

type Rec = Record<string, unknown>
interface Parent {
  readonly network: string
  readonly txHash: string
  readonly txType: string
  readonly at: number
  readonly height: bigint
  readonly blockId: string
}

const DAY = 86_400
const signed = (p: Parent) => (SIGNED_TX_TYPES as ReadonlyArray<string>).includes(p.txType)

/** The L1 txs of the emulator's P-chain revealed by its now (every type of the lifecycle). */
const l1Txs = (emu: RunningEmulator): Parent[] =>
  NETWORKS.flatMap((network) => {
    const net = emu.world.primary.network(network)
    const now = net.now()
    return net.l1Txs
      .txsIn(0, now + 1)
      .filter((t: TxRecord) => t.block.timestamp <= now)
      .map((t) => ({ network, txHash: t.id, txType: t.type, at: t.block.timestamp, height: t.block.height, blockId: t.block.blockId }))
  })

/**
 * Route 4 lists only the L1 txs behind validators active now: never a disable, nor a tx of a
 * validator gone inactive. To reach every type the fan-out reads, L1 txs are written into
 * staking_transactions here, through the real sink, as that dataset would.
 */
const seedStaking = (out: string, parents: ReadonlyArray<Parent>, seq: number) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart({
          dataset: "staking_transactions",
          slice: makeSlice("staking_transactions", { seeded: "l1" }).id,
          seq,
          schema: staking.schema,
          partitionBy: staking.partitionBy,
          // each parent as route 4 would list it (no UTXOs or amounts: the fan-out reads none), mapped by the dataset
          rows: parents.map((p) => {
            const record = {
              txHash: p.txHash,
              txType: p.txType,
              blockTimestamp: p.at,
              blockNumber: String(p.height),
              blockHash: p.blockId,
              ...Object.fromEntries(["consumedUtxos", "emittedUtxos", "value", "amountBurned", "amountStaked", "amountL1ValidatorBalanceBurned"].map((k) => [k, []]))
            }
            const row = { ...staking.toRow(record, makeSlice("staking_transactions", { network: p.network })), run_id: "seed", ingested_at: new Date() }
            // the columns the dataset derives from a finished row (its `date`, stored by month)
            staking.derive?.(row)
            return row
          })
        })
      }).pipe(Effect.provide(ParquetSink.layer(out)))
    )
  )

/** Counts route 1 requests of a run. */
const counting = () => {
  const asked: string[] = []
  const wrap = overRestClient((real) => ({
    ...real,
    get: (service, p, q) => {
      if (p.includes("/aggregateSignatures/")) asked.push(p.split("/").slice(3).join("/"))
      return real.get(service, p, q)
    }
  }))
  return { asked, wrap }
}

const actual = async (out: string) =>
  (await query(path.join(out, "catalog.duckdb"), "SELECT network, tx_hash, signed_message FROM aggregated_signatures")).sort(byKey<Rec>("network", "tx_hash"))

// signing is the emulator's slow part (a BLS signature per tx): each answer is fetched once
const signedMessages = new Map<string, unknown>()

/** Route 1 by plain fetch for each signable parent. */
const expected = async (emu: RunningEmulator, parents: ReadonlyArray<Parent>) => {
  const rows = []
  for (const p of parents.filter(signed)) {
    const url = `${emu.baseUrl}/v1/signatureAggregator/${p.network}/aggregateSignatures/${p.txHash}`
    if (!signedMessages.has(url)) signedMessages.set(url, ((await (await fetch(url)).json()) as Rec)["signedMessage"])
    rows.push({ network: p.network, tx_hash: p.txHash, signed_message: signedMessages.get(url) })
  }
  return rows.sort(byKey<Rec>("network", "tx_hash"))
}

/** The file's emulator (its own: a test moves its clock), the seeded parents and the first fan-out, as that run left the output. */
interface FirstRun {
  readonly emu: RunningEmulator
  readonly out: string
  readonly first: Parent[]
  /** Parents the service cannot sign: a hash it never issued (404) and a validator tx labelled as an L1 tx (400). */
  readonly unsignable: Parent[]
  readonly report: RunReport
  /** Route 1 requests of the first run. */
  readonly asked: string[]
  /** aggregated_signatures and its reject reasons right after the first run (a later test adds rows). */
  readonly rows: Rec[]
  readonly reasons: string[]
}

const it = crawledOnce<FirstRun>("aggregated-signatures", { seed: 11 }, async ({ emu, out }) => {
  // two of each type per network: every branch of the fan-out, few BLS signatures to wait for
  const first = l1Txs(emu).filter((p, i, all) => all.slice(0, i).filter((q) => q.network === p.network && q.txType === p.txType).length < 2)
  // a validator or delegator tx: route 4 lists L1 txs too, and those route 1 may sign
  const stakingTx = (await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking`, "transactions")).find((t) => String(t["txType"]).startsWith("Add")) as Rec
  const unsignable: Parent[] = [
    { network: "mainnet", txHash: cb58(new Uint8Array(32).fill(7)), txType: "RegisterL1ValidatorTx", at: first[0]!.at, height: first[0]!.height, blockId: first[0]!.blockId },
    {
      network: "mainnet",
      txHash: String(stakingTx["txHash"]),
      txType: "SetL1ValidatorWeightTx",
      at: Number(stakingTx["blockTimestamp"]),
      height: BigInt(String(stakingTx["blockNumber"])),
      blockId: String(stakingTx["blockHash"])
    }
  ]
  await seedStaking(out, [...first, ...unsignable], 0)
  const { asked, wrap } = counting()
  const report = await Effect.runPromise(runSpine(out, emu, { datasets: ["aggregated_signatures"] }, wrap))
  return { emu, out, first, unsignable, report, asked, rows: await actual(out), reasons: await rejectReasons(out, "aggregated_signatures") }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("aggregated_signatures (route 1 per L1 tx in staking_transactions) through the spine", { timeout: 120_000 }, () => {
  it("given L1 txs in staking_transactions, when the fan-out runs, then each signable one is asked once and its row is route 1's signed message", async ({
    crawled: { emu, first, unsignable, report, asked, rows, reasons }
  }) => {
    expect(report.status).toBe("succeeded")
    const want = await expected(emu, first)
    // conversions, registrations, weight changes and disables on both networks; top-ups and creations are not asked
    expect(new Set(first.filter(signed).map((p) => p.txType))).toEqual(new Set(SIGNED_TX_TYPES))
    expect(first.some((p) => p.txType === "IncreaseL1ValidatorBalanceTx")).toBe(true)
    expect([...asked].sort()).toEqual([...first, ...unsignable].filter(signed).map((p) => `${p.network}/aggregateSignatures/${p.txHash}`).sort())
    expect(rows).toEqual(want)
    expect(reasons).toHaveLength(2)
    expect(reasons[0]).toMatch(/^not found: GET data \/v1\/signatureAggregator\/mainnet\/aggregateSignatures\/\w+ answered 404$/)
    expect(reasons[1]).toMatch(/^not signed: route 1 answered 400: .*not L1-related/)
  })

  it("given a later now with new L1 txs, when the fan-out runs again, then only the new keys are asked and none of the rejected ones", async ({ crawled: { emu, out, first } }) => {
    const before = new Set(l1Txs(emu).map((p) => p.txHash))
    emu.advance(3 * DAY)
    const fresh = l1Txs(emu).filter((p) => !before.has(p.txHash))
    expect(fresh.filter(signed).length).toBeGreaterThan(0)
    await seedStaking(out, fresh, 1)
    const { asked, wrap } = counting()
    const report = await Effect.runPromise(runSpine(out, emu, { datasets: ["aggregated_signatures"] }, wrap))
    expect(report.slices.map((s) => s.status)).toEqual(["done", "done"])
    expect(asked.sort()).toEqual(fresh.filter(signed).map((p) => `${p.network}/aggregateSignatures/${p.txHash}`).sort())
    expect(await actual(out)).toEqual(await expected(emu, [...first, ...fresh]))

    const idle = counting()
    await Effect.runPromise(runSpine(out, emu, { datasets: ["aggregated_signatures"] }, idle.wrap))
    expect(idle.asked).toEqual([])
  })

  it("given a run, when DuckDB describes aggregated_signatures, then it has the network key, text columns and every column commented", async ({ crawled: { out } }) => {
    expect(await columnTypes(out, "aggregated_signatures")).toMatchObject({ network: "VARCHAR", tx_hash: "VARCHAR", signed_message: "VARCHAR" })
    expect(await uncommentedColumns(out, "aggregated_signatures")).toEqual([])
  })
})
