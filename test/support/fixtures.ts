/**
 * Fixtures every tier may use (vitest's `test.extend`): temporary folders that are removed when
 * their scope ends, so no file leaves its outputs behind in the shared temporary folder.
 *  - `out`: an empty folder for one test;
 *  - `folder`: makes folders for the whole file (a crawl made once and read by several tests);
 *  - `tempFolders(prefix)`, not a fixture: folders for a file's `beforeAll` hooks too, which see no
 *    fixture (called at the top of the file or of a describe).
 * Loads nothing that serves or spawns: a unit file may use it (test/support/tiers.ts).
 * The emulator's fixtures extend this `test` in emulatorFixtures.ts.
 */
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, test as base } from "vitest"

/** A new empty folder under the system's temporary folder; its name starts with `chainetl-<prefix>-`. */
const makeFolder = (prefix: string) => fs.mkdtemp(path.join(os.tmpdir(), `chainetl-${prefix}-`))

// retried (maxRetries): a test that timed out may still be writing into its folder
const removeFolder = (dir: string) => fs.rm(dir, { recursive: true, force: true, maxRetries: 5 })

/**
 * A fixture that hands its test a `make` and disposes of everything made with it when the
 * fixture's scope ends (folders, emulators): `async ({}, use) => madeIn(make, dispose)(use)`.
 */
export const madeIn =
  <A, P extends unknown[]>(make: (...p: P) => Promise<A>, dispose: (a: A) => Promise<unknown>) =>
  async (use: (make: (...p: P) => Promise<A>) => Promise<void>): Promise<void> => {
    const made: A[] = []
    await use(async (...p) => {
      const a = await make(...p)
      made.push(a)
      return a
    })
    await Promise.all(made.map(dispose))
  }

export interface FolderFixtures {
  /** An empty folder of this test, removed after it. */
  readonly out: string
  /** Makes folders that last as long as the file (removed after its last test). */
  readonly folder: (prefix: string) => Promise<string>
}

export const folderFixtures: Parameters<typeof base.extend<FolderFixtures>>[0] = {
  folder: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => madeIn(makeFolder, removeFolder)(use),
    { scope: "file" }
  ],
  out: async ({ task }, use) => {
    const dir = await makeFolder(task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 24) || "out")
    await use(dir)
    await removeFolder(dir)
  }
}

export const test = base.extend<FolderFixtures>(folderFixtures)

export const it = test

/**
 * Makes folders (each named `chainetl-<prefix>-…`) for the hooks and tests of the file or describe
 * it is called in, and removes them after its last test: `const tempOut = tempFolders("nightly")`
 * at the top of a file, then `await tempOut()` in a `beforeAll` or a test.
 */
export const tempFolders = (prefix: string): (() => Promise<string>) => {
  const made: string[] = []
  afterAll(async () => {
    await Promise.all(made.splice(0).map(removeFolder))
  })
  return async () => {
    const dir = await makeFolder(prefix)
    made.push(dir)
    return dir
  }
}

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
