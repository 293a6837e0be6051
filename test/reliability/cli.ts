/**
 * The `chainetl` binary as a real child process: what the reliability campaigns start, kill and
 * restart. Nothing here reaches into the process: it is observed through its stdout/stderr, its
 * exit status and the files it writes.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

export const BIN = fileURLToPath(new URL("../../bin/chainetl.mjs", import.meta.url))
export const REPO = fileURLToPath(new URL("../../", import.meta.url))

export interface CliExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

export interface CliProcess {
  readonly child: ChildProcess
  readonly pid: number
  /** Called with every complete stdout line as it arrives. */
  onLine(listener: (line: string) => void): void
  readonly exited: Promise<CliExit>
  /** What it has written to stderr so far (for a test's account of a failure). */
  stderrSoFar(): string
  /** SIGKILL, as a crash or `kill -9` would: no cleanup runs in the child. */
  kill(): void
}

/** The parent's environment without any CHAINETL_* variable, plus `extra`. */
export const cliEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("CHAINETL_")) env[k] = v
  return { ...env, ...extra }
}

export const startCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): CliProcess => {
  const started = Date.now()
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: cliEnv(env), stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  let partial = ""
  const listeners: Array<(line: string) => void> = []
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
    const lines = (partial + chunk).split("\n")
    partial = lines.pop() ?? ""
    for (const line of lines) for (const l of listeners) l(line)
  })
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<CliExit>((resolve, reject) => {
    child.once("error", reject)
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }))
  })
  return {
    child,
    pid: child.pid ?? -1,
    onLine: (listener) => void listeners.push(listener),
    exited,
    stderrSoFar: () => stderr,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    }
  }
}

export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<CliExit> => startCli(args, env).exited

/** `run` arguments for the datasets, job file and output folder given. */
export const runArgs = (o: {
  readonly datasets: ReadonlyArray<string>
  readonly job: string
  readonly out: string
  readonly partRows?: number
  /** Start the emulator in the process with this seed (`--emulator`): the run's as-of is its clock. */
  readonly emulatorSeed?: number
  readonly concurrency?: number
}): string[] => [
  "run",
  ...o.datasets,
  "--job",
  o.job,
  "--out",
  o.out,
  ...(o.partRows === undefined ? [] : ["--part-rows", String(o.partRows)]),
  ...(o.concurrency === undefined ? [] : ["--concurrency", String(o.concurrency)]),
  ...(o.emulatorSeed === undefined ? [] : ["--emulator", "--emulator-seed", String(o.emulatorSeed)])
]
