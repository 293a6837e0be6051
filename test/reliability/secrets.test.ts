/**
 * Item 6: the API key goes to the chain-data service and nowhere else. A real `chainetl run` with
 * CHAINETL_API_KEY against an emulator that requires that key, behind a careless proxy that echoes
 * the key back in error bodies (one transient, retried; one that fails a slice for good). Then
 * every log line (debug level), `chainetl status`, the run report, checkpoints, the catalog and
 * every Parquet file are searched for the key, byte for byte: zero hits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { tempFolders } from "../support/fixtures.ts"
import { campaignJob } from "./campaign.ts"
import { type CliExit, runArgs, runCli } from "./cli.ts"
import { filesBelow } from "./compare.ts"
import { type Proxy, forward, startProxy } from "../support/proxy.ts"

const KEY = "ck-5ecret-Th4t-Must-N0t-Leak-7f3a9d"

describe("the API key in logs, reports, checkpoints, catalog and Parquet", () => {
  const secretsDir = tempFolders("secrets")
  let emu: RunningEmulator
  let proxy: Proxy
  let out: string
  let run: CliExit
  let status: CliExit
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1, auth: { mode: "required", validKeys: [KEY] } })
    let stakingSeen = 0
    proxy = await startProxy(emu.baseUrl, (req) => {
      const echo = (status: number, error: string) => ({
        kind: "answer" as const,
        status,
        body: JSON.stringify({ message: `request with key ${String(req.headers["x-service-api-key"])} refused`, statusCode: status, error })
      })
      // the first staking request: a 503 that quotes the key (retried, then fine)
      if (req.url.pathname.endsWith("transactions:listStaking") && stakingSeen++ === 0) return echo(503, "Service Unavailable")
      // delegators' second page: a 400 that quotes the key, for good (the slice fails, its error is stored;
      // a 401 would stop the whole run: test/reliability/auth.test.ts)
      if (req.url.pathname === "/v1/networks/mainnet/delegators" && req.url.searchParams.has("pageToken")) return echo(400, "Bad Request")
      return forward
    })
    const dir = await secretsDir()
    const job = path.join(dir, "job.json")
    await fs.writeFile(job, JSON.stringify(campaignJob(emu)))
    out = path.join(dir, "out")
    const env = {
      CHAINETL_BASE_URL: proxy.url,
      CHAINETL_METRICS_URL: emu.metricsUrl,
      CHAINETL_NODE_URL: emu.nodeUrl,
      CHAINETL_API_KEY: KEY,
      CHAINETL_LOG_LEVEL: "debug",
      CHAINETL_MAX_RETRIES: "2"
    }
    run = await runCli(runArgs({ datasets: ["staking_transactions", "delegators", "utxos"], job, out, partRows: 20 }), env)
    status = await runCli(["status", "--out", out], env)
  }, 120_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given the run, when its requests are looked at, then every chain-data request carried the key and two answers quoted it back", () => {
    const data = proxy.hits.filter((h) => h.url.pathname.startsWith("/v1/"))
    expect(data.length).toBeGreaterThan(4)
    expect(data.every((h) => h.headers["x-service-api-key"] === KEY)).toBe(true)
    // the run went through the echoing failures: one slice failed on them, the rest is written
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/1 slice\(s\) failed: delegators\//)
    expect(run.stdout).toMatch(/retrying GET data \/v1\/networks\/mainnet\/blockchains\/p-chain\/transactions:listStaking/)
  })

  it("given every log line of the run and of `chainetl status`, when searched for the key, then there is no hit", () => {
    const lines = [...run.stdout.split("\n"), ...run.stderr.split("\n"), ...status.stdout.split("\n"), ...status.stderr.split("\n")]
    expect(lines.length).toBeGreaterThan(20)
    expect(lines.filter((l) => l.includes(KEY))).toEqual([])
    // what the services said is kept, with the key cut out
    expect(status.stdout).toContain("request with key <redacted> refused")
  })

  it("given every file of the output (report, checkpoints, catalog, Parquet), when its bytes are searched for the key, then there is no hit", async () => {
    const files = await filesBelow(out)
    expect(files.filter((f) => f.startsWith("_runs/")).length).toBe(1)
    const slices = (JSON.parse(await fs.readFile(path.join(out, files.find((f) => f.startsWith("_runs/"))!), "utf8")) as { slices: unknown[] }).slices
    expect(files.filter((f) => f.startsWith("_state/checkpoints/")).length).toBe(slices.length)
    expect(slices.length).toBeGreaterThanOrEqual(3)
    expect(files).toContain("catalog.duckdb")
    expect(files).toContain("catalog.sql")
    expect(files.filter((f) => f.endsWith(".parquet")).length).toBeGreaterThan(3)
    const needle = Buffer.from(KEY)
    const hits: string[] = []
    for (const f of files) if ((await fs.readFile(path.join(out, f))).includes(needle)) hits.push(f)
    expect(hits).toEqual([])
    const report = await fs.readFile(path.join(out, files.find((f) => f.startsWith("_runs/"))!), "utf8")
    expect(report).toContain("request with key <redacted> refused")
  })
})
