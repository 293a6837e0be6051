import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Exit, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { CheckpointStore, type CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { CommittedKeys } from "../../src/crawl/CommittedKeys.ts"
import { OutputReader } from "../../src/crawl/OutputReader.ts"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { defaultJob, type Job } from "../../src/Job.ts"
import { run } from "../../src/Runner.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { WriterLock } from "../../src/sink/WriterLock.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"
import { sourceLayerWith } from "../../src/source/SourceLayer.ts"
import { emulatorIncremental } from "../support/emulatorJob/primary.ts"
import { concurrently } from "../support/concurrently.ts"
import { tempFolders } from "../support/fixtures.ts"
import { emulatorRetry, fetchAll, filesUnder, query, runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("spine")

const NETWORKS = ["mainnet", "fuji"] as const
/** The default job with the windowed datasets' history starting where the emulator's does. */
const spineJob = (emu: RunningEmulator): Job => ({ ...defaultJob, incremental: emulatorIncremental(emu) })

/** The spine's two datasets; the catalogue's datasets have tests of their own. */
const SPINE = ["staking_transactions", "primary_blocks"]

/** Byte order, as DuckDB's COLLATE "C" sorts (localeCompare would fold case). */
const byKey = <T>(key: (t: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
const CHAINS = ["p-chain", "x-chain", "c-chain"] as const

/** The emulator's staking transactions in the columns we compare, from its own REST pages. */
const expectedStaking = async (emu: RunningEmulator) => {
  const rows = []
  for (const network of NETWORKS) {
    const txs = await fetchAll(`${emu.baseUrl}/v1/networks/${network}/blockchains/p-chain/transactions:listStaking`, "transactions", { sortOrder: "asc" })
    for (const t of txs) {
      rows.push({
        network,
        tx_hash: t["txHash"],
        tx_type: t["txType"],
        block_number: t["blockNumber"],
        block_ts: t["blockTimestamp"],
        block_hash: t["blockHash"],
        consumed: (t["consumedUtxos"] as Array<Record<string, unknown>>).map((u) => `${u["utxoId"]}:${(u["asset"] as Record<string, unknown>)["amount"]}`).join(","),
        emitted: (t["emittedUtxos"] as Array<Record<string, unknown>>).map((u) => `${u["utxoId"]}:${(u["asset"] as Record<string, unknown>)["amount"]}`).join(","),
        staked: (t["amountStaked"] as Array<Record<string, unknown>>).map((a) => `${a["assetId"]}:${a["amount"]}`).join(","),
        node_id: t["nodeId"] ?? null
      })
    }
  }
  return rows.sort(byKey((r) => `${r.network}${r.tx_hash}`))
}

const actualStaking = (catalog: string) =>
  query(
    catalog,
    `SELECT network, tx_hash, tx_type, block_number::VARCHAR AS block_number, epoch(block_timestamp)::INTEGER AS block_ts, block_hash,
       array_to_string(list_transform(consumed_utxos, u -> u.utxo_id || ':' || u.amount::VARCHAR), ',') AS consumed,
       array_to_string(list_transform(emitted_utxos, u -> u.utxo_id || ':' || u.amount::VARCHAR), ',') AS emitted,
       array_to_string(list_transform(amount_staked, a -> a.asset_id || ':' || a.amount::VARCHAR), ',') AS staked,
       node_id
     FROM staking_transactions ORDER BY network || tx_hash COLLATE "C"`
  )

const expectedBlocks = async (emu: RunningEmulator) => {
  const rows = []
  for (const network of NETWORKS) {
    for (const blockchain of CHAINS) {
      for (const b of await fetchAll(`${emu.baseUrl}/v1/networks/${network}/blockchains/${blockchain}/blocks`, "blocks")) {
        rows.push({
          network,
          blockchain,
          block_number: b["blockNumber"],
          block_hash: b["blockHash"],
          parent_hash: b["parentHash"],
          block_ts: b["blockTimestamp"],
          tx_count: b["txCount"],
          transactions: (b["transactions"] as string[]).join(",")
        })
      }
    }
  }
  return rows.sort(byKey((r) => `${r.network}${r.blockchain}${r.block_hash}`))
}

const actualBlocks = (catalog: string) =>
  query(
    catalog,
    `SELECT network, blockchain, block_number::VARCHAR AS block_number, block_hash, parent_hash, epoch(block_timestamp)::INTEGER AS block_ts,
       tx_count, array_to_string(transactions, ',') AS transactions
     FROM primary_blocks ORDER BY network || blockchain || block_hash COLLATE "C"`
  )

describe("the spine against the emulator", () => {
  let emu: RunningEmulator
  let cleanOut: string

  beforeAll(async () => {
    emu = await startEmulator({ seed: 11 })
    cleanOut = await tempOut()
    const report = await Effect.runPromise(runSpine(cleanOut, emu, { datasets: SPINE, job: spineJob(emu) }))
    expect(report.status).toBe("succeeded")
  }, 300_000)
  afterAll(async () => {
    await emu.close()
  })

  it("given a clean run, when the catalog is read, then staking_transactions equal the emulator's transactions", async () => {
    const expected = await expectedStaking(emu)
    expect(expected.length).toBeGreaterThan(20)
    const actual = await actualStaking(path.join(cleanOut, "catalog.duckdb"))
    expect(actual).toEqual(expected)
  })

  it("given a clean run, when the catalog is read, then primary_blocks equal the emulator's blocks of all six chains", async () => {
    const expected = await expectedBlocks(emu)
    expect(new Set(expected.map((b) => `${b.network}/${b.blockchain}`)).size).toBe(6)
    const actual = await actualBlocks(path.join(cleanOut, "catalog.duckdb"))
    expect(actual).toEqual(expected)
  })

  it("given a clean run, when DuckDB describes the views, then columns carry the declared types", async () => {
    const catalog = path.join(cleanOut, "catalog.duckdb")
    const types = async (view: string) =>
      Object.fromEntries((await query(catalog, `DESCRIBE ${view}`)).map((r) => [r["column_name"], r["column_type"]]))
    const staking = await types("staking_transactions")
    expect(staking).toMatchObject({
      network: "VARCHAR",
      date: "DATE",
      block_number: "DECIMAL(38,0)",
      block_timestamp: "TIMESTAMP WITH TIME ZONE",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE"
    })
    expect(staking["consumed_utxos"]).toMatch(/^STRUCT\(utxo_id VARCHAR, .*amount DECIMAL\(38,0\).*addresses VARCHAR\[\].*\)\[\]$/)
    expect(staking["amount_staked"]).toMatch(/^STRUCT\(.*amount DECIMAL\(38,0\)\)\[\]$/)
    const blocks = await types("primary_blocks")
    expect(blocks).toMatchObject({ blockchain: "VARCHAR", block_number: "DECIMAL(38,0)", transactions: "VARCHAR[]", current_supply: "DECIMAL(38,0)" })
  })

  it("given a clean run, when the output folder is listed, then staging is empty and every part sits under its Hive partition", async () => {
    expect(await filesUnder(path.join(cleanOut, "_staging"))).toEqual([])
    const parts = await filesUnder(path.join(cleanOut, "primary_blocks"))
    expect(parts.length).toBeGreaterThan(6)
    // primary_blocks is stored by month (its pipeline file says why)
    for (const p of parts) expect(p).toMatch(/^network=(mainnet|fuji)\/blockchain=(p|x|c)-chain\/month=\d{4}-\d{2}\/part-[a-z0-9-]+-\d{6}\.parquet$/)
  })

  it("given month folders, when the view is read, then every row's date is the UTC day of its block and lies in its folder's month", async () => {
    const [row] = await query(
      path.join(cleanOut, "catalog.duckdb"),
      "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE date = DATE '1970-01-01' + CAST(floor(epoch(block_timestamp) / 86400) AS INTEGER) AND strftime(date, '%Y-%m') = month)::INTEGER AS ok FROM primary_blocks"
    )
    expect(Number(row!["n"])).toBeGreaterThan(6)
    expect(row!["ok"]).toEqual(row!["n"])
  })

  it("given a finished run, when the same command runs again, then only the head window of each listing is asked again and no row is doubled", async () => {
    const before = await query(path.join(cleanOut, "catalog.duckdb"), "SELECT count(*)::INTEGER AS n FROM staking_transactions")
    const report = await Effect.runPromise(runSpine(cleanOut, emu, { datasets: SPINE, job: spineJob(emu) }))
    expect(report.slices.length).toBe(8)
    expect(report.slices.every((s) => s.status === "done" && s.rows === 0)).toBe(true)
    expect(await query(path.join(cleanOut, "catalog.duckdb"), "SELECT count(*)::INTEGER AS n FROM staking_transactions")).toEqual(before)
  }, 300_000)

  it("given a run killed after every durable step in turn, when resumed, then rows equal the clean run and no committed page is fetched again", async () => {
    // windows of 400 days: two per listing, so the kill points stay a few dozen
    const wide = Object.fromEntries(Object.entries(emulatorIncremental(emu)).map(([name, s]) => [name, { ...s, window: "400d" }]))
    const job: Job = { ...defaultJob, incremental: wide, networks: ["mainnet"], primaryBlockchains: ["p-chain"] }
    const opts = { job, datasets: ["staking_transactions", "primary_blocks"], partRows: 100 }
    // count the durable steps (part renames and checkpoint saves) and pages of an uninterrupted run
    const counting = { ops: 0, killAt: Number.POSITIVE_INFINITY }
    const reference = await tempOut()
    const cleanReport = await Effect.runPromise(runWithKill(reference, emu, opts, counting))
    const totalPages = cleanReport.report.slices.reduce((n, s) => n + s.pages, 0)
    expect(totalPages).toBeGreaterThan(3)
    const durableSteps = counting.ops
    const expectedRows = await dump(path.join(reference, "catalog.duckdb"))

    // every kill point, four at a time: each has its own folder, and a run spends most of its time
    // in DuckDB's threads (the catalog rebuild), not on this one
    const killPoints = Array.from({ length: durableSteps }, (_, i) => i + 1)
    await concurrently(killPoints, 4, async (killAt) => {
      const out = await tempOut()
      const killed = await Effect.runPromiseExit(runWithKill(out, emu, opts, { ops: 0, killAt }))
      expect(Exit.isFailure(killed)).toBe(true)
      const left = await checkpoints(out)
      const pagesCommitted = left.reduce((n, c) => n + c.pagesCommitted, 0)
      const resumed = await Effect.runPromise(runWithKill(out, emu, opts, { ops: 0, killAt: Number.POSITIVE_INFINITY }))
      expect(resumed.report.status).toBe("succeeded")
      // a head window finished before the kill is topped up from its completion minus the
      // lookback, as every night does: new rows only (none at the same instant), never a committed page twice
      const doneBefore = new Set(left.filter((c) => c.status === "done").map((c) => c.slice))
      const topUps = resumed.report.slices.filter((s) => doneBefore.has(s.slice))
      expect(topUps.every((s) => s.rows === 0)).toBe(true)
      expect(resumed.requests).toBe(totalPages - pagesCommitted + topUps.reduce((n, s) => n + s.requests, 0))
      expect(await dump(path.join(out, "catalog.duckdb"))).toEqual(expectedRows)
      expect(await filesUnder(path.join(out, "_staging"))).toEqual([])
    })
  }, 600_000)
})

/** Dies (as kill -9 would) right after the `killAt`-th durable step: a part rename or a checkpoint save. */
const runWithKill = (out: string, emu: RunningEmulator, opts: { job: Job; datasets: string[]; partRows: number }, kill: { ops: number; killAt: number }) => {
  const tick = Effect.suspend(() => (++kill.ops === kill.killAt ? Effect.die(new Error(`killed after step ${kill.ops}`)) : Effect.void))
  const sink = Layer.effect(
    ParquetSink,
    Effect.map(ParquetSink, (real) => ({ ...real, writePart: (input: Parameters<typeof real.writePart>[0]) => Effect.tap(real.writePart(input), () => tick) }))
  ).pipe(Layer.provide(ParquetSink.layer(out)))
  const store = Layer.effect(
    CheckpointStore,
    Effect.map(CheckpointStore, (real) => ({ ...real, save: (s: CheckpointState) => Effect.tap(real.save(s), () => tick) }))
  ).pipe(Layer.provide(CheckpointStore.layer(out)))
  const layers = Layer.mergeAll(sourceLayerWith({ baseUrl: emu.baseUrl, metricsUrl: emu.metricsUrl, nodeUrl: emu.nodeUrl, out, retry: emulatorRetry }), sink, store, WriterLock.file, CommittedKeys.layer(out), OutputReader.layer(out, catalogEntries()))
  return Effect.gen(function* () {
    const report = yield* run({ out, job: opts.job, datasets: opts.datasets, partRows: opts.partRows, sliceConcurrency: 1, asOf: emu.clock.now() })
    const stats = yield* (yield* SourceStats).snapshot
    return { report, requests: Object.values(stats).reduce((n, h) => n + h.requests, 0) }
  }).pipe(Effect.provide(layers))
}

const checkpoints = async (out: string): Promise<CheckpointState[]> => {
  const files = (await filesUnder(path.join(out, "_state", "checkpoints"))).filter((f) => f.endsWith(".json"))
  return Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(out, "_state", "checkpoints", f), "utf8")) as CheckpointState))
}

/** Every data column of both datasets as JSON text, lineage excluded, in a stable order. */
const dump = async (catalog: string) => {
  const rows = (view: string) =>
    query(catalog, `SELECT to_json(t)::VARCHAR AS j FROM (SELECT * EXCLUDE (run_id, ingested_at) FROM ${view}) t ORDER BY j`)
  return { staking: await rows("staking_transactions"), blocks: await rows("primary_blocks") }
}
