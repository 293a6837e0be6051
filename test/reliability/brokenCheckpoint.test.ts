/**
 * Issue 14 item 7: a broken checkpoint is that slice's problem. After a clean run, four
 * checkpoints are tampered with: delegators' cut in half (truncated JSON), utxos' with a count
 * that is text (ill-typed), one staking_transactions window's replaced by bytes that are not JSON
 * (garbled), token_transfers' left mid-listing with a cursor its listing cannot read (a block
 * that is not a height: src/crawl/Cursor.ts). The next run fails exactly those (the windowed dataset whole: which range its broken
 * window held is unknown), names each file and the fix, overwrites none of them, and runs
 * chain_metrics (its open month is fetched again each run). Deleting the three files, as the
 * errors say, then refetches those slices (in bigger parts, so old part files would not simply be
 * overwritten by name): the output equals a clean crawl, nothing lost or doubled. Through the CLI, a
 * garbled window's file and fix are on the run's last line (cron's log), as a slice's are.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../src/Job.ts"
import type { RunReport } from "../../src/Runner.ts"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { compareCatalogs, filesBelow } from "./compare.ts"
import { runCli } from "./cli.ts"
import { runInProcess } from "../support/spine.ts"

const DATASETS = ["staking_transactions", "delegators", "utxos", "token_transfers", "chain_metrics"]

describe("garbled, truncated and ill-typed checkpoints, and a cursor its listing cannot read", () => {
  const ckptDir = tempFolders("ckpt")
  let emu: RunningEmulator
  let job: Partial<Job>
  let out: string
  let reference: string
  let broken: RunReport
  let mended: RunReport
  const files: Record<"truncated" | "illTyped" | "garbled" | "badCursor", string> = { truncated: "", illTyped: "", garbled: "", badCursor: "" }
  const tampered = new Map<string, string>()
  const afterBrokenRun = new Map<string, string>()
  let markersAfterBroken: string[] = []
  let markersAfterMended: string[] = []
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    job = campaignJob(emu, 3)
    out = await ckptDir()
    reference = await ckptDir()
    expect((await runInProcess(reference, emu, { datasets: DATASETS, job })).status).toBe("succeeded")
    expect((await runInProcess(out, emu, { datasets: DATASETS, job })).status).toBe("succeeded")
    const root = path.join(out, "_state", "checkpoints")
    const of = async (dataset: string) => (await fs.readdir(path.join(root, dataset))).filter((f) => f.endsWith(".json")).sort().map((f) => path.join(root, dataset, f))
    files.truncated = (await of("delegators"))[0]!
    files.illTyped = (await of("utxos"))[0]!
    files.garbled = (await of("staking_transactions"))[0]!
    files.badCursor = (await of("token_transfers"))[0]!
    const text = await fs.readFile(files.truncated, "utf8")
    tampered.set(files.truncated, text.slice(0, Math.floor(text.length / 2)))
    tampered.set(files.illTyped, JSON.stringify({ ...JSON.parse(await fs.readFile(files.illTyped, "utf8")), rowsCommitted: "many" }))
    tampered.set(files.garbled, "\u0000\u00ff{{ not json")
    const transfers = JSON.parse(await fs.readFile(files.badCursor, "utf8")) as Record<string, unknown>
    tampered.set(files.badCursor, JSON.stringify({ ...transfers, status: "running", cursor: BAD_CURSOR, cursorIssuedAt: null }))
    for (const [f, t] of tampered) await fs.writeFile(f, t)
    broken = await runInProcess(out, emu, { datasets: DATASETS, job })
    for (const f of tampered.keys()) afterBrokenRun.set(f, await fs.readFile(f, "utf8"))
    markersAfterBroken = (await filesBelow(root)).filter((f) => f.endsWith(".refetch")).sort()
    for (const f of tampered.keys()) await fs.rm(f)
    // parts of 500 rows, not 20: old parts left in place would not all be overwritten by name
    mended = await runInProcess(out, emu, { datasets: DATASETS, job, partRows: 500 })
    markersAfterMended = (await filesBelow(root)).filter((f) => f.endsWith(".refetch"))
  }, 240_000)
  afterAll(async () => {
    await emu?.close()
  })

  it("given four broken checkpoints, when the next run meets them, then exactly those fail, each naming its file and the fix, and chain_metrics runs", () => {
    expect(broken.status).toBe("failed")
    const failed = broken.slices.filter((s) => s.status === "failed")
    const fix = "Fix: delete it to refetch that slice (the next run removes the slice's parts and fetches it again)"
    expect(failed.map((s) => [s.dataset, s.error])).toEqual([
      ["staking_transactions", expect.stringMatching(new RegExp(`^staking_transactions not planned: checkpoint ${files.garbled} is broken \\(not valid JSON: .*\\)\\. ${fix.replace(/[().]/g, "\\$&")}$`))],
      ["delegators", `checkpoint ${files.truncated} is broken (not valid JSON: ${errorOf(tampered.get(files.truncated)!)}). ${fix}`],
      ["utxos", `checkpoint ${files.illTyped} is broken ("rowsCommitted" is "many", expected a non-negative integer). ${fix}`],
      ["token_transfers", `checkpoint ${files.badCursor} is broken ("cursor" is ${JSON.stringify(BAD_CURSOR)}, which its listing cannot read: from: expected an integer as decimal text). ${fix}`]
    ])
    // the slice with the unreadable cursor asked nothing of the service
    expect(broken.slices.find((s) => s.dataset === "token_transfers")?.requests).toBe(0)
    const metrics = broken.slices.filter((s) => s.dataset === "chain_metrics")
    expect(metrics.length).toBeGreaterThan(0)
    // its open month runs again, settled ones are final
    expect(metrics.every((s) => s.status === "done" || s.status === "skipped")).toBe(true)
    expect(metrics.filter((s) => s.status === "done").length).toBeGreaterThan(0)
    expect(metrics.reduce((n, s) => n + s.requests, 0)).toBeGreaterThan(0)
  })

  it("given the failing run, when it ends, then the broken files are as they were and a marker stands beside each", () => {
    for (const [f, t] of tampered) expect(afterBrokenRun.get(f)).toBe(t)
    const rel = (f: string) => path.relative(path.join(out, "_state", "checkpoints"), f).replace(/\.json$/, ".refetch")
    expect(markersAfterBroken).toEqual([files.truncated, files.illTyped, files.garbled, files.badCursor].map(rel).sort())
  })

  it("given a garbled window checkpoint, when the CLI runs its dataset, then the run's last line names the broken file and the fix, not only its report", async () => {
    const copy = await ckptDir()
    await fs.cp(reference, copy, { recursive: true })
    const dir = path.join(copy, "_state", "checkpoints", "staking_transactions")
    const window = path.join(dir, (await fs.readdir(dir)).filter((f) => f.endsWith(".json")).sort()[0]!)
    const garbled = "\u0000\u00ff{{ not json"
    await fs.writeFile(window, garbled)
    const jobFile = path.join(copy, "job.json")
    await fs.writeFile(jobFile, JSON.stringify(job))
    const run = await runCli(["run", "staking_transactions", "--job", jobFile, "--out", copy], { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl })
    expect(run.code).toBe(1)
    const runId = (await fs.readdir(path.join(copy, "_runs"))).map((f) => f.replace(/\.json$/, "")).sort().at(-1)!
    const slice = path.basename(window, ".json")
    expect(run.stderr.trim().split("\n").at(-1)).toBe(
      `chainetl: 1 slice(s) failed: staking_transactions/${slice}. checkpoint ${window} is broken (not valid JSON: ${errorOf(garbled)}). ` +
        "Fix: delete it to refetch that slice (the next run removes the slice's parts and fetches it again). " +
        `Details in ${copy}/_runs/${runId}.json; once fixed, rerun the same command.`
    )
    // the file is left as it was for whoever looks at it
    expect(await fs.readFile(window, "utf8")).toBe(garbled)
  }, 120_000)

  it("given the four files deleted as the errors say, when the next run ends, then it succeeds and the output equals a clean crawl, nothing lost or doubled", async () => {
    expect(mended.status).toBe("succeeded")
    expect(markersAfterMended).toEqual([])
    const diffs = await compareCatalogs(reference, out)
    expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    for (const name of DATASETS) expect(diffs.find((d) => d.dataset === name)!.rowsA).toBeGreaterThan(0)
  })
})

/** token_transfers' cursor ({from, latest}) with a first block that is not a height. */
const BAD_CURSOR = '{"from":"ten","latest":"9000"}'

const errorOf = (text: string): string => {
  try {
    JSON.parse(text)
    return ""
  } catch (e) {
    return (e as Error).message
  }
}
