/**
 * Runs one method as a child process and measures it: wall time (spawn to exit), CPU (user + sys)
 * and peak RSS of the process tree. With GNU time (`/usr/bin/time -f`) these are the rusage the
 * kernel reports for the child and every descendant it waited for (DuckDB's and libuv's threads
 * included, and tsx's esbuild helper); without it, every Node process of the tree appends its own
 * `process.resourceUsage()` at exit (usage-hook.mjs) and the figures are summed (RSS: the max).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

export interface Measured {
  readonly wallSeconds: number
  readonly cpuSeconds: number
  readonly userSeconds: number
  readonly systemSeconds: number
  readonly peakRssBytes: number
  readonly exitCode: number
  /** The end of stderr, to say why a run failed. */
  readonly stderrTail: string
}

const GNU_TIME = "/usr/bin/time"
export const cpuSource = fs.existsSync(GNU_TIME) ? "GNU time (rusage of the child and its waited-for descendants)" : "process.resourceUsage() of each Node process at exit (usage-hook.mjs)"
const HOOK = fileURLToPath(new URL("./usage-hook.mjs", import.meta.url))

// a bench interrupted by Ctrl-C or a kill takes the run it was measuring down with it
const running = new Set<ChildProcess>()
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    // each run is its own process group: GNU time, the method and whatever it started
    for (const child of running) if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    process.exit(130)
  })
}

export const measureChild = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string>>, cwd: string): Promise<Measured> => {
  const usageFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-bench-usage-")), "usage")
  const gnu = fs.existsSync(GNU_TIME)
  const [command, ...args] = gnu ? [GNU_TIME, "-f", "%U %S %M", "-o", usageFile, ...argv] : argv
  const childEnv = gnu
    ? { ...process.env, ...env }
    : { ...process.env, ...env, BENCH_USAGE_FILE: usageFile, NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --import=${HOOK}`.trim() }
  const t0 = performance.now()
  const child = spawn(command!, args, { cwd, env: childEnv, stdio: ["ignore", "ignore", "pipe"], detached: true })
  running.add(child)
  let stderr = ""
  child.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000)
  })
  const exitCode = await new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)))
  running.delete(child)
  const wallSeconds = (performance.now() - t0) / 1000
  const text = fs.readFileSync(usageFile, "utf8")
  fs.rmSync(path.dirname(usageFile), { recursive: true, force: true })
  let user = 0
  let system = 0
  let maxRssKb = 0
  if (gnu) {
    // GNU time writes "Command exited with non-zero status N" first when it failed
    const [u, s, m] = text.trim().split("\n").at(-1)!.split(" ").map(Number)
    user = u!
    system = s!
    maxRssKb = m!
  } else {
    for (const line of text.trim().split("\n").filter((l) => l !== "")) {
      const r = JSON.parse(line) as { user: number; system: number; maxRssKb: number }
      user += r.user
      system += r.system
      maxRssKb = Math.max(maxRssKb, r.maxRssKb)
    }
  }
  return { wallSeconds, cpuSeconds: user + system, userSeconds: user, systemSeconds: system, peakRssBytes: maxRssKb * 1024, exitCode, stderrTail: stderr.trim() }
}
