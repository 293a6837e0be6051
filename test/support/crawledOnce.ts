/**
 * A file's one crawl as a fixture (`crawled`): made for the first test that asks for it and read
 * by the others, whatever their order. What the files that crawl once had each written again: the
 * emulator (the worker's shared one for a file that only reads, or one of the file's own with its
 * options), the output's folder, a job file, the environment that points the CLI at the emulator,
 * and the `oncePerFile` keying. Each file gives its crawl, its job and what its tests read back.
 * The first test waits for the crawl: its project's testTimeout allows for it (120 s for the
 * integration and system tiers, vitest.config.ts; a describe's timeout does not reach these tests).
 */
import type { RunningEmulator } from "@chainetl/emulator"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { test as base } from "vitest"
import { type EmulatorFixtures, type EmulatorOptions, type InProcessCli, emulatorFixtures, type test } from "./emulatorFixtures.ts"
import { type FolderFixtures, folderFixtures, oncePerFile } from "./fixtures.ts"

/** The CLI's source variables pointed at `emu` (the rate limit well above what a test's crawl asks). */
export const emulatorEnv = (emu: RunningEmulator): Record<string, string> => ({
  CHAINETL_BASE_URL: emu.baseUrl,
  CHAINETL_METRICS_URL: emu.metricsUrl,
  CHAINETL_NODE_URL: emu.nodeUrl,
  CHAINETL_RATE_LIMIT: "200"
})

/** emulatorFixtures.ts's `test` with `crawled: A`. */
type WithCrawled<A> = ReturnType<typeof test.extend<{ readonly crawled: A }>>

/** What a file's crawl is given. */
export interface CrawlBed {
  readonly emu: RunningEmulator
  /** An empty folder for the crawl's output, removed when the file ends. */
  readonly out: string
  /** `emulatorEnv(emu)`. */
  readonly env: Record<string, string>
  /** Writes `job` as a job file in a folder of the file's; its path. */
  readonly jobFile: (job: unknown) => Promise<string>
  /** More folders that last as long as the file. */
  readonly folder: (prefix: string) => Promise<string>
  readonly cli: InProcessCli
}

/**
 * vitest's `test` with the fixtures of emulatorFixtures.ts and `crawled`: what `crawl` returns,
 * made once per file. `emulator`: "shared" for the worker's emulator (the file only reads from
 * it), or the options of an emulator of the file's own (`{}` for the defaults).
 */
export const crawledOnce = <A>(name: string, emulator: "shared" | EmulatorOptions, crawl: (bed: CrawlBed) => Promise<A>) => {
  const once = oncePerFile<A>()
  const made = async (emu: RunningEmulator, folder: (prefix: string) => Promise<string>, cli: InProcessCli) =>
    crawl({
      emu,
      out: await folder(name),
      env: emulatorEnv(emu),
      jobFile: async (job) => {
        const file = path.join(await folder(`${name}-job`), "job.json")
        await fs.writeFile(file, JSON.stringify(job))
        return file
      },
      folder,
      cli
    })
  // a chain of its own from vitest's `test`: `extend` appends to the fixtures of the test it is
  // called on, so `crawled` added to the shared emulatorFixtures `test` stayed there, and a later
  // file in the same worker (isolate: false) resolved every earlier file's `crawled` too, first
  const fresh = base.extend<FolderFixtures>(folderFixtures).extend<EmulatorFixtures>(emulatorFixtures)
  // vitest reads a fixture's dependencies from its destructured first argument: one function each;
  // its fixture types do not resolve over a type parameter, hence `unknown` and the one cast
  const extended =
    emulator === "shared"
      ? fresh.extend<{ readonly crawled: unknown }>({
          crawled: async ({ emulator: shared, folder, cli, task }, use) => use(await once(task.file, () => made(shared, folder, cli)))
        })
      : fresh.extend<{ readonly crawled: unknown }>({
          crawled: async ({ ownEmulator, folder, cli, task }, use) => use(await once(task.file, async () => made(await ownEmulator(emulator), folder, cli)))
        })
  return extended as unknown as WithCrawled<A>
}
