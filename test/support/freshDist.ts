/**
 * Global setup: the CLI the tests start as a process (`node bin/chainetl.mjs`, test/reliability/cli.ts)
 * runs dist/ when it is newer than every source, else the TypeScript through tsx, which costs
 * seconds more CPU per start (measured: docs/performance.md#start-up-costs), and the suite starts
 * it a hundred times and more. A checkout whose sources changed since its last build is built once
 * here first (`npm run build`, as `npm install` does); CI's `npm ci` has just built it, so this
 * finds it fresh.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { distIsFresh as isFresh } from "../../bin/freshness.mjs"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

export const distIsFresh = (): boolean => isFresh(ROOT)

export default function setup(): void {
  // a run that starts no CLI process can say so (the bare copy's run of five files)
  if (process.env["CHAINETL_TEST_NO_BUILD"] === "1" || distIsFresh()) return
  console.log("dist/ is older than the sources: building it once (npm run build) so the CLI tests start it without tsx")
  execFileSync(process.execPath, [`${ROOT}scripts/build.mjs`], { cwd: ROOT, stdio: "inherit" })
}
