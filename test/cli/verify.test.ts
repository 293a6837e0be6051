/**
 * Issue 41 items 1, 2 and 4: `chainetl verify` over an output crawled from the emulator (P-chain
 * blocks of four days in day windows, P-chain heights 0–29 from the node), then over copies of it
 * with one fault planted each: a part deleted, a window skipped, a parent link broken, a key
 * planted twice in a part, a block the node served in a shape no build maps. Each is found, named
 * with its re-crawl, and `--repair` makes the copy's rows equal to the untouched output's. The
 * metrics file is read with a Prometheus text-format parser.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import parsePrometheus from "parse-prometheus-text-format"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { compareCatalogs } from "../reliability/compare.ts"
import { type CliExit, runCli } from "../reliability/cli.ts"
import { query, tempOut } from "../support/spine.ts"
import { brokenNode } from "../support/brokenNode.ts"

/** Rewrites a Parquet file with what `select` makes of its rows (read without its folders' Hive keys). */
const rewrite = async (file: string, select: (rows: string) => string): Promise<void> => {
  const db = await DuckDBInstance.create(":memory:", { threads: "1" })
  const conn = await db.connect()
  try {
    const tmp = `${file}.planted`
    await conn.run(`COPY (${select(`read_parquet('${file}', hive_partitioning = false)`)}) TO '${tmp}' (FORMAT parquet)`)
    await fs.rename(tmp, file)
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

const filesUnder = async (dir: string): Promise<string[]> =>
  (await fs.readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith(".parquet")).map((e) => path.join(e.parentPath, e.name)).sort()

describe("chainetl verify", () => {
  let emu: RunningEmulator
  let base: string
  let job: string
  const env = (node?: string) => ({ CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: node ?? emu.nodeUrl, CHAINETL_RATE_LIMIT: "200" })
  const cli = (args: ReadonlyArray<string>, node?: string): Promise<CliExit> => runCli(args, env(node))
  const verify = (out: string, more: ReadonlyArray<string> = [], node?: string) => cli(["verify", "--out", out, "--job", job, ...more], node)
  const crawl = async (out: string, node?: string) => {
    for (const args of [
      ["backfill", "primary_blocks", "--from", "2024-12-29", "--to", "2025-01-02", "--window", "1d"],
      ["backfill", "node_p_blocks", "--from", "0", "--to", "30", "--window", "10"]
    ]) {
      const r = await cli([...args, "--job", job, "--out", out, "--quiet"], node)
      if (r.code !== 0 && node === undefined) throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`)
    }
  }
  const copy = async () => {
    const dir = await tempOut()
    await fs.cp(base, dir, { recursive: true })
    return dir
  }
  /** Per view: rows only in one of the two outputs (lineage aside). */
  const differences = async (out: string, views: ReadonlyArray<string> = ["primary_blocks", "node_p_blocks"]) =>
    (await compareCatalogs(base, out)).filter((d) => views.includes(d.dataset)).map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])
  const clean = [
    ["node_p_blocks", 30, 0, 0],
    ["primary_blocks", 31, 0, 0]
  ]

  beforeAll(async () => {
    emu = await startEmulator()
    base = await tempOut()
    job = path.join(base, "..", `${path.basename(base)}-job.json`)
    await fs.writeFile(job, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["p-chain"], incremental: { primary_blocks: { window: "1d", since: "2024-12-29" } } }))
    await crawl(base)
  }, 120_000)
  afterAll(async () => {
    await emu?.close()
  })

  it("given an untouched output, when verified with a metrics file, then every check holds (exit 0) and the file parses as Prometheus text with each dataset's figures", async () => {
    const metrics = path.join(await tempOut(), "chainetl.prom")
    const r = await verify(base, ["--metrics-file", metrics])
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^ok {3}primary_blocks \(31 rows\)$/m)
    expect(r.stdout).toMatch(/^ok {3}node_p_blocks \(30 rows\)$/m)
    expect(r.stdout).not.toContain("FAIL")
    const families = parsePrometheus(await fs.readFile(metrics, "utf8"))
    const value = (name: string, dataset: string) => families.find((f) => f.name === name)?.metrics.find((m) => m.labels?.["dataset"] === dataset)?.value
    for (const f of families) expect(f.type).toBe("GAUGE")
    expect(value("chainetl_verify_ok", "primary_blocks")).toBe("1")
    expect(value("chainetl_dataset_rows", "primary_blocks")).toBe("31")
    expect(value("chainetl_dataset_rows", "node_p_blocks")).toBe("30")
    expect(value("chainetl_dataset_holes", "node_p_blocks")).toBe("0")
    expect(value("chainetl_dataset_failed_slices", "node_p_blocks")).toBe("0")
    expect(value("chainetl_dataset_rejects", "node_p_blocks")).toBe("0")
    // the backfill's runs finished every slice: their end is the last success
    const runs = await Promise.all((await fs.readdir(path.join(base, "_runs"))).map(async (f) => JSON.parse(await fs.readFile(path.join(base, "_runs", f), "utf8")) as { datasets: string[]; finishedAt: string }))
    const finished = runs.find((run) => run.datasets.includes("node_p_blocks"))!.finishedAt
    expect(value("chainetl_dataset_last_success_timestamp_seconds", "node_p_blocks")).toBe(String(Math.floor(Date.parse(finished) / 1000)))
    expect(Number(value("chainetl_dataset_lag_seconds", "primary_blocks"))).toBeGreaterThan(0)
    expect(families.find((f) => f.name === "chainetl_verify_failures")?.metrics.every((m) => m.value === "0")).toBe(true)
    // written whole: nothing beside it
    expect(await fs.readdir(path.dirname(metrics))).toEqual(["chainetl.prom"])
  }, 60_000)

  it("given bad usage, when verify is asked, then it says what to pass and exits 2; --json gives the verdict as one document", async () => {
    const typo = await verify(base, ["primary_block"])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain("unknown dataset primary_block (did you mean primary_blocks?)")
    const empty = await tempOut()
    const none = await verify(empty)
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(`${empty} holds no chainetl output (no _state folder)`)
    const json = await verify(base, ["--json", "node_p_blocks"])
    expect(json.code).toBe(0)
    const doc = JSON.parse(json.stdout) as { ok: boolean; findings: unknown[]; datasets: Array<{ dataset: string; rows: string; holes: string }> }
    expect(doc).toMatchObject({ ok: true, findings: [], datasets: [{ dataset: "node_p_blocks", rows: "30", holes: "0" }] })
  }, 60_000)

  it("given a freshness SLA the data misses, when verified, then it fails naming the dataset and its age, exit 1; an SLA it meets passes", async () => {
    const stale = path.join(await tempOut(), "job.json")
    const spec = JSON.parse(await fs.readFile(job, "utf8")) as Record<string, unknown>
    await fs.writeFile(stale, JSON.stringify({ ...spec, freshness: { primary_blocks: "26h" } }))
    const r = await cli(["verify", "--out", base, "--job", stale, "primary_blocks"])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^FAIL primary_blocks freshness: is \d+h \d+m old, its freshness SLA is 26h$/m)
    expect(r.stdout).toContain(`re-crawl: chainetl run primary_blocks --out ${base} --job ${stale}`)
    await fs.writeFile(stale, JSON.stringify({ ...spec, freshness: { primary_blocks: "99999d" } }))
    expect((await cli(["verify", "--out", base, "--job", stale, "primary_blocks"])).code).toBe(0)
    await fs.writeFile(stale, JSON.stringify({ ...spec, freshness: { primary_block: "26h" } }))
    const bad = await cli(["verify", "--out", base, "--job", stale])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("freshness.primary_block: primary_block is not a dataset (did you mean primary_blocks?)")
  }, 60_000)

  it("given a part of node_p_blocks deleted, when verified, then its heights are named as missing with the backfill of exactly them, and --repair makes the rows equal to the untouched output's", async () => {
    const out = await copy()
    // a file in the middle of the heights: neither the lowest block (0) nor the highest (29)
    const spans = await Promise.all(
      (await filesUnder(path.join(out, "node_p_blocks"))).map(async (file) => {
        const [span] = await query(path.join(base, "catalog.duckdb"), `SELECT min(height)::INTEGER AS lo, max(height)::INTEGER AS hi FROM read_parquet('${file}', hive_partitioning = false)`)
        return { file, lo: Number(span!["lo"]), hi: Number(span!["hi"]) }
      })
    )
    const gone = spans.find((s) => s.lo > 0 && s.hi < 29)!
    const victim = gone.file
    await fs.rm(victim)
    const r = await verify(out)
    expect(r.code).toBe(1)
    const range = gone.lo === gone.hi ? String(gone.lo) : `${gone.lo}-${gone.hi}`
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet heights: heights ${range} are missing`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${gone.lo} --to ${gone.hi + 1} --out ${out} --job ${job}`)
    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain("after --repair:")
    expect(await differences(out)).toEqual(clean)
  }, 120_000)

  it("given a window of primary_blocks never crawled, when verified, then the window and its day are named with the backfill of it, and --repair fills it", async () => {
    const out = await copy()
    const window = "p-chain-2024-12-30t00-00-00z-mainnet-2024-12-31t00-00-00z"
    for (const f of await filesUnder(path.join(out, "primary_blocks"))) if (path.basename(f).includes(window)) await fs.rm(f)
    for (const f of await fs.readdir(path.join(out, "_state", "checkpoints", "primary_blocks"))) if (f.includes(window)) await fs.rm(path.join(out, "_state", "checkpoints", "primary_blocks", f))
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^FAIL primary_blocks network=mainnet\/blockchain=p-chain windows: \[2024-12-30T00:00:00Z, 2024-12-31T00:00:00Z\) was never crawled \(no window covers it\); days without rows: 2024-12-30$/m)
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-30 --to 2024-12-31 --out ${out} --job ${job}`)
    expect(r.stdout).toMatch(/^FAIL primary_blocks network=mainnet\/blockchain=p-chain heights: heights \d+(-\d+)? are missing/m)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect(await differences(out)).toEqual(clean)
  }, 120_000)

  it("given a block whose parent_hash was altered in its part, when verified, then the chain is named broken at that height with the refetch of its window, and --repair restores it", async () => {
    const out = await copy()
    const part = (await filesUnder(path.join(out, "primary_blocks"))).find((f) => path.basename(f).includes("2024-12-31t00-00-00z-mainnet-2025-01-01"))!
    const top = (await query(path.join(base, "catalog.duckdb"), `SELECT max(block_number)::VARCHAR AS h FROM read_parquet('${part}', hive_partitioning = false)`))[0]!["h"]
    await rewrite(part, (rows) => `SELECT * REPLACE (CASE WHEN block_number = ${top} THEN 'not-the-parent' ELSE parent_hash END AS parent_hash) FROM ${rows}`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks network=mainnet/blockchain=p-chain links: the chain does not link at heights ${top}: the parent_hash of ${top} is not-the-parent, `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-31 --to 2025-01-01 --window 1d --refetch --out ${out} --job ${job}`)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect(await differences(out)).toEqual(clean)
  }, 120_000)

  it("given a row written twice into a part, when verified, then the key is named twice in the view and the window's rows above its checkpoint, and --repair refetches the window to the untouched rows", async () => {
    const out = await copy()
    const part = (await filesUnder(path.join(out, "primary_blocks"))).find((f) => path.basename(f).includes("2024-12-30t00-00-00z-mainnet-2024-12-31"))!
    const hash = (await query(path.join(base, "catalog.duckdb"), `SELECT min(block_hash) AS h FROM read_parquet('${part}', hive_partitioning = false)`))[0]!["h"]
    await rewrite(part, (rows) => `SELECT * FROM ${rows} UNION ALL SELECT * FROM ${rows} WHERE block_hash = '${hash}'`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks exactly-once: key \\(network=mainnet, blockchain=p-chain, month=2024-12, block_hash=${hash}\\) is 2 times in primary_blocks `, "m"))
    expect(r.stdout).toMatch(/^FAIL primary_blocks network=mainnet\/blockchain=p-chain windows: window \[2024-12-30T00:00:00Z, 2024-12-31T00:00:00Z\) holds (\d+) row\(s\) in its files, its checkpoint says \d+ were committed/m)
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-30 --to 2024-12-31 --window 1d --refetch --out ${out} --job ${job}`)
    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    // the window was crawled once, not once per finding
    expect(repaired.stderr.match(/^repair: /gm)).toHaveLength(1)
    expect(await differences(out)).toEqual(clean)
  }, 120_000)

  it("given a node block whose parent_id was altered and another height written twice, when verified, then each is named with the refetch of the heights of the files holding it, and --repair restores the untouched rows", async () => {
    const out = await copy()
    const spans = await Promise.all(
      (await filesUnder(path.join(out, "node_p_blocks"))).map(async (file) => {
        const [span] = await query(path.join(base, "catalog.duckdb"), `SELECT min(height)::INTEGER AS lo, max(height)::INTEGER AS hi FROM read_parquet('${file}', hive_partitioning = false)`)
        return { file, lo: Number(span!["lo"]), hi: Number(span!["hi"]) }
      })
    )
    // two files above genesis: one gets a wrong parent at its top height, the other its lowest row twice
    const [linked, doubled] = spans.filter((s) => s.lo > 0).sort((a, b) => a.lo - b.lo)
    await rewrite(linked!.file, (rows) => `SELECT * REPLACE (CASE WHEN height = ${linked!.hi} THEN 'not-the-parent' ELSE parent_id END AS parent_id) FROM ${rows}`)
    await rewrite(doubled!.file, (rows) => `SELECT * FROM ${rows} UNION ALL SELECT * FROM ${rows} WHERE height = ${doubled!.lo}`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet links: the chain does not link at heights ${linked!.hi}: the parent_id of ${linked!.hi} is not-the-parent, `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${linked!.lo} --to ${linked!.hi + 1} --refetch --out ${out} --job ${job}`)
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks exactly-once: key \\(network=mainnet, month=\\S+, height=${doubled!.lo}\\) is 2 times in node_p_blocks `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${doubled!.lo} --to ${doubled!.hi + 1} --refetch --out ${out} --job ${job}`)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect(await differences(out)).toEqual(clean)
  }, 120_000)

  it("given a block the node served unmappable, when verified, then its height is named missing with the backfill of it, and once the node serves it --repair writes it", async () => {
    const broken = new Set(["5"])
    const node = await brokenNode(emu.nodeUrl, broken)
    try {
      const out = await tempOut()
      await crawl(out, node.url)
      expect(await query(path.join(out, "catalog.duckdb"), "SELECT count(*)::INTEGER AS n FROM _rejects")).toEqual([{ n: 1 }])
      const r = await verify(out, [], node.url)
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/^FAIL node_p_blocks network=mainnet heights: heights 5 are missing \(1 block\(s\)\)$/m)
      expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from 5 --to 6 --out ${out} --job ${job}`)
      // still broken: the repair asks again, the height stays missing
      expect((await verify(out, ["--repair"], node.url)).code).toBe(1)
      broken.clear()
      expect((await verify(out, ["--repair"], node.url)).code).toBe(0)
      expect(await differences(out)).toEqual(clean)
    } finally {
      await node.close()
    }
  }, 180_000)
})
