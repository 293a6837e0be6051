/**
 * Fixtures every tier may use (vitest's `test.extend`): temporary folders that are removed when
 * their scope ends, so no file leaves its outputs behind in the shared temporary folder.
 *  - `out`: an empty folder for one test;
 *  - `folder`: makes folders for the whole file (a crawl made once and read by several tests).
 * Loads nothing that serves or spawns: a unit file may use it (test/support/tiers.ts).
 * The emulator's fixtures extend this `test` in emulatorFixtures.ts.
 */
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { test as base } from "vitest"

/** A new empty folder under the system's temporary folder; its name starts with `chainetl-<prefix>-`. */
const makeFolder = (prefix: string) => fs.mkdtemp(path.join(os.tmpdir(), `chainetl-${prefix}-`))

export interface FolderFixtures {
  /** An empty folder of this test, removed after it. */
  readonly out: string
  /** Makes folders that last as long as the file (removed after its last test). */
  readonly folder: (prefix: string) => Promise<string>
}

export const test = base.extend<FolderFixtures>({
  folder: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const made: string[] = []
      await use(async (prefix) => {
        const dir = await makeFolder(prefix)
        made.push(dir)
        return dir
      })
      await Promise.all(made.map((dir) => fs.rm(dir, { recursive: true, force: true })))
    },
    { scope: "file" }
  ],
  out: async ({ task }, use) => {
    const dir = await makeFolder(task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 24) || "out")
    await use(dir)
    await fs.rm(dir, { recursive: true, force: true })
  }
})

export const it = test

/**
 * A value made once per test file, for a test-scoped fixture to hand to each test of the file (a
 * crawl several tests read). vitest 3.2's file-scoped fixtures do not see worker-scoped ones (the
 * shared emulator), so a file's one crawl is a test fixture over this, keyed by the file's task:
 * `crawled: async ({ emulator, folder, task }, use) => use(await crawl(task.file, () => …))`.
 */
export const oncePerFile = <A>() => {
  const made = new WeakMap<object, Promise<A>>()
  return (file: object, make: () => Promise<A>): Promise<A> => {
    let value = made.get(file)
    if (value === undefined) made.set(file, (value = make()))
    return value
  }
}
