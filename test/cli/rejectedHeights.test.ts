/**
 * Issue 38, item 4, as a user meets it: `chainetl backfill node_p_blocks` against a node that
 * serves blocks at some heights in a shape no build can map. The run says so in its last line and
 * exits 3; running it again is never "already complete"; `status` and `--dry-run` show the holes;
 * once the node serves those blocks, the same command fills them and every height is there once.
 *
 * The node sits behind a small proxy that, while told to, answers `platform.getBlockByHeight` at
 * the broken heights with a block that is not a block at all (any decoder rejects it).
 */
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { runCli } from "../reliability/cli.ts"
import { tempFolders } from "../support/fixtures.ts"
import { query } from "../support/spine.ts"
import { brokenNode } from "../support/brokenNode.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("rejectedHeights")

// the steps of one story, in order (a backfill with holes, a look, a rerun still broken, the fix):
// the files are shuffled, these tests are not
describe("chainetl backfill node_p_blocks with blocks it cannot map", { shuffle: false }, () => {
  let emu: RunningEmulator
  let node: Awaited<ReturnType<typeof brokenNode>>
  const broken = new Set(["1", "3"])
  let out: string
  const cli = (args: ReadonlyArray<string>) => runCli([...args, "--out", out], { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: node.url, CHAINETL_RATE_LIMIT: "200" })
  const backfill = ["backfill", "node_p_blocks", "--from", "1", "--to", "5"]
  const heights = async () => (await query(path.join(out, "catalog.duckdb"), "SELECT height::INTEGER AS h FROM node_p_blocks ORDER BY h")).map((r) => r["h"])
  const lastLine = (text: string) => text.trim().split("\n").pop() ?? ""

  beforeAll(async () => {
    emu = await startEmulator()
    node = await brokenNode(emu.nodeUrl, broken)
    out = await tempOut()
  })
  afterAll(async () => {
    await node?.close()
    await emu?.close()
  })

  it("given blocks at heights 1 and 3 that cannot be mapped, when backfilled, then the last line names them and the exit code is 3", async () => {
    const run = await cli(backfill)
    expect(run.code).toBe(3)
    expect(lastLine(run.stderr)).toMatch(/^chainetl: run \S+ finished with records it could not map: node_p_blocks: 2 reject\(s\) written, 2 hole\(s\) left \(1, 3\)\. .*exit code 3\)$/)
    // the summary counts them: 2 rows, 2 rejects, 2 holes
    expect(run.stdout).toMatch(/^node_p_blocks\s+1\s+0\s+1\s+2\s+0\s+2\s+2\s/m)
    expect(await heights()).toEqual([2, 4])
  }, 60_000)

  it("given the holes, when status and a dry run look, then nothing is complete from height 1 and the cell is a retry of 1 and 3", async () => {
    const status = await cli(["status"])
    expect(status.code).toBe(0)
    expect(status.stdout).toMatch(/^node_p_blocks\s+mainnet\s+4\s+-\s+2 \(1, 3\)/m)
    const dry = await cli([...backfill, "--dry-run"])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(/^node_p_blocks\s+network=mainnet .*retry \(2 holes: 1, 3\)\s+1$/m)
  }, 60_000)

  it("given the node still broken, when the same backfill runs again, then it asks for 1 and 3 again, never says complete, and exits 3", async () => {
    const run = await cli(backfill)
    expect(run.code).toBe(3)
    expect(run.stdout).not.toContain("already complete")
    expect(lastLine(run.stderr)).toContain("node_p_blocks: 2 reject(s) written, 2 hole(s) left (1, 3)")
  }, 60_000)

  it("given the node fixed, when the same backfill runs, then it fills 1 and 3, exits 0, and every height is there once; a rerun has nothing to do", async () => {
    broken.clear()
    const run = await cli(backfill)
    expect(run.code).toBe(0)
    expect(run.stderr).not.toContain("could not map")
    expect(await heights()).toEqual([1, 2, 3, 4])
    const again = await cli(backfill)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain("backfill: nothing to do: heights [1, 5) is already complete on disk for node_p_blocks")
    const status = await cli(["status"])
    expect(status.stdout).toMatch(/^node_p_blocks\s+mainnet\s+4\s+4\s*$/m)
  }, 60_000)
})
