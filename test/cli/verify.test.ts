/**
 * Issue 41 items 1, 2 and 4: `chainetl verify` over an output crawled from the emulator (P-chain
 * blocks of four days in day windows, P-chain heights 0–29 from the node, the delegators snapshot
 * and the Fuji C-chain's blocks), then over copies of it with one fault planted each: a part
 * deleted (of a window, a height walk, a snapshot, the EVM blocks), a window skipped, a parent link
 * broken, a key planted twice in a part, a block the node served in a shape no build maps. Each is
 * found, named with its re-crawl, and `--repair` makes the copy's rows equal to the untouched
 * output's. The metrics file is read with a Prometheus text-format parser.
 *
 * The CLI runs in this process (the `cli` fixture: src/cli/main.ts, its output captured), which is
 * what these tests are about: verify's findings, commands and repairs. Two tests run the binary as
 * a child process, for the exit codes a shell sees (1 on a failed check, 2 on bad usage).
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import parsePrometheus from "parse-prometheus-text-format"
import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import { compareCatalogs } from "../reliability/compare.ts"
import { runCli } from "../reliability/cli.ts"
import { crawledOnce } from "../support/crawledOnce.ts"
import type { CliRun, InProcessCli } from "../support/emulatorFixtures.ts"
import { filesUnder as relativeFilesUnder, query } from "../support/spine.ts"
import { brokenNode } from "../support/brokenNode.ts"
import { rewriteParquet } from "../support/plantedFaults.ts"

/** The Parquet files below `dir`, absolute, sorted. */
const filesUnder = async (dir: string): Promise<string[]> => (await relativeFilesUnder(dir)).filter((f) => f.endsWith(".parquet")).map((f) => path.join(dir, f))

/** Each file's lowest and highest value of `column`. */
const spansOf = async (catalog: string, files: ReadonlyArray<string>, column: string) =>
  Promise.all(
    files.map(async (file) => {
      const [span] = await query(catalog, `SELECT min(${column})::INTEGER AS lo, max(${column})::INTEGER AS hi FROM read_parquet('${file}', hive_partitioning = false)`)
      return { file, lo: Number(span!["lo"]), hi: Number(span!["hi"]) }
    })
  )

const VIEWS = ["primary_blocks", "node_p_blocks", "delegators", "evm_blocks"]

/** The untouched output, crawled once for the file, and how to reach what it was crawled from. */
interface Crawled {
  readonly emu: RunningEmulator
  readonly base: string
  readonly job: string
  readonly env: (node?: string) => Record<string, string>
  readonly crawl: (out: string, node?: string) => Promise<void>
}

