/**
 * Issue 41: a child table's lost part. evm_transactions writes its transfers into child tables in
 * the same commit as its own rows; the checkpoint counts each child table's rows (`childRows`), so
 * a child part deleted shows as the slice's child rows committed against those its files hold.
 * The output is crawled once from the emulator (token_transfers, then evm_transactions); the fault
 * is planted in a copy, and `--repair` makes the copy's rows equal to the untouched output's. A
 * compacted copy passes: the child tables' compacted files count for the slices they merged.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { compareCatalogs } from "../reliability/compare.ts"
import { evmJobPart } from "../support/emulatorJob/evm.ts"
import { crawledOnce } from "../support/crawledOnce.ts"
import type { CliRun, InProcessCli } from "../support/emulatorFixtures.ts"
import { filesUnder, query } from "../support/spine.ts"

interface Crawled {
  readonly base: string
  readonly job: string
  readonly env: Record<string, string>
}

const CHILD = "evm_erc20_transfers"
const VIEWS = ["evm_transactions", CHILD]

const it = crawledOnce<Crawled>("child", {}, async ({ emu, out: base, env, jobFile, cli }) => {
  const job = await jobFile({ networks: ["mainnet"], ...evmJobPart(emu) })
  for (const dataset of ["token_transfers", "evm_transactions"]) {
    // several parts a slice: a lost one is a part of a slice, not the slice
    const r = await cli(["run", dataset, "--part-rows", "20", "--job", job, "--out", base, "--quiet"], env)
    if (r.code !== 0) throw new Error(`run ${dataset}: exit ${r.code}: ${r.stderr}`)
  }
  return { base, job, env }
})

describe("verify finds a child table's lost part", () => {
  const verifier = (cli: InProcessCli, c: Crawled) => (out: string, more: ReadonlyArray<string> = []): Promise<CliRun> => cli(["verify", "--out", out, "--job", c.job, ...more], c.env)
  const differences = async (c: Crawled, out: string) =>
    (await compareCatalogs(c.base, out)).filter((d) => VIEWS.includes(d.dataset)).map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])

  it("given the output compacted, when verified, then the child tables' compacted files count for the slices they merged: every check holds (no child rows found short)", async ({ crawled, cli, out }) => {
    await fs.cp(crawled.base, out, { recursive: true })
    const c = await cli(["compact", "--out", out, "--quiet"], crawled.env)
    expect(c.code).toBe(0)
    // the child table's parts were merged: its rows are counted from the compacted files' manifest
    const manifest = JSON.parse(await fs.readFile(path.join(out, "_state", "manifests", `${CHILD}.json`), "utf8")) as { files: ReadonlyArray<unknown> }
    expect(manifest.files.length).toBeGreaterThan(0)
    const r = await verifier(cli, crawled)(out)
    expect(r.stdout).not.toContain("FAIL")
    expect(r.code).toBe(0)
  }, 120_000)

  it(`given a part of ${CHILD} deleted, when verified, then its slice is named with the ${CHILD} rows it committed against those its files hold and the run that crawls it again whole, and --repair makes the rows equal to the untouched output's`, async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    expect((await verify(crawled.base)).code).toBe(0)
    await fs.cp(crawled.base, out, { recursive: true })
    const parts = (await filesUnder(path.join(out, CHILD))).filter((f) => f.endsWith(".parquet"))
    const gone = path.join(out, CHILD, parts[0]!)
    const [held] = await query(path.join(crawled.base, "catalog.duckdb"), `SELECT count(*)::INTEGER AS n FROM read_parquet('${gone}', hive_partitioning = false)`)
    const lost = Number(held!["n"])
    expect(lost).toBeGreaterThan(0)
    // part-<slice>-<seq>.parquet
    const slice = /^part-(.+)-[0-9]{6}\.parquet$/.exec(path.basename(gone))![1]!
    const state = JSON.parse(await fs.readFile(path.join(out, "_state", "checkpoints", "evm_transactions", `${slice}.json`), "utf8")) as { childRows: Record<string, number> }
    const committed = state.childRows[CHILD]!
    await fs.rm(gone)

    const r = await verify(out)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL evm_transactions .*slices: slice ${slice} committed ${committed} ${CHILD} row\\(s\\), its files hold ${committed - lost}$`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl run evm_transactions --refetch-slice ${slice} --out ${out} --job ${crawled.job}`)

    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain("after --repair:")
    const clean = await differences(crawled, crawled.base)
    expect(clean.every(([, rows, onlyA, onlyB]) => (rows as number) > 0 && onlyA === 0 && onlyB === 0)).toBe(true)
    expect(await differences(crawled, out)).toEqual(clean)
  }, 240_000)
})
