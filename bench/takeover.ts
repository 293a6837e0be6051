/**
 * The takeover time of a distributed run with the default settings (lease 30 s, sweep 5 s, poll
 * 1 s): its own PostgreSQL and emulator (C-chain blocks at scale 20, pages slowed to 1 s by a
 * proxy), two `chainetl worker` processes and a `backfill --distributed` of two 12-hour windows;
 * the worker holding a slice with a part committed is SIGKILLed, and the time until another
 * worker holds that slice is printed. `node --import tsx bench/takeover.ts` (about a minute);
 * docs/scale-out.md#distributed-slices quotes it. Run `npm run build` first.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { startEmulator } from "@chainetl/emulator"
import { startProxy } from "../test/support/proxy.ts"
import { startPostgres } from "../test/support/postgres.ts"

const root = fileURLToPath(new URL("../", import.meta.url))
const server = await startPostgres()
const emu = await startEmulator({ seed: 1, scale: 20 })
const proxy = await startProxy(emu.baseUrl, () => ({ kind: "forward", delayMs: 1000 }))
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-takeover-"))
const children: ChildProcess[] = []
const client = new pg.Client({ connectionString: server.url })
try {
  const out = path.join(dir, "out")
  const job = path.join(dir, "job.json")
  await fs.writeFile(job, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["c-chain"] }))
  const env = { ...process.env, CHAINETL_BASE_URL: proxy.url, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_STATE_URL: server.url }
  const cli = (args: ReadonlyArray<string>) => {
    const c = spawn(process.execPath, ["bin/chainetl.mjs", ...args], { env, cwd: root, stdio: ["ignore", "ignore", "inherit"] })
    children.push(c)
    return c
  }
  const workers = [cli(["worker", "--out", out, "--concurrency", "1"]), cli(["worker", "--out", out, "--concurrency", "1"])]
  const enqueuer = cli(["backfill", "primary_blocks", "--from", "2025-01-01", "--to", "2025-01-02", "--window", "12h", "--part-rows", "20", "--job", job, "--out", out, "--distributed", "--quiet"])
  await client.connect()
  const rows = (text: string, values: ReadonlyArray<unknown> = []) =>
    client.query<{ pid: number; slice: string }>(text, [...values]).then((r) => r.rows, () => [])
  let victim: { pid: number; slice: string } | undefined
  while (victim === undefined) {
    await new Promise((r) => setTimeout(r, 200))
    ;[victim] = await rows(
      `SELECT h.pid, h.slice FROM chainetl_slice_holders h JOIN chainetl_checkpoints k USING (output_id, dataset, slice)
       WHERE (k.state->>'rowsCommitted')::int > 0 AND k.state->>'status' = 'running'`
    )
  }
  workers.find((w) => w.pid === victim.pid)?.kill("SIGKILL")
  const killedAt = Date.now()
  for (;;) {
    await new Promise((r) => setTimeout(r, 100))
    const [holder] = await rows("SELECT pid FROM chainetl_slice_holders WHERE slice = $1", [victim.slice])
    if (holder !== undefined && holder.pid !== victim.pid) break
  }
  console.log(`takeover with the default settings: ${((Date.now() - killedAt) / 1000).toFixed(1)} s after SIGKILL`)
  const code = await new Promise((r) => enqueuer.on("close", r))
  console.log(`backfill --distributed exited ${String(code)}`)
} finally {
  for (const c of children) c.kill("SIGKILL")
  await client.end().catch(() => undefined)
  await proxy.close()
  await emu.close()
  await server.stop()
  await fs.rm(dir, { recursive: true, force: true })
}
process.exit(0)
