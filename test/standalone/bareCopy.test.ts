/**
 * The repository stands alone: a clone anywhere, with nothing beside it, must pass its tests.
 * - Statically: no source, test, script or CI file names a path that leaves the repository.
 * - Dynamically: the tests that read the official documents run from a copy of the repository in
 *   a fresh temporary folder (only its node_modules linked back, as `npm ci` would make them) and pass.
 * (.ci/run goes further and runs the whole suite from such a copy.)
 */
import { execFileSync, spawnSync } from "node:child_process"
import { promises as fs, readFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const REPO = path.resolve(new URL("../..", import.meta.url).pathname)

/** Folders and files whose code runs in tests, scripts or CI. */
const CODE_ROOTS = ["src", "test", "scripts", "bench", "pipelines", "schemas", "bin", ".ci"]
const TOP_FILES = ["package.json", "vitest.config.ts", "tsconfig.json"]

/** The repository's files as a clone has them: tracked and untracked-but-not-ignored. */
const repoFiles = (): string[] => {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: REPO, encoding: "utf8" })
  return out.split("\0").filter((f) => f !== "" && readable(path.join(REPO, f)))
}

const readable = (file: string): boolean => {
  try {
    return readFileSync(file).length >= 0
  } catch {
    return false // deleted in the working tree
  }
}

/** Lines that hold such a string as data (hostile partition values), not as a path. */
const NOT_A_PATH = "not a path"

/**
 * Every relative path in a string literal of `text`, resolved from `file`'s folder, that leaves
 * `root`; and any mention of the shared reference folder the team keeps beside the repository.
 */
export const escapingPaths = (root: string, file: string, text: string): string[] => {
  const found: string[] = []
  for (const line of text.split("\n")) {
    if (line.includes(NOT_A_PATH)) continue
    const before = found.length
    for (const m of line.matchAll(/["'`]((?:\.\.?\/)+[^"'`\s]*)["'`]/g)) {
      const target = path.resolve(path.dirname(file), m[1]!)
      if (path.relative(root, target).startsWith("..")) found.push(m[1]!)
    }
    if (found.length === before) for (const m of line.matchAll(/((?:\.\.\/)*shared\/reference)\b/g)) found.push(m[1]!)
  }
  return found
}

describe("the repository stands alone", () => {
  it("given the checker, when a file names ../../x from two folders down, then only a path that leaves the root is reported", () => {
    const root = "/r"
    expect(escapingPaths(root, "/r/test/a/b.ts", `new URL("../../reference/x.json", import.meta.url)`)).toEqual([])
    // spelled in pieces, so that no scan of this repository mistakes the examples for a real read
    const outside = ["..", "..", "..", "shared", "reference", "x.json"].join("/")
    expect(escapingPaths(root, "/r/test/a/b.ts", `new URL("${outside}", import.meta.url)`)).toEqual([outside])
    expect(escapingPaths(root, "/r/.ci/run", `cp ${["..", "shared", "reference"].join("/")}/x .`)).toEqual([["..", "shared", "reference"].join("/")])
  })

  it("given every code file of the repository, when its string literals are resolved, then none leaves the repository", () => {
    const offenders: string[] = []
    const files = repoFiles().filter((f) => TOP_FILES.includes(f) || CODE_ROOTS.some((r) => f.startsWith(r + "/")))
    expect(files.length).toBeGreaterThan(100)
    for (const f of files) {
      // this file holds the patterns it looks for
      if (f === "test/standalone/bareCopy.test.ts") continue
      for (const p of escapingPaths(REPO, path.join(REPO, f), readFileSync(path.join(REPO, f), "utf8"))) offenders.push(`${f}: ${p}`)
    }
    expect(offenders).toEqual([])
  })

  describe("a bare copy in a temporary folder", () => {
    let parent: string | undefined
    afterAll(async () => {
      if (parent) await fs.rm(parent, { recursive: true, force: true })
    })

    it("given the repository copied alone into a fresh folder, when the tests that read the official documents run there, then they pass", async () => {
      parent = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-bare-"))
      const copy = path.join(parent, "chainetl")
      for (const f of repoFiles()) {
        await fs.mkdir(path.dirname(path.join(copy, f)), { recursive: true })
        await fs.copyFile(path.join(REPO, f), path.join(copy, f))
      }
      await fs.symlink(path.join(REPO, "node_modules"), path.join(copy, "node_modules"), "dir")
      // nothing but the copy in its parent folder: no shared/ beside it
      expect(await fs.readdir(parent)).toEqual(["chainetl"])

      const readers = [
        "test/decode/utxo.test.ts",
        "packages/emulator/test/primary/utxoCodec.test.ts",
        "packages/emulator/test/primary/http.test.ts",
        "packages/emulator/test/rpc/platform.test.ts",
        "test/standalone/constants.test.ts"
      ]
      const run = spawnSync(process.execPath, [path.join(copy, "node_modules/vitest/vitest.mjs"), "run", ...readers], {
        cwd: copy,
        encoding: "utf8",
        // these five start no CLI process: the copy's dist/ (absent) need not be built for them
        env: { ...process.env, CI: "true", NO_COLOR: "1", FORCE_COLOR: "0", CHAINETL_TEST_NO_BUILD: "1" },
        timeout: 240_000
      })
      const output = run.stdout + run.stderr
      expect(output).not.toMatch(/ENOENT/)
      expect(run.status, output.slice(-3000)).toBe(0)
      expect(output).toMatch(new RegExp(`Test Files\\s+${readers.length} passed \\(${readers.length}\\)`))
    }, 300_000)
  })
})
