/**
 * Setup file of the `unit` project: starting a child process or listening on a socket throws,
 * naming the tier the file belongs in. The tiers are read from imports (test/support/tiers.ts);
 * this catches what a reading of imports cannot see (a package that spawns, a computed import).
 */
import { createRequire, syncBuiltinESMExports } from "node:module"

// through require, the modules' own objects: what `import { spawn } from "node:child_process"` binds
const require = createRequire(import.meta.url)
const childProcess = require("node:child_process") as Record<string, unknown>
const net = require("node:net") as { Server: { prototype: Record<string, unknown> } }

export const GUARDED = Symbol.for("chainetl.unitGuard")

const refuse = (what: string) =>
  Object.assign(
    () => {
      throw new Error(`${what} in the unit tier: a test file that does this belongs in integration or system (test/support/tiers.ts reads it from its imports)`)
    },
    { [GUARDED]: true }
  )

export const SPAWNERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const

for (const name of SPAWNERS) if (!(childProcess[name] as Record<symbol, unknown>)[GUARDED]) childProcess[name] = refuse(`child_process.${name}`)
if (!(net.Server.prototype["listen"] as Record<symbol, unknown>)[GUARDED]) net.Server.prototype["listen"] = refuse("listening on a socket (a server)")
syncBuiltinESMExports()

/** Which of the guarded entry points refuse, for test/support/tiers.test.ts to see without loading this file. */
;(globalThis as Record<symbol, unknown>)[GUARDED] = (): Record<string, boolean> => ({
  ...Object.fromEntries(SPAWNERS.map((n) => [`child_process.${n}`, (childProcess[n] as Record<symbol, unknown>)[GUARDED] === true])),
  "net.Server.listen": (net.Server.prototype["listen"] as Record<symbol, unknown>)[GUARDED] === true
})
