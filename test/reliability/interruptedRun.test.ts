/**
 * Issue 41 item 3: a run whose process died is closed as `interrupted` by the next run that holds
 * the output, instead of staying `running` forever in `_runs/`, `status` and the HTML report.
 * Real processes: a local run SIGKILLed once its report is written, then the same command again.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { runArgs, runCli, startCli } from "./cli.ts"

const reportsIn = async (out: string): Promise<RunReport[]> => {
  const dir = path.join(out, "_runs")
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"))
  return Promise.all(names.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as RunReport))
}

describe("a run whose process died", () => {
  const interruptedDir = tempFolders("interrupted")
  let emu: RunningEmulator
  let jobFile: string
  let env: Record<string, string>
  beforeAll(async () => {
    // slow pages, so that the run is still crawling when it is killed
    emu = await startEmulator({ seed: 1, faults: { latencyMs: 300 } })
    const dir = await interruptedDir()
    jobFile = path.join(dir, "job.json")
    await fs.writeFile(jobFile, JSON.stringify(campaignJob(emu)))
    env = { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }
  })
  afterAll(async () => {
    await emu?.close()
  })

  it("given a local run SIGKILLed after writing its report, when the same command runs again, then the killed run's report, status and the HTML report say interrupted, naming the run that found it", async () => {
    const out = path.join(await interruptedDir(), "out")
    const args = runArgs({ datasets: ["staking_transactions", "delegators"], job: jobFile, out })
    const killed = startCli(args, env)
    let begun: RunReport | undefined
    for (let i = 0; i < 1200 && begun === undefined; i++) {
      begun = (await reportsIn(out).catch(() => [])).find((r) => r.status === "running")
      if (begun === undefined) await new Promise((r) => setTimeout(r, 50))
    }
    killed.kill()
    expect((await killed.exited).signal).toBe("SIGKILL")
    expect(begun?.status).toBe("running")

    const next = await runCli(args, env)
    expect(next.code, next.stderr).toBe(0)
    const reports = await reportsIn(out)
    expect(reports.length).toBe(2)
    const closed = reports.find((r) => r.runId === begun!.runId)!
    const rerun = reports.find((r) => r.runId !== begun!.runId)!
    expect(rerun.status).toBe("succeeded")
    expect(closed).toMatchObject({ status: "interrupted", finishedAt: null, startedAt: begun!.startedAt, planned: begun!.planned })
    expect(closed.error).toBe(`interrupted: its process ended before the run finished (found by run ${rerun.runId})`)

    const status = await runCli(["status", "--out", out, "--json"], env)
    expect(status.code, status.stderr).toBe(0)
    const runs = (JSON.parse(status.stdout) as { runs: Array<{ runId: string; status: string }> }).runs
    expect(runs.find((r) => r.runId === begun!.runId)?.status).toBe("interrupted")

    const html = await runCli(["report", "--out", out], env)
    expect(html.code, html.stderr).toBe(0)
    const page = await fs.readFile(path.join(out, "report.html"), "utf8")
    const row = new RegExp(`<tr data-run="${begun!.runId}">.*?</tr>`, "s").exec(page)?.[0]
    expect(row).toContain(`<td class="bad" data-figure="status" data-value="interrupted">interrupted</td>`)
  }, 180_000)
})
