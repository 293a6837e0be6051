/**
 * The test tiers hold: the reading of imports that places each file (test/support/tiers.ts) sees
 * through helpers, re-exports, dynamic imports and workspace packages; the support files that start
 * servers and programs are where CONTRIBUTING.md says; no unit file reaches any of them; and in the
 * unit project, starting a process or a server throws.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, inject, it } from "vitest"
import { REPO } from "./staticImports.ts"
import { classifier, reachable, testFiles, tiers } from "./tiers.ts"

/** A throwaway repository of the given files (path → text). */
const repoOf = (files: Record<string, string>): string => {
  const root = mkdtempSync(path.join(os.tmpdir(), "chainetl-tiers-"))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  made.push(root)
  return root
}
const made: string[] = []
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true })
})

// spelled in pieces so that this file's own text neither serves nor spawns for the classifier
const SERVE = ["create", "Server("].join("")
const fromModule = (name: string) => `from "node:${name}"`

describe("the reading of imports", () => {
  it("given a test that reaches child_process through two helpers, when classified, then it is system with the chain that decided", () => {
    const root = repoOf({
      "test/a.test.ts": `import { run } from "./helpers/cli.ts"\n`,
      "test/helpers/cli.ts": `export { run } from "./spawn.ts"\n`,
      "test/helpers/spawn.ts": `import { spawn } ${fromModule("child_process")}\nexport const run = () => spawn("true")\n`
    })
    expect(classifier(root)(path.join(root, "test/a.test.ts"))).toEqual({
      tier: "system",
      because: ["test/helpers/cli.ts", "test/helpers/spawn.ts", "node:child_process"]
    })
  })

  it("given a module that imports node:http, when it serves or only sends, then only the one that serves is integration", () => {
    const root = repoOf({
      "test/serves.test.ts": `import { ${SERVE.slice(0, -1)} } ${fromModule("http")}\nconst s = ${SERVE})\n`,
      "test/sends.test.ts": `import * as http ${fromModule("http")}\nexport const agent = new http.Agent()\n`
    })
    const classify = classifier(root)
    expect(classify(path.join(root, "test/serves.test.ts")).tier).toBe("integration")
    expect(classify(path.join(root, "test/sends.test.ts")).tier).toBe("unit")
  })

  it("given imports that load nothing (type-only) and one that loads late (dynamic), when classified, then only the dynamic one counts", () => {
    const root = repoOf({
      "test/types.test.ts": `import type { S } from "./server.ts"\nimport { type T } from "./server.ts"\n`,
      "test/late.test.ts": `export const go = () => import("./server.ts")\n`,
      "test/server.ts": `import { ${SERVE.slice(0, -1)} } ${fromModule("net")}\nexport type S = number\nexport type T = string\nexport const s = ${SERVE})\n`
    })
    const classify = classifier(root)
    expect(classify(path.join(root, "test/types.test.ts")).tier).toBe("unit")
    expect(classify(path.join(root, "test/late.test.ts"))).toEqual({ tier: "integration", because: ["test/server.ts", "createServer of node:net"] })
  })

  it("given a workspace package imported by name and subpath, when classified, then its files are followed as the package's exports name them", () => {
    const root = repoOf({
      "packages/emu/package.json": JSON.stringify({ name: "@x/emu", exports: { ".": "./src/index.ts", "./world": "./src/world.ts" } }),
      "packages/emu/src/index.ts": `export { serve } from "./server.ts"\n`,
      "packages/emu/src/server.ts": `import { ${SERVE.slice(0, -1)} } ${fromModule("http")}\nexport const serve = () => ${SERVE})\n`,
      "packages/emu/src/world.ts": `export const world = 1\n`,
      "packages/emu/test/world.test.ts": `import { world } from "@x/emu/world"\n`,
      "test/run.test.ts": `import { serve } from "@x/emu"\n`
    })
    expect(testFiles(root)).toEqual(["packages/emu/test/world.test.ts", "test/run.test.ts"])
    const t = tiers(root)
    expect(t.unit.map((f) => f.file)).toEqual(["packages/emu/test/world.test.ts"])
    expect(t.integration).toEqual([{ file: "test/run.test.ts", because: ["packages/emu/src/index.ts", "packages/emu/src/server.ts", "createServer of node:http"] }])
  })
})

describe("this repository's tiers", () => {
  const classify = classifier()
  const tiersOf = new Map<string, string>()
  const tierOf = (file: string): string => {
    if (!tiersOf.has(file)) tiersOf.set(file, classify(path.join(REPO, file)).tier)
    return tiersOf.get(file)!
  }
  /** The helpers that start servers and programs, and the tier each puts its importers in. */
  const STARTERS: Record<string, "integration" | "system"> = {
    "test/support/pgServer.ts": "system",
    "test/support/postgres.ts": "system",
    "test/support/s3.ts": "system",
    "test/support/browser.ts": "system",
    "test/reliability/cli.ts": "system",
    "packages/emulator/src/index.ts": "integration",
    "test/support/proxy.ts": "integration",
    "test/support/fakeServer.ts": "integration"
  }

  it("given the helpers that start PostgreSQL, s3rver, Chromium, the CLI, the emulator and stub servers, when classified, then each is in its tier", () => {
    expect(Object.fromEntries(Object.keys(STARTERS).map((f) => [f, tierOf(f)]))).toEqual(STARTERS)
  })

  it("given every unit file, when the modules it loads are walked, then it reaches none of those helpers and nothing that spawns or serves", () => {
    const t = tiers()
    expect(t.unit.length + t.integration.length + t.system.length).toBe(testFiles().length)
    // every tier has files: a reading that put everything in one tier would be broken
    expect(Math.min(t.unit.length, t.integration.length, t.system.length)).toBeGreaterThan(20)
    const offenders = t.unit.flatMap(({ file }) =>
      [...reachable(path.join(REPO, file))]
        .map((m) => path.relative(REPO, m))
        .filter((m) => m in STARTERS || tierOf(m) !== "unit")
        .map((m) => `${file} loads ${m}`)
    )
    expect(offenders).toEqual([])
  })

  it("given the unit project, when a file would start a process or listen on a socket, then it throws naming the tier", () => {
    // this file is itself unit: it runs in that project, behind its setup file
    expect(inject("tier")).toBe("unit")
    const guard = (globalThis as Record<symbol, unknown>)[Symbol.for("chainetl.unitGuard")] as () => Record<string, boolean>
    expect(guard()).toEqual({
      "child_process.spawn": true,
      "child_process.spawnSync": true,
      "child_process.exec": true,
      "child_process.execSync": true,
      "child_process.execFile": true,
      "child_process.execFileSync": true,
      "child_process.fork": true,
      "net.Server.listen": true
    })
    expect(() => new net.Server().listen(0)).toThrow(/in the unit tier/)
  })
})