const it = crawledOnce<Crawled>("verify", {}, async ({ emu, out: base, env: toEmulator, jobFile, cli }) => {
  const job = await jobFile({ networks: ["mainnet"], primaryBlockchains: ["p-chain"], evmChains: ["43113"], incremental: { primary_blocks: { window: "1d", since: "2024-12-29" } } })
  const env = (node?: string) => ({ ...toEmulator, CHAINETL_NODE_URL: node ?? emu.nodeUrl })
  const crawl = async (out: string, node?: string) => {
    for (const args of [
      ["backfill", "primary_blocks", "--from", "2024-12-29", "--to", "2025-01-02", "--window", "1d"],
      ["backfill", "node_p_blocks", "--from", "0", "--to", "30", "--window", "10"],
      // several parts each: a lost one is a part of a slice, not the slice
      ...(node === undefined ? [["run", "delegators", "evm_blocks", "--part-rows", "150"]] : [])
    ]) {
      const r = await cli([...args, "--job", job, "--out", out, "--quiet"], env(node))
      if (r.code !== 0 && node === undefined) throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`)
    }
  }
  await crawl(base)
  return { emu, base, job, env, crawl }
})

describe("chainetl verify", () => {
  const verifier = (cli: InProcessCli, c: Crawled) => (out: string, more: ReadonlyArray<string> = [], node?: string): Promise<CliRun> => cli(["verify", "--out", out, "--job", c.job, ...more], c.env(node))
  const copyOf = async (c: Crawled, out: string) => {
    await fs.cp(c.base, out, { recursive: true })
    return out
  }
  /** Per view: rows only in one of the two outputs (lineage aside). */
  const differences = async (c: Crawled, out: string, views: ReadonlyArray<string> = VIEWS) =>
    (await compareCatalogs(c.base, out)).filter((d) => views.includes(d.dataset)).map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])
  const clean = [
    ["delegators", 330, 0, 0],
    ["evm_blocks", 1100, 0, 0],
    ["node_p_blocks", 30, 0, 0],
    ["primary_blocks", 31, 0, 0]
  ]
  const cleanOf = (views: ReadonlyArray<string>) => clean.filter(([v]) => views.includes(v as string))

  it("given an untouched output, when verified with a metrics file, then every check holds (exit 0) and the file parses as Prometheus text with each dataset's figures", async ({ crawled, cli, out }) => {
    const metrics = path.join(out, "chainetl.prom")
    const r = await verifier(cli, crawled)(crawled.base, ["--metrics-file", metrics])
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    for (const [view, rows] of clean) expect(r.stdout).toMatch(new RegExp(`^ok {3}${view} \\(${rows} rows\\)$`, "m"))
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
    const runs = await Promise.all((await fs.readdir(path.join(crawled.base, "_runs"))).map(async (f) => JSON.parse(await fs.readFile(path.join(crawled.base, "_runs", f), "utf8")) as { datasets: string[]; finishedAt: string }))
    const finished = runs.find((run) => run.datasets.includes("node_p_blocks"))!.finishedAt
    expect(value("chainetl_dataset_last_success_timestamp_seconds", "node_p_blocks")).toBe(String(Math.floor(Date.parse(finished) / 1000)))
    expect(Number(value("chainetl_dataset_lag_seconds", "primary_blocks"))).toBeGreaterThan(0)
    expect(families.find((f) => f.name === "chainetl_verify_failures")?.metrics.every((m) => m.value === "0")).toBe(true)
    expect(families.find((f) => f.name === "chainetl_verify_failures")?.metrics.some((m) => m.labels?.["check"] === "slices")).toBe(true)
    // written whole: nothing beside it
    expect(await fs.readdir(out)).toEqual(["chainetl.prom"])
  }, 60_000)

  it("given bad usage, when the chainetl binary is asked to verify, then it says what to pass and exits 2; --json gives the verdict as one document", async ({ crawled, cli, out }) => {
    const child = (args: ReadonlyArray<string>) => runCli(["verify", "--job", crawled.job, ...args], crawled.env())
    const typo = await child(["--out", crawled.base, "primary_block"])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain("unknown dataset primary_block (did you mean primary_blocks?)")
    const none = await child(["--out", out])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(`${out} holds no chainetl output (no _state folder)`)
    const json = await verifier(cli, crawled)(crawled.base, ["--json", "node_p_blocks"])
    expect(json.code).toBe(0)
    const doc = JSON.parse(json.stdout) as { ok: boolean; findings: unknown[]; datasets: Array<{ dataset: string; rows: string; holes: string }> }
    expect(doc).toMatchObject({ ok: true, findings: [], datasets: [{ dataset: "node_p_blocks", rows: "30", holes: "0" }] })
  }, 60_000)

  it("given a freshness SLA the data misses, when the chainetl binary verifies, then it fails naming the dataset and its age, exit 1; an SLA it meets passes", async ({ crawled, cli, out }) => {
    const stale = path.join(out, "job.json")
    const spec = JSON.parse(await fs.readFile(crawled.job, "utf8")) as Record<string, unknown>
    await fs.writeFile(stale, JSON.stringify({ ...spec, freshness: { primary_blocks: "26h" } }))
    const r = await runCli(["verify", "--out", crawled.base, "--job", stale, "primary_blocks"], crawled.env())
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^FAIL primary_blocks freshness: is \d+h \d+m old, its freshness SLA is 26h$/m)
    expect(r.stdout).toContain(`re-crawl: chainetl run primary_blocks --out ${crawled.base} --job ${stale}`)
    await fs.writeFile(stale, JSON.stringify({ ...spec, freshness: { primary_blocks: "99999d" } }))
    expect((await cli(["verify", "--out", crawled.base, "--job", stale, "primary_blocks"], crawled.env())).code).toBe(0)
    await fs.writeFile(stale, JSON.stringify({ ...spec, freshness: { primary_block: "26h" } }))
    const bad = await cli(["verify", "--out", crawled.base, "--job", stale], crawled.env())
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("freshness.primary_block: primary_block is not a dataset (did you mean primary_blocks?)")
  }, 60_000)

  it("given a part of node_p_blocks deleted, when verified, then its heights are named as missing with the backfill of exactly them, and --repair makes the rows equal to the untouched output's", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    // a file in the middle of the heights: neither the lowest block (0) nor the highest (29)
    const spans = await spansOf(path.join(crawled.base, "catalog.duckdb"), await filesUnder(path.join(out, "node_p_blocks")), "height")
    const gone = spans.find((s) => s.lo > 0 && s.hi < 29)!
    await fs.rm(gone.file)
    const r = await verify(out)
    expect(r.code).toBe(1)
    const range = gone.lo === gone.hi ? String(gone.lo) : `${gone.lo}-${gone.hi}`
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet heights: heights ${range} are missing`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${gone.lo} --to ${gone.hi + 1} --out ${out} --job ${crawled.job}`)
    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain("after --repair:")
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a part of the delegators snapshot deleted, when verified, then the slice is named with the rows it committed against those its files hold and the run that crawls it again whole, and --repair makes the rows equal to the untouched output's", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const parts = await filesUnder(path.join(out, "delegators"))
    expect(parts.length).toBeGreaterThan(1)
    const victim = parts[1]!
    const [lost] = await query(path.join(crawled.base, "catalog.duckdb"), `SELECT count(*)::INTEGER AS n FROM read_parquet('${victim}')`)
    await fs.rm(victim)
    const slice = /^part-(.+)-(\d{6})\.parquet$/.exec(path.basename(victim))!
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(
      new RegExp(`^FAIL delegators network=mainnet/snapshot_date=\\S+ slices: slice ${slice[1]} committed 330 row\\(s\\), its files hold ${330 - Number(lost!["n"])} \\(no file of part-${slice[1]}-${slice[2]} is on disk\\)$`, "m")
    )
    expect(r.stdout).toContain(`re-crawl: chainetl run delegators --refetch-slice ${slice[1]} --out ${out} --job ${crawled.job}`)
    // the other datasets are whole
    expect(r.stdout.match(/^FAIL .* slices: /gm)).toHaveLength(1)
    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given the delegators snapshot compacted and its compacted file then lost, when verified, then the file is named with the run that crawls its one slice again whole, and --repair takes it out of the manifest and makes the rows equal to the untouched output's", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    expect((await cli(["compact", "--out", out, "--quiet", "delegators"], crawled.env())).code).toBe(0)
    const files = await filesUnder(path.join(out, "delegators"))
    const merged = files.filter((f) => path.basename(f).startsWith("compact-"))
    expect(merged).toHaveLength(1)
    // the compacted file holds the slice's rows through the manifest: the slices check counts them
    expect((await verify(out, ["delegators"])).code).toBe(0)
    const slice = /^part-(.+)-\d{6}\.parquet$/.exec(path.basename((await filesUnder(path.join(crawled.base, "delegators")))[0]!))![1]!
    await fs.rm(merged[0]!)
    const r = await verify(out, ["delegators"])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`FAIL delegators exactly-once: ${path.relative(out, merged[0]!)}, listed by its manifest, is missing or not Parquet`)
    expect(r.stdout).toContain(`re-crawl: chainetl run delegators --refetch-slice ${slice} --out ${out} --job ${crawled.job}`)
    expect((await verify(out, ["--repair", "delegators"])).code).toBe(0)
    expect(JSON.parse(await fs.readFile(path.join(out, "_state", "manifests", "delegators.json"), "utf8"))).toMatchObject({ files: [] })
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a part of evm_blocks deleted, when verified, then its heights and its slice's rows are named with the run that takes those heights out of the slice's count and fills them, and --repair makes the rows equal to the untouched output's", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const spans = await spansOf(path.join(crawled.base, "catalog.duckdb"), await filesUnder(path.join(out, "evm_blocks")), "block_number")
    const top = Math.max(...spans.map((s) => s.hi))
    const gone = spans.find((s) => s.lo > 0 && s.hi < top)!
    await fs.rm(gone.file)
    const slice = /^part-(.+)-\d{6}\.parquet$/.exec(path.basename(gone.file))![1]!
    const r = await verify(out, ["evm_blocks"])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL evm_blocks chain_id=43113 heights: heights ${gone.lo}-${gone.hi} are missing \\(${gone.hi - gone.lo + 1} block\\(s\\)\\)$`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl run evm_blocks --refetch-slice ${slice}@${gone.lo}-${gone.hi} --out ${out} --job ${crawled.job}`)
    expect(r.stdout).toMatch(new RegExp(`^FAIL evm_blocks chain_id=43113 slices: slice ${slice} committed 1100 row\\(s\\), its files hold ${1100 - (gone.hi - gone.lo + 1)}$`, "m"))
    expect(r.stdout).toContain("fix: the re-crawl of the heights named above recounts the slice and fills them")
    const repaired = await verify(out, ["--repair", "evm_blocks"])
    expect(repaired.stderr.match(/^repair: /gm)).toHaveLength(1)
    expect(repaired.code).toBe(0)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given an evm block whose parent_hash was altered and another written twice, when verified, then each is named with the run that takes the heights of the files holding it out and crawls them again, and --repair restores the untouched rows", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const spans = (await spansOf(path.join(crawled.base, "catalog.duckdb"), await filesUnder(path.join(out, "evm_blocks")), "block_number")).sort((a, b) => a.lo - b.lo)
    // two files above genesis: one gets a wrong parent at its top height, the other its lowest row twice
    const [linked, doubled] = [spans[3]!, spans[8]!]
    const slice = /^part-(.+)-\d{6}\.parquet$/.exec(path.basename(linked.file))![1]!
    await rewriteParquet(linked.file, (rows) => `SELECT * REPLACE (CASE WHEN block_number = ${linked.hi} THEN 'not-the-parent' ELSE parent_hash END AS parent_hash) FROM ${rows}`)
    await rewriteParquet(doubled.file, (rows) => `SELECT * FROM ${rows} UNION ALL SELECT * FROM ${rows} WHERE block_number = ${doubled.lo}`)
    const r = await verify(out, ["evm_blocks"])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL evm_blocks chain_id=43113 links: the chain does not link at heights ${linked.hi}: the parent_hash of ${linked.hi} is not-the-parent, `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl run evm_blocks --refetch-slice ${slice}@${linked.lo}-${linked.hi} --out ${out} --job ${crawled.job}`)
    expect(r.stdout).toMatch(new RegExp(`^FAIL evm_blocks exactly-once: key \\(chain_id=43113, date=\\S+, block_hash=0x[0-9a-f]+\\) is 2 times in evm_blocks `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl run evm_blocks --refetch-slice ${slice}@${doubled.lo}-${doubled.hi} --out ${out} --job ${crawled.job}`)
    // the row planted twice is one more than the slice committed; its re-crawl recounts it
    expect(r.stdout).toMatch(new RegExp(`^FAIL evm_blocks chain_id=43113 slices: slice ${slice} committed 1100 row\\(s\\), its files hold 1101$`, "m"))
    const repaired = await verify(out, ["--repair", "evm_blocks"])
    expect(repaired.stderr.match(/^repair: /gm)).toHaveLength(2)
    expect(repaired.code).toBe(0)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a window of primary_blocks never crawled, when verified, then the window and its day are named with the backfill of it, and --repair fills it", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const window = "p-chain-2024-12-30t00-00-00z-mainnet-2024-12-31t00-00-00z"
    for (const f of await filesUnder(path.join(out, "primary_blocks"))) if (path.basename(f).includes(window)) await fs.rm(f)
    for (const f of await fs.readdir(path.join(out, "_state", "checkpoints", "primary_blocks"))) if (f.includes(window)) await fs.rm(path.join(out, "_state", "checkpoints", "primary_blocks", f))
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^FAIL primary_blocks network=mainnet\/blockchain=p-chain windows: \[2024-12-30T00:00:00Z, 2024-12-31T00:00:00Z\) was never crawled \(no window covers it\); days without rows: 2024-12-30$/m)
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-30 --to 2024-12-31 --out ${out} --job ${crawled.job}`)
    expect(r.stdout).toMatch(/^FAIL primary_blocks network=mainnet\/blockchain=p-chain heights: heights \d+(-\d+)? are missing/m)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a block whose parent_hash was altered in its part, when verified, then the chain is named broken at that height with the refetch of its window, and --repair restores it", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const part = (await filesUnder(path.join(out, "primary_blocks"))).find((f) => path.basename(f).includes("2024-12-31t00-00-00z-mainnet-2025-01-01"))!
    const top = (await query(path.join(crawled.base, "catalog.duckdb"), `SELECT max(block_number)::VARCHAR AS h FROM read_parquet('${part}', hive_partitioning = false)`))[0]!["h"]
    await rewriteParquet(part, (rows) => `SELECT * REPLACE (CASE WHEN block_number = ${top} THEN 'not-the-parent' ELSE parent_hash END AS parent_hash) FROM ${rows}`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks network=mainnet/blockchain=p-chain links: the chain does not link at heights ${top}: the parent_hash of ${top} is not-the-parent, `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-31 --to 2025-01-01 --window 1d --refetch --out ${out} --job ${crawled.job}`)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a row written twice into a part, when verified, then the key is named twice in the view and the window's rows above its checkpoint, and --repair refetches the window to the untouched rows", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const part = (await filesUnder(path.join(out, "primary_blocks"))).find((f) => path.basename(f).includes("2024-12-30t00-00-00z-mainnet-2024-12-31"))!
    const hash = (await query(path.join(crawled.base, "catalog.duckdb"), `SELECT min(block_hash) AS h FROM read_parquet('${part}', hive_partitioning = false)`))[0]!["h"]
    await rewriteParquet(part, (rows) => `SELECT * FROM ${rows} UNION ALL SELECT * FROM ${rows} WHERE block_hash = '${hash}'`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks exactly-once: key \\(network=mainnet, blockchain=p-chain, month=2024-12, block_hash=${hash}\\) is 2 times in primary_blocks `, "m"))
    expect(r.stdout).toMatch(/^FAIL primary_blocks network=mainnet\/blockchain=p-chain windows: window \[2024-12-30T00:00:00Z, 2024-12-31T00:00:00Z\) holds (\d+) row\(s\) in its files, its checkpoint says \d+ were committed/m)
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-30 --to 2024-12-31 --window 1d --refetch --out ${out} --job ${crawled.job}`)
    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    // the window was crawled once, not once per finding
    expect(repaired.stderr.match(/^repair: /gm)).toHaveLength(1)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a node block whose parent_id was altered and another height written twice, when verified, then each is named with the refetch of the heights of the files holding it, and --repair restores the untouched rows", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await copyOf(crawled, out)
    const spans = await spansOf(path.join(crawled.base, "catalog.duckdb"), await filesUnder(path.join(out, "node_p_blocks")), "height")
    // two files above genesis: one gets a wrong parent at its top height, the other its lowest row twice
    const [linked, doubled] = spans.filter((s) => s.lo > 0).sort((a, b) => a.lo - b.lo)
    await rewriteParquet(linked!.file, (rows) => `SELECT * REPLACE (CASE WHEN height = ${linked!.hi} THEN 'not-the-parent' ELSE parent_id END AS parent_id) FROM ${rows}`)
    await rewriteParquet(doubled!.file, (rows) => `SELECT * FROM ${rows} UNION ALL SELECT * FROM ${rows} WHERE height = ${doubled!.lo}`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet links: the chain does not link at heights ${linked!.hi}: the parent_id of ${linked!.hi} is not-the-parent, `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${linked!.lo} --to ${linked!.hi + 1} --refetch --out ${out} --job ${crawled.job}`)
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks exactly-once: key \\(network=mainnet, month=\\S+, height=${doubled!.lo}\\) is 2 times in node_p_blocks `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${doubled!.lo} --to ${doubled!.hi + 1} --refetch --out ${out} --job ${crawled.job}`)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 120_000)

  it("given a block the node served unmappable, when verified, then its height is named missing with the backfill of it, and once the node serves it --repair writes it", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    const broken = new Set(["5"])
    const node = await brokenNode(crawled.emu.nodeUrl, broken)
    try {
      await crawled.crawl(out, node.url)
      expect(await query(path.join(out, "catalog.duckdb"), "SELECT count(*)::INTEGER AS n FROM _rejects")).toEqual([{ n: 1 }])
      const r = await verify(out, [], node.url)
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/^FAIL node_p_blocks network=mainnet heights: heights 5 are missing \(1 block\(s\)\)$/m)
      expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from 5 --to 6 --out ${out} --job ${crawled.job}`)
      // still broken: the repair asks again, the height stays missing
      expect((await verify(out, ["--repair"], node.url)).code).toBe(1)
      broken.clear()
      expect((await verify(out, ["--repair"], node.url)).code).toBe(0)
      const views = ["primary_blocks", "node_p_blocks"]
      expect(await differences(crawled, out, views)).toEqual(cleanOf(views))
    } finally {
      await node.close()
    }
  }, 180_000)
})
