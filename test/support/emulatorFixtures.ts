/**
 * Fixtures of the integration tier, over fixtures.ts's folders (vitest's `test.extend`):
 *  - `emulator`: one emulator per worker process (seed 11, the default options), started for the
 *    first file that asks and closed when the worker ends. Only for files that read from it: its
 *    clock stays where it started (a file that moves it, sets faults or counts the requests it
 *    served starts its own);
 *  - `ownEmulator`: starts an emulator of the file's own (its options: a seed, no rate limits,
 *    faults), for a file that moves its clock or counts what it served; all are closed when the
 *    file ends;
 *  - `cli`: the CLI's `main` run in this process, its output captured and the environment it was
 *    given put back afterwards (files after this one share the process).
 */
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { vi } from "vitest"
import { main } from "../../src/cli/main.ts"
import { madeIn, test as withFolders } from "./fixtures.ts"

/** The seed of the shared emulator. */
export const SHARED_SEED = 11

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `chainetl …argv` in this process; `env`'s variables are set for the run, an undefined one unset. */
export type InProcessCli = (argv: ReadonlyArray<string>, env?: Readonly<Record<string, string | undefined>>) => Promise<CliRun>

const runMain: InProcessCli = async (argv, env = {}) => {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
  const set = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
  set(env)
  let stdout = ""
  let stderr = ""
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true))
  // console.log goes through a stream vitest's console interception holds, not process.stdout
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void (stdout += `${parts.join(" ")}\n`))
  try {
    return { code: await main(["node", "chainetl", ...argv]), stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
    log.mockRestore()
    set(saved)
  }
}

/** The options of `startEmulator`. */
export type EmulatorOptions = NonNullable<Parameters<typeof startEmulator>[0]>

/** An emulator's options with its rate limits off, for files that crawl a lot and count requests. */
export const unlimited = (seed: number): EmulatorOptions => ({ seed, rateLimit: { keylessPerSecond: 0, keyedPerSecond: 0, metricsPerSecond: 0 } })

export interface EmulatorFixtures {
  readonly emulator: RunningEmulator
  readonly ownEmulator: (options?: EmulatorOptions) => Promise<RunningEmulator>
  readonly cli: InProcessCli
}

export const emulatorFixtures: Parameters<typeof withFolders.extend<EmulatorFixtures>>[0] = {
  emulator: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const emu = await startEmulator({ seed: SHARED_SEED })
      await use(emu)
      await emu.close()
    },
    { scope: "worker" }
  ],
  ownEmulator: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => madeIn(startEmulator, (emu) => emu.close())(use),
    { scope: "file" }
  ],
  // eslint-disable-next-line no-empty-pattern
  cli: async ({}, use) => use(runMain)
}

export const test = withFolders.extend<EmulatorFixtures>(emulatorFixtures)

export const it = test
