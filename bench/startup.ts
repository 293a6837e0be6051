/**
 * Start-up CPU of the CLI: `--version`, `--help`, `status`, `run --dry-run` (a run's cost before its
 * first request) and `catalog` (its cost after its last part) run as a user runs them
 * (`node bin/chainetl.mjs …`, compiled dist/ when built), CPU seconds (user + system) of the child
 * process from /proc/self/stat's waited-for-children counters, interleaved, median of
 * `--startup-repeat N` (default 5). `status` reads `--startup-out DIR`, else a small output the
 * bench writes first with the emulator. Linux only (it says so elsewhere).
 */
import { spawnSync } from "node:child_process"
import { promises as fs, readFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const BIN = fileURLToPath(new URL("../bin/chainetl.mjs", import.meta.url))
const TICK = 100 // USER_HZ: /proc reports clock ticks of 1/100 s

/** CPU seconds used by children this process has waited for (cutime + cstime). */
const childrenCpu = (): number => {
  const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[13]) + Number(fields[14])) / TICK
}

const cpuOf = (args: ReadonlyArray<string>): number => {
  const before = childrenCpu()
  const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } })
  if (r.status !== 0) throw new Error(`chainetl ${args.join(" ")} exited ${r.status}: ${r.stderr.toString()}`)
  return childrenCpu() - before
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

const flag = (args: ReadonlyArray<string>, name: string): string | undefined => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}

/** Newest modification time of the .ts files under `dir`. */
const newestSource = async (dir: string): Promise<number> => {
  let newest = 0
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) newest = Math.max(newest, await newestSource(p))
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, (await fs.stat(p)).mtimeMs)
  }
  return newest
}

/**
 * What bin/chainetl.mjs runs, by its own rule: dist/ when it is newer than every source, else the
 * TypeScript through tsx (seconds more), so a figure is never taken from a stale build unawares.
 */
const runs = async (): Promise<string> => {
  const root = fileURLToPath(new URL("..", import.meta.url))
  const built = await fs.stat(path.join(root, "dist/cli/bin.js")).then((s) => s.mtimeMs, () => undefined)
  if (built === undefined) return "tsx (no dist/: run npm run build)"
  const newest = Math.max(...(await Promise.all(["src", "pipelines", "schemas"].map((d) => newestSource(path.join(root, d))))))
  return newest <= built ? "compiled dist/" : "tsx (dist/ is older than the sources: run npm run build)"
}

export const runStartup = async (args: ReadonlyArray<string>): Promise<void> => {
  if (!readFileSync("/proc/self/stat", "utf8")) return
  const repeat = Number(flag(args, "--startup-repeat") ?? 5)
  let out = flag(args, "--startup-out")
  let temp: string | undefined
  if (out === undefined) {
    temp = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-bench-startup-"))
    out = temp
    const r = spawnSync(process.execPath, [BIN, "run", "--emulator", "--quiet", "--out", out, "primary_blocks", "staking_transactions", "delegators", "evm_blocks", "token_transfers", "chain_metrics", "avg_tps"], { stdio: "inherit" })
    if (r.status !== 0) throw new Error("could not write the output status reads")
  }
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["--version", ["--version"]],
    ["--help", ["--help"]],
    ["run --help", ["run", "--help"]],
    ["status", ["status", "--out", out]],
    // what a run costs before its first request: the modules it loads, its checks and its plan
    ["run --dry-run", ["run", "--dry-run", "--quiet", "--out", out, "staking_transactions"]],
    // what it costs after its last part: the catalog (only of the bench's own output: it is rewritten)
    ...(temp === undefined ? [] : [["catalog", ["catalog", "--out", out]] as const])
  ]
  const samples = new Map<string, Array<number>>(cases.map(([name]) => [name, []]))
  for (let i = 0; i < repeat; i++) for (const [name, a] of cases) samples.get(name)?.push(cpuOf(a))
  const built = await runs()
  console.log(`\nstart-up CPU (user + system), median of ${repeat}, interleaved; ${built}`)
  console.log("command           CPU s")
  for (const [name] of cases) console.log(`${name.padEnd(16)}  ${median(samples.get(name) ?? []).toFixed(2)}`)
  if (temp !== undefined) await fs.rm(temp, { recursive: true, force: true })
}
