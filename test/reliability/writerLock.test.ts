/**
 * Item 7: one writer per output folder. Two real runs started at once on one folder: one writes,
 * the other refuses naming the holder. A run killed by SIGKILL leaves its lock behind: the next
 * run sees the pid is dead and takes over. A run killed in the middle of such a takeover leaves a
 * claim behind, and killed atomic writes leave `*.tmp-<pid>` files: the next run gets past the
 * claim and removes them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { tempFolders } from "../support/fixtures.ts"
import { campaignJob } from "./campaign.ts"
import { runArgs, runCli, startCli } from "./cli.ts"
import { filesBelow } from "./compare.ts"
import { runInProcess } from "../support/spine.ts"
import { startProxy } from "../support/proxy.ts"

/** The pid of a process that has exited. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
  await new Promise((resolve) => child.once("exit", resolve))
  return child.pid!
}

const lockOf = (out: string) => path.join(out, "_state", "writer.lock")

describe("one writer per output folder", () => {
  const lockDir = tempFolders("lock")
  let emu: RunningEmulator
  let jobFile: string
  let env: Record<string, string>
  beforeAll(async () => {
    // slow pages, so that a run holds the lock for seconds
    emu = await startEmulator({ seed: 1, faults: { latencyMs: 300 } })
    const dir = await lockDir()
    jobFile = path.join(dir, "job.json")
    await fs.writeFile(jobFile, JSON.stringify(campaignJob(emu)))
    env = { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }
  })
  afterAll(async () => {
    await emu?.close()
  })

  it("given two runs started at once on one folder, when both try to write, then one finishes and the other refuses naming the holder's run, pid and the lock", async () => {
    const out = path.join(await lockDir(), "out")
    // the service holds every request until the test opens the gate: whoever has the lock keeps it
    let open = () => {}
    const gate = new Promise<void>((resolve) => (open = resolve))
    const proxy = await startProxy(emu.baseUrl, () => ({ kind: "forward", after: gate }))
    const gated = { ...env, CHAINETL_BASE_URL: proxy.url }
    const args = runArgs({ datasets: ["staking_transactions", "delegators"], job: jobFile, out })
    const a = startCli(args, gated)
    const b = startCli(args, gated)
    const ended = async () => {
      // the first to end is the one refused; then the holder may go on
      const first = await Promise.race([a.exited.then((exit) => ({ cli: a, exit })), b.exited.then((exit) => ({ cli: b, exit }))])
      open()
      const other = first.cli === a ? b : a
      return { winner: { cli: other, exit: await other.exited }, loser: first }
    }
    const { winner, loser } = await ended().finally(async () => {
      open()
      await proxy.close()
    })
    expect([winner.exit.code, loser.exit.code]).toEqual([0, 1])
    const reports = (await filesBelow(path.join(out, "_runs"))).filter((f) => f.endsWith(".json"))
    expect(reports.length).toBe(1)
    const runId = reports[0]!.replace(/\.json$/, "")
    const lock = lockOf(path.resolve(out))
    expect(loser.exit.stderr.trim()).toMatch(
      new RegExp(
        `^chainetl: Locked at ${lock}: output folder is in use by run ${runId} \\(pid ${winner.cli.pid} on ${os.hostname()}, started \\S+\\); ` +
          `that process is alive\\. Wait for it to finish or stop it; if it is gone, delete ${lock}$`
      )
    )
    // the loser wrote nothing: the winner's lock is released and no second report exists
    expect(await filesBelow(path.join(out, "_state")).then((f) => f.filter((x) => x.startsWith("writer.lock")))).toEqual([])
  }, 120_000)

  it("given a run killed by SIGKILL while it holds the lock, when the same command runs again, then it takes the stale lock over, finishes and releases it", async () => {
    const out = path.join(await lockDir(), "out")
    const args = runArgs({ datasets: ["staking_transactions", "delegators"], job: jobFile, out })
    const killed = startCli(args, env)
    // kill once the lock exists (poll: the folder does not exist before the run creates it)
    for (let i = 0; i < 600; i++) {
      if (await fs.stat(lockOf(out)).then(() => true, () => false)) break
      await new Promise((r) => setTimeout(r, 50))
    }
    killed.kill()
    expect((await killed.exited).signal).toBe("SIGKILL")
    const stale = JSON.parse(await fs.readFile(lockOf(out), "utf8")) as { pid: number }
    expect(stale.pid).toBe(killed.pid)

    const next = await runCli(args, env)
    expect(next.code, next.stderr).toBe(0)
    expect((await filesBelow(path.join(out, "_state"))).filter((f) => f.startsWith("writer.lock"))).toEqual([])
  }, 120_000)

  it("given a stale lock whose takeover was itself killed (a claim left) and temporary files of dead runs, when a run starts, then it gets past the claim and removes them all", async () => {
    const out = await lockDir()
    const dead = await deadPid()
    const lock = lockOf(out)
    await fs.mkdir(path.join(out, "_state", "checkpoints", "staking_transactions"), { recursive: true })
    await fs.mkdir(path.join(out, "_runs"), { recursive: true })
    const staleText = JSON.stringify({ pid: dead, hostname: os.hostname(), runId: "20250101T000000Z-dead00", startedAt: "2025-01-01T00:00:00.000Z" })
    await fs.writeFile(lock, staleText)
    // the claim a killed contender left while taking that lock over: named after the lock's content, holding its pid
    const claim = `${lock}.takeover-${createHash("sha256").update(staleText).digest("hex").slice(0, 16)}`
    await fs.writeFile(claim, String(dead))
    const temps = [
      `${lock}.tmp-${dead}-0a1b2c3d`,
      path.join(out, `catalog.duckdb.tmp-${dead}`),
      path.join(out, `catalog.duckdb.tmp-${dead}.wal`),
      path.join(out, `catalog.sql.tmp-${dead}`),
      path.join(out, "_runs", `20250101T000000Z-dead00.json.tmp-${dead}`),
      path.join(out, "_state", "checkpoints", "staking_transactions", `mainnet-0000.json.tmp-${dead}`)
    ]
    for (const t of temps) await fs.writeFile(t, "left by a killed run")

    const report = await runInProcess(out, emu, { datasets: ["staking_transactions"], job: campaignJob(emu) })
    expect(report.status).toBe("succeeded")
    const left = await filesBelow(out)
    expect(left.filter((f) => f.includes("writer.lock") || f.includes(".tmp-"))).toEqual([])
    expect(left.filter((f) => f.startsWith("_runs/"))).toEqual([`_runs/${report.runId}.json`])
  }, 60_000)
})
