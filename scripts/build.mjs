/**
 * Compiles the CLI to JavaScript in dist/ (run by `npm install` through the `prepare` script), so
 * `npx chainetl` starts without compiling TypeScript on every call. One ESM bundle of our own
 * code and Effect, split at every dynamic import (each command still loads only what it uses). bin/chainetl.mjs runs dist/ when it is newer than
 * every source file, and the TypeScript through tsx otherwise.
 *
 * The chunks sit two folders below the repository (dist/cli/), as src/cli/*.ts do, so paths
 * built from import.meta.url (the emulator job: ../../pipelines/jobs/emulator.json) still point
 * at the same files.
 */
import { build } from "esbuild"
import { rm } from "node:fs/promises"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
await rm(`${root}dist`, { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints: { bin: "src/bin.ts" },
  outdir: "dist/cli",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // effect and @effect/* are bundled: their barrels (import { Effect } from "effect") would
  // otherwise load every module of the library (~1 s) on each start; bundled, only what is used
  // remains. Native and large packages load from node_modules when a command needs them.
  // Every other package (CommonJS ones among them) stays external.
  plugins: [
    {
      name: "external-but-effect",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          /^(effect|@effect\/[^/]+)(\/|$)/.test(args.path) ? undefined : { path: args.path, external: true }
        )
      }
    }
  ],
  sourcemap: "linked",
  logLevel: "warning"
})

/**
 * `--help` of every command, rendered once by the CLI just built: bin/chainetl.mjs prints these
 * without loading Effect (the help of a whole command tree costs ~0.4 s CPU to build each time).
 */
import { execFileSync } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"

await mkdir(`${root}dist/cli/help`, { recursive: true })
for (const command of ["", "run", "backfill", "emulator", "catalog", "compact", "status"]) {
  const args = command === "" ? ["--help"] : [command, "--help"]
  const text = execFileSync(process.execPath, [`${root}dist/cli/bin.js`, ...args], { env: { ...process.env, NO_COLOR: "1" } })
  await writeFile(`${root}dist/cli/help/${command || "chainetl"}.txt`, text)
}
