/**
 * Issue 41: the lost parts verify's other checks do not see. A node block walk's part at the top of
 * its heights leaves the heights below it contiguous: the walk's checkpoints say how high it wrote,
 * so the heights above the highest held are named missing, with the refetch of exactly them.
 * Two outputs are crawled once from the emulator: P-chain heights 0–29 in backfill cells of 10,
 * and the nightly walk from 0 to the tip; each test plants its fault in a copy of one, and
 * `--repair` makes the copy's rows equal to the untouched output's.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { compareCatalogs } from "../reliability/compare.ts"
import { crawledOnce } from "../support/crawledOnce.ts"
import type { CliRun, InProcessCli } from "../support/emulatorFixtures.ts"
import { filesUnder, query } from "../support/spine.ts"

interface Crawled {
  readonly base: string
  /** The nightly walk's output (`run node_p_blocks`): one slice from height 0 to the tip. */
  readonly walked: string
  readonly job: string
  readonly env: Record<string, string>
}

const it = crawledOnce<Crawled>("lost", {}, async ({ out: base, env, jobFile, folder, cli }) => {
  const job = await jobFile({ networks: ["mainnet"] })
  const r = await cli(["backfill", "node_p_blocks", "--from", "0", "--to", "30", "--window", "10", "--job", job, "--out", base, "--quiet"], env)
  if (r.code !== 0) throw new Error(`backfill node_p_blocks: exit ${r.code}: ${r.stderr}`)
  const walked = await folder("lost-walked")
  const w = await cli(["run", "node_p_blocks", "--job", job, "--out", walked, "--quiet"], env)
  if (w.code !== 0) throw new Error(`run node_p_blocks: exit ${w.code}: ${w.stderr}`)
  return { base, walked, job, env }
})

describe("verify finds a lost part the heights below it do not show", () => {
  const verifier = (cli: InProcessCli, c: Crawled) => (out: string, more: ReadonlyArray<string> = []): Promise<CliRun> => cli(["verify", "--out", out, "--job", c.job, ...more], c.env)
  const differences = async (c: Crawled, out: string, views: ReadonlyArray<string>) =>
    (await compareCatalogs(c.base, out)).filter((d) => views.includes(d.dataset)).map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])

  /** Each node_p_blocks file of `out` with its lowest and highest height, the highest last. */
  const spansOf = async (out: string) => {
    const files = (await filesUnder(path.join(out, "node_p_blocks"))).filter((f) => f.endsWith(".parquet")).map((f) => path.join(out, "node_p_blocks", f))
    const spans = await Promise.all(
      files.map(async (file) => {
        const [s] = await query(path.join(out, "catalog.duckdb"), `SELECT min(height)::INTEGER AS lo, max(height)::INTEGER AS hi FROM read_parquet('${file}', hive_partitioning = false)`)
        return { file, lo: Number(s!["lo"]), hi: Number(s!["hi"]) }
      })
    )
    return spans.sort((a, b) => a.hi - b.hi)
  }

  it("given the nightly walk's part holding its highest heights deleted, when verified, then they are named missing up to the height its checkpoint's rows reach, with the refetch of exactly them, and --repair makes the rows equal to the untouched output's", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    expect((await verify(crawled.walked)).code).toBe(0)
    await fs.cp(crawled.walked, out, { recursive: true })
    const spans = await spansOf(out)
    const top = spans[spans.length - 1]!
    expect(spans[spans.length - 2]!.hi).toBe(top.lo - 1)
    await fs.rm(top.file)

    const r = await verify(out)
    expect(r.code).toBe(1)
    const range = top.lo === top.hi ? String(top.hi) : `${top.lo}-${top.hi}`
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet heights: heights ${range} are missing \\(${top.hi - top.lo + 1} block\\(s\\)\\): the checkpoints say heights up to ${top.hi} were written, the files hold none above ${top.lo - 1}$`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${top.lo} --to ${top.hi + 1} --refetch --out ${out} --job ${crawled.job}`)

    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    const untouched = (await compareCatalogs(crawled.walked, out)).filter((d) => d.dataset === "node_p_blocks").map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])
    expect(untouched).toEqual([["node_p_blocks", top.hi + 1, 0, 0]])
  }, 120_000)

  it("given the node_p_blocks part holding its highest heights deleted, when verified, then the heights above the highest held up to the walk's committed top are named missing with the refetch of exactly them, and --repair makes the rows equal to the untouched output's", async ({ crawled, cli, out }) => {
    const verify = verifier(cli, crawled)
    await fs.cp(crawled.base, out, { recursive: true })
    const spans = await spansOf(out)
    const top = spans[spans.length - 1]!
    expect(top.hi).toBe(29)
    await fs.rm(top.file)
    // the heights left run unbroken from 0: no gap below the highest held
    expect(spans.filter((s) => s !== top).reduce((n, s) => Math.max(n, s.hi), -1)).toBe(top.lo - 1)

    const r = await verify(out)
    expect(r.code).toBe(1)
    const range = top.lo === 29 ? "29" : `${top.lo}-29`
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet heights: heights ${range} are missing \\(${30 - top.lo} block\\(s\\)\\): the checkpoints say heights up to 29 were written, the files hold none above ${top.lo - 1}$`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${top.lo} --to 30 --refetch --out ${out} --job ${crawled.job}`)

    const repaired = await verify(out, ["--repair"])
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain("after --repair:")
    expect(await differences(crawled, out, ["node_p_blocks"])).toEqual([["node_p_blocks", 30, 0, 0]])
  }, 120_000)
})
