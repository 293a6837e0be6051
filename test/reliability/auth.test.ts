/**
 * Issue 14 item 5: 401 and 403 stop the run early and say what to do. A real `chainetl backfill`
 * of 48 hourly windows (48 slices) against an emulator that requires an API key, once with a key
 * it does not know (401) and once with a key it knows but does not entitle (403): a handful of
 * requests reach the service, not one per slice; the slices not started are reported as not run;
 * the exit code is 1; the message is short and names the service, CHAINETL_API_KEY and
 * CHAINETL_API_KEY_HEADER, and never the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type CliExit, runCli } from "./cli.ts"
import { type Proxy, forward, startProxy } from "../support/proxy.ts"

const GOOD = "ck-good-0123456789"
const WRONG = "ck-wrong-Th4t-Must-N0t-Leak"
const LIMITED = "ck-limited-N0t-Ent1tled"
const FROM = "2024-06-01"
const TO = "2024-06-03"

describe.each([
  { status: 401, key: WRONG, said: "Unauthorized: invalid API key" },
  { status: 403, key: LIMITED, said: "Forbidden: this API key does not have access to this resource" }
])("a backfill of 48 windows whose key the service answers with $status", ({ status, key, said }) => {
  const authDir = tempFolders(`auth-${status}`)
  let emu: RunningEmulator
  let proxy: Proxy
  let out: string
  let exit: CliExit
  let report: RunReport
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1, auth: { mode: "required", validKeys: [GOOD, LIMITED], unprivilegedKeys: [LIMITED] } })
    proxy = await startProxy(emu.baseUrl, () => forward)
    const dir = await authDir()
    const job = path.join(dir, "job.json")
    await fs.writeFile(job, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["p-chain"] }))
    out = path.join(dir, "out")
    exit = await runCli(["backfill", "primary_blocks", "--from", FROM, "--to", TO, "--window", "1h", "--concurrency", "4", "--job", job, "--out", out], {
      CHAINETL_BASE_URL: proxy.url,
      CHAINETL_METRICS_URL: emu.metricsUrl,
      CHAINETL_NODE_URL: emu.nodeUrl,
      CHAINETL_API_KEY: key
    })
    const runs = await fs.readdir(path.join(out, "_runs"))
    report = JSON.parse(await fs.readFile(path.join(out, "_runs", runs[0]!), "utf8")) as RunReport
  }, 120_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given 48 slices, when the service refuses the key, then at most 4 requests (the slices in flight) reach it and the other slices are not run", () => {
    expect(report.planned).toBe(48)
    expect(proxy.hits.length).toBeGreaterThanOrEqual(1)
    expect(proxy.hits.length).toBeLessThanOrEqual(4)
    const failed = report.slices.filter((s) => s.status === "failed")
    const notRun = report.slices.filter((s) => s.status === "not_run")
    expect(failed.length).toBeGreaterThanOrEqual(1)
    expect(failed.length).toBeLessThanOrEqual(4)
    expect(failed.length + notRun.length).toBe(48)
    expect(notRun.every((s) => s.requests === 0)).toBe(true)
    expect(report.status).toBe("failed")
    expect(report.error).toMatch(new RegExp(`^stopped: Auth on GET data .* \\(HTTP ${status}\\): .*; ${notRun.length} slice\\(s\\) not run$`))
  })

  it("given the refusal, when the command ends, then it exits 1 with a short message naming the service, what it said, CHAINETL_API_KEY and CHAINETL_API_KEY_HEADER", () => {
    expect(exit.code).toBe(1)
    const message = exit.stderr.trim().split("\n").at(-1)!
    expect(message).toContain(`the chain-data service at ${proxy.url} refused the request (${said})`)
    expect(message).toContain("Set CHAINETL_API_KEY to a key this service accepts (and CHAINETL_API_KEY_HEADER if it expects another header than x-service-api-key)")
    expect(message).toMatch(/slice\(s\) not run\. Details in .*_runs.*\.json; rerun the same command to resume them\.$/)
    expect(message.length).toBeLessThan(1_500)
    expect(exit.stderr.length).toBeLessThan(8_000)
  })

  it("given the refusal, when stdout, stderr and the report are searched for the key, then there is no hit", async () => {
    const runs = await fs.readdir(path.join(out, "_runs"))
    const text = exit.stdout + exit.stderr + (await fs.readFile(path.join(out, "_runs", runs[0]!), "utf8"))
    expect(text.includes(key)).toBe(false)
  })
})
