/**
 * The analyst's views over a re-fetched output: two snapshot days of `delegators` (the emulator's
 * clock moves a day between the runs) and `evm_blocks` with a part of re-fetched, corrected rows.
 * The raw views hold every copy; the `_latest` views one row per key with the newest values. Then
 * partition pruning, seen through DuckDB's profiler: a filter on a Hive key reads only its files.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../src/Job.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { emulatorJob } from "../support/emulatorJob/index.ts"
import { parquetScans } from "../support/explain.ts"
import { tempFolders } from "../support/fixtures.ts"
import { fetchAll, filesUnder, query, runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("latestViews")

const DAY = 86_400
const utcDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

describe("_latest views and partition pruning over a re-fetched output", () => {
  let emu: RunningEmulator
  let out: string
  let day1: string
  let day2: string
  let refetched: string
  const catalog = () => path.join(out, "catalog.duckdb")

  beforeAll(async () => {
    emu = await startEmulator()
    out = await tempOut()
    const job: Job = { ...emulatorJob(emu), networks: ["mainnet", "fuji"], evmChains: ["43114"] }
    day1 = utcDay(emu.clock.now())
    const night1 = await Effect.runPromise(runSpine(out, emu, { datasets: ["delegators", "evm_blocks"], job }))
    emu.advance(DAY)
    day2 = utcDay(emu.clock.now())
    const night2 = await Effect.runPromise(runSpine(out, emu, { datasets: ["delegators"], job }))
    expect([night1.status, night2.status]).toEqual(["succeeded", "succeeded"])

    // a re-fetch of one evm_blocks part by a later run, the service having corrected a value:
    // the same keys again, beside the original part, as a slice's next part would be
    const parts = (await filesUnder(path.join(out, "evm_blocks"))).filter((f) => path.basename(f).startsWith("part-"))
    const original = path.join(out, "evm_blocks", parts[0]!)
    refetched = original.replace(/-(\d{6})\.parquet$/, "-000099.parquet")
    const db = await DuckDBInstance.create(":memory:")
    const conn = await db.connect()
    await conn.run(
      `COPY (SELECT * REPLACE (gas_used + 1 AS gas_used, 'refetch-run' AS run_id, ingested_at + INTERVAL 1 DAY AS ingested_at) FROM read_parquet('${original}'))
       TO '${refetched}' (FORMAT parquet)`
    )
    conn.closeSync()
    db.closeSync()
    await Effect.runPromise(buildCatalog(out, catalogEntries()))
  }, 300_000)

  afterAll(async () => {
    await emu?.close()
  })

  it("given two snapshot days of delegators, when the raw view is counted, then keys listed on both days show twice", async () => {
    const [row] = await query(catalog(), "SELECT count(*)::INTEGER AS n, count(DISTINCT (network, tx_hash))::INTEGER AS keys, count(DISTINCT snapshot_date)::INTEGER AS days FROM delegators")
    expect(row!["days"]).toBe(2)
    expect(row!["n"]).toBeGreaterThan(row!["keys"] as number)
  })

  it("given two snapshot days, when delegators_latest is read, then it holds exactly the second day's rows, one per key, as the service lists them now", async () => {
    const [counts] = await query(catalog(), "SELECT count(*)::INTEGER AS n, count(DISTINCT (network, tx_hash))::INTEGER AS keys FROM delegators_latest")
    expect(counts!["n"]).toBe(counts!["keys"])
    const cols = "network, tx_hash, delegation_status, amount_delegated::VARCHAR, net_reward::VARCHAR, estimated_net_reward::VARCHAR, snapshot_date::VARCHAR, run_id"
    const [diff] = await query(
      catalog(),
      `SELECT (SELECT count(*) FROM (SELECT ${cols} FROM delegators_latest EXCEPT ALL SELECT ${cols} FROM delegators WHERE snapshot_date = DATE '${day2}'))::INTEGER AS extra,
              (SELECT count(*) FROM (SELECT ${cols} FROM delegators WHERE snapshot_date = DATE '${day2}' EXCEPT ALL SELECT ${cols} FROM delegators_latest))::INTEGER AS missing`
    )
    expect(diff).toEqual({ extra: 0, missing: 0 })
    for (const network of ["mainnet", "fuji"]) {
      const truth = await fetchAll(`${emu.baseUrl}/v1/networks/${network}/delegators`, "delegators", { sortOrder: "asc" })
      const rows = await query(catalog(), `SELECT tx_hash, delegation_status AS s FROM delegators_latest WHERE network = '${network}'`)
      expect(new Map(rows.map((r) => [r["tx_hash"], r["s"]]))).toEqual(new Map(truth.map((d) => [d["txHash"], d["delegationStatus"]])))
    }
  })

  it("given a delegation whose status changed between the days, when delegators_latest is read, then it shows the new status", async () => {
    const changed = await query(
      catalog(),
      `SELECT a.network, a.tx_hash, b.delegation_status AS now FROM delegators a JOIN delegators b USING (network, tx_hash)
       WHERE a.snapshot_date = DATE '${day1}' AND b.snapshot_date = DATE '${day2}' AND a.delegation_status <> b.delegation_status`
    )
    expect(changed.length).toBeGreaterThan(0)
    const latest = await query(catalog(), "SELECT network, tx_hash, delegation_status AS now FROM delegators_latest")
    const byKey = new Map(latest.map((r) => [`${r["network"]}/${r["tx_hash"]}`, r["now"]]))
    for (const c of changed) expect(byKey.get(`${c["network"]}/${c["tx_hash"]}`)).toBe(c["now"])
  })

  it("given a re-fetched evm_blocks part with a corrected value, when both views are read, then raw holds both copies and evm_blocks_latest the newer one only", async () => {
    const [raw] = await query(catalog(), "SELECT count(*)::INTEGER AS n, count(DISTINCT (chain_id, block_hash))::INTEGER AS keys FROM evm_blocks")
    const [copies] = await query(catalog(), `SELECT count(*)::INTEGER AS n FROM read_parquet('${refetched}')`)
    expect(raw!["n"]).toBe((raw!["keys"] as number) + (copies!["n"] as number))
    const [latest] = await query(catalog(), "SELECT count(*)::INTEGER AS n FROM evm_blocks_latest")
    expect(latest!["n"]).toBe(raw!["keys"])
    const [diff] = await query(
      catalog(),
      `SELECT count(*)::INTEGER AS wrong FROM evm_blocks_latest l JOIN read_parquet('${refetched}') r USING (block_hash)
       WHERE l.gas_used <> r.gas_used OR l.run_id <> 'refetch-run'`
    )
    expect(diff!["wrong"]).toBe(0)
  })

  it("given the catalog, when a _latest view's columns are described, then each keeps the raw view's comment", async () => {
    const comments = await query(
      catalog(),
      `SELECT r.column_name, r.comment AS raw, l.comment AS latest FROM duckdb_columns() r JOIN duckdb_columns() l USING (column_name)
       WHERE r.table_name = 'delegators' AND l.table_name = 'delegators_latest'`
    )
    expect(comments.length).toBeGreaterThan(10)
    for (const c of comments) expect([c["column_name"], c["latest"]]).toEqual([c["column_name"], c["raw"]])
    expect(comments.every((c) => String(c["raw"]).length > 0)).toBe(true)
  })

  const filesOf = async (dataset: string, match: (rel: string) => boolean) => {
    const all = (await filesUnder(path.join(out, dataset))).filter((f) => f.endsWith(".parquet"))
    return { all: all.length, matching: all.filter(match).length }
  }

  it("given evm_blocks in day folders, when one day is filtered, then the profiler shows only that day's files read", async () => {
    const day = (await fs.readdir(path.join(out, "evm_blocks", "chain_id=43114"))).sort()[1]!
    const files = await filesOf("evm_blocks", (f) => f.includes(`/${day}/`))
    expect(files.all).toBeGreaterThan(files.matching)
    const scans = await parquetScans(catalog(), `SELECT count(*) FROM evm_blocks WHERE date = DATE '${day.slice("date=".length)}'`)
    expect(scans).toHaveLength(1)
    expect(scans[0]).toMatchObject({ filesRead: files.matching, scanning: files.matching, matched: files.all })
  })

  it("given delegators of two days and two networks, when a snapshot day or a network is filtered, then only its folders' files are read, through the _latest view too", async () => {
    const oneDay = await filesOf("delegators", (f) => f.includes(`snapshot_date=${day1}/`))
    expect(await parquetScans(catalog(), `SELECT count(*) FROM delegators WHERE snapshot_date = DATE '${day1}'`)).toMatchObject([
      { filesRead: oneDay.matching, matched: oneDay.all }
    ])
    const fuji = await filesOf("delegators", (f) => f.startsWith("network=fuji/"))
    expect(fuji.all).toBeGreaterThan(fuji.matching)
    expect(await parquetScans(catalog(), "SELECT count(*) FROM delegators_latest WHERE network = 'fuji'")).toMatchObject([
      { filesRead: fuji.matching, matched: fuji.all }
    ])
  })

  it("given the output, when its table folders are walked, then they follow Hive's conventions and hold nothing but the files a view reads", async () => {
    for (const dataset of ["delegators", "evm_blocks"]) {
      const files = await filesUnder(path.join(out, dataset))
      const bad: string[] = []
      for (const f of files) {
        const segments = f.split("/")
        const name = segments.pop()!
        if (!/^part-[a-z0-9-]+-\d{6}\.parquet$/.test(name)) bad.push(f)
        for (const s of segments) {
          const m = /^([a-z][a-z0-9_]*)=([^:=/]+)$/.exec(s)
          if (m === null || ((m[1] === "date" || m[1] === "snapshot_date") && !/^\d{4}-\d{2}-\d{2}$/.test(m[2]!))) bad.push(f)
        }
      }
      expect(bad).toEqual([])
      // an engine reading every file of the folder, as Spark or Trino would, counts what the view counts
      const [row] = await query(
        catalog(),
        `SELECT (SELECT count(*) FROM read_parquet('${path.join(out, dataset)}/**', hive_partitioning = true))::INTEGER AS folder, (SELECT count(*) FROM ${dataset})::INTEGER AS view`
      )
      expect(row!["folder"]).toBe(row!["view"])
    }
  })
})
