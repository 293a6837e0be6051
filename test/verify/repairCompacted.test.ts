/**
 * Issue 41: verify --repair and backfill --refetch where a compacted file holds the rows to
 * re-crawl. The output is crawled from the emulator (P-chain blocks of four days in day windows,
 * P-chain heights 0–29 from the node) and compacted; a link is broken inside a compacted file.
 * verify names the refetch over the range the compacted file takes whole, a narrower refetch is
 * refused naming that range, and --repair gives back rows equal to an untouched, uncompacted crawl.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { compareCatalogs } from "../reliability/compare.ts"
import { type CliExit, runCli } from "../reliability/cli.ts"
import { crawledOnce } from "../support/crawledOnce.ts"
import { rewriteParquet } from "../support/plantedFaults.ts"
import { filesUnder, query } from "../support/spine.ts"

interface Manifest {
  readonly files: ReadonlyArray<{ readonly file: string; readonly replaces: ReadonlyArray<{ readonly slice: string }> }>
}

const manifestOf = async (out: string, table: string): Promise<Manifest> => JSON.parse(await fs.readFile(path.join(out, "_state", "manifests", `${table}.json`), "utf8")) as Manifest

/** The untouched crawl, and the CLI as a process against the file's emulator with its job. */
const it = crawledOnce("repair-compacted", {}, async ({ out: base, env, jobFile }) => {
  const job = await jobFile({ networks: ["mainnet"], primaryBlockchains: ["p-chain"], incremental: { primary_blocks: { window: "1d", since: "2024-12-29" } } })
  const cli = (args: ReadonlyArray<string>): Promise<CliExit> => runCli(args, env)
  const verify = (out: string, more: ReadonlyArray<string> = []) => cli(["verify", "--out", out, "--job", job, ...more])
  const crawl = async (out: string) => {
    for (const args of [
      ["backfill", "primary_blocks", "--from", "2024-12-29", "--to", "2025-01-02", "--window", "1d"],
      ["backfill", "node_p_blocks", "--from", "0", "--to", "30", "--window", "10"]
    ]) {
      const r = await cli([...args, "--job", job, "--out", out, "--quiet"])
      if (r.code !== 0) throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`)
    }
  }
  /** A crawl of its own into `out`, compacted: its compacted files hold several windows' and cells' parts. */
  const compacted = async (out: string) => {
    await crawl(out)
    const r = await cli(["compact", "primary_blocks", "node_p_blocks", "--out", out, "--quiet"])
    if (r.code !== 0) throw new Error(`compact: exit ${r.code}: ${r.stderr}`)
    return out
  }
  const differences = async (out: string) =>
    (await compareCatalogs(base, out)).filter((d) => d.dataset === "primary_blocks" || d.dataset === "node_p_blocks").map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])
  await crawl(base)
  return { base, job, cli, verify, compacted, differences }
})

// the first test that asks for the crawl also waits for it
describe("verify --repair over compacted files", () => {
  const clean = [
    ["node_p_blocks", 30, 0, 0],
    ["primary_blocks", 31, 0, 0]
  ]

  it("given December's three day windows of primary_blocks compacted into one file and a parent_hash altered in it, when verified, then the refetch named takes the three windows whole; a refetch of the one window is refused naming that range, and --repair gives back the untouched rows", async ({ crawled: { base, job, cli, verify, compacted, differences }, out: into }) => {
    const out = await compacted(into)
    const december = (await manifestOf(out, "primary_blocks")).files.find((f) => f.file.includes("month=2024-12"))!
    // the three day windows of December, merged
    expect(new Set(december.replaces.map((r) => r.slice)).size).toBe(3)
    const file = path.join(out, "primary_blocks", ...december.file.split("/"))
    const top = (await query(path.join(base, "catalog.duckdb"), `SELECT max(block_number)::VARCHAR AS h FROM read_parquet('${file}', hive_partitioning = false)`))[0]!["h"]
    await rewriteParquet(file, (rows) => `SELECT * REPLACE (CASE WHEN block_number = ${top} THEN 'not-the-parent' ELSE parent_hash END AS parent_hash) FROM ${rows}`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks network=mainnet/blockchain=p-chain links: the chain does not link at heights ${top}: .* \\(re-crawled with the windows compacted with it in primary_blocks/${december.file}\\)$`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-29 --to 2025-01-01 --window 1d --refetch --out ${out} --job ${job}`)

    // the window alone cannot be taken out of the compacted file: refused, nothing removed
    const before = await filesUnder(path.join(out, "primary_blocks"))
    const narrow = await cli(["backfill", "primary_blocks", "--from", "2024-12-31", "--to", "2025-01-01", "--window", "1d", "--refetch", "--out", out, "--job", job, "--quiet"])
    expect(narrow.code).toBe(2)
    expect(narrow.stderr).toContain(`compacted file(s) primary_blocks/${december.file} hold(s) rows of windows of primary_blocks reaching outside [2024-12-31T00:00:00Z, 2025-01-01T00:00:00Z)`)
    expect(narrow.stderr).toContain("pass --from 2024-12-29 --to 2025-01-01")
    expect(await filesUnder(path.join(out, "primary_blocks"))).toEqual(before)

    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(repaired.stderr.match(/^repair: chainetl backfill primary_blocks --from 2024-12-29 --to 2025-01-01 --window 1d --refetch /gm)).toHaveLength(1)
    // the compacted file is gone from the manifest and the folder; its windows are parts again
    expect((await manifestOf(out, "primary_blocks")).files.map((f) => f.file)).not.toContain(december.file)
    await expect(fs.stat(file)).rejects.toThrow(/ENOENT/)
    expect(await differences(out)).toEqual(clean)
  }, 300_000)

  it("given node_p_blocks' cells compacted into one file and a parent_id altered in it, when verified, then the refetch named covers the file's heights (a narrower one is refused naming them); --repair removes it through its manifest and walks them again to the untouched rows", async ({ crawled: { base, job, cli, verify, compacted, differences }, out: into }) => {
    const out = await compacted(into)
    const merged = (await manifestOf(out, "node_p_blocks")).files
    expect(merged.length).toBeGreaterThan(0)
    const entry = merged[0]!
    const file = path.join(out, "node_p_blocks", ...entry.file.split("/"))
    const [span] = await query(path.join(base, "catalog.duckdb"), `SELECT min(height)::INTEGER AS lo, max(height)::INTEGER AS hi FROM read_parquet('${file}', hive_partitioning = false)`)
    const lo = Number(span!["lo"])
    const hi = Number(span!["hi"])
    // one file holds several cells (window 10): more heights than one cell
    expect(hi - lo).toBeGreaterThan(10)
    const broken = lo + 12
    await rewriteParquet(file, (rows) => `SELECT * REPLACE (CASE WHEN height = ${broken} THEN 'not-the-parent' ELSE parent_id END AS parent_id) FROM ${rows}`)
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet links: the chain does not link at heights ${broken}: the parent_id of ${broken} is not-the-parent, `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${lo} --to ${hi + 1} --refetch --out ${out} --job ${job}`)
    // the broken height alone cannot be taken out of the compacted file: refused naming the file's range
    const narrow = await cli(["backfill", "node_p_blocks", "--from", String(broken), "--to", String(broken + 1), "--refetch", "--out", out, "--job", job, "--quiet"])
    expect(narrow.code).toBe(2)
    expect(narrow.stderr).toContain(`node_p_blocks/${entry.file} holds heights ${lo}-${hi}, reaching outside [${broken}, ${broken + 1})`)
    expect(narrow.stderr).toContain(`pass --from ${lo} --to ${hi + 1}`)
    expect((await verify(out, ["--repair"])).code).toBe(0)
    expect((await manifestOf(out, "node_p_blocks")).files.map((f) => f.file)).not.toContain(entry.file)
    await expect(fs.stat(file)).rejects.toThrow(/ENOENT/)
    expect(await differences(out)).toEqual(clean)
  }, 300_000)
})
