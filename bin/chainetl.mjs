#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm install`'s prepare script: no step to forget) when it
// is newer than every source file, else the TypeScript sources through tsx, so an edited checkout
// never runs stale code.
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { distIsFresh } from "./freshness.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const built = `${root}dist/cli/bin.js`

const fresh = () => distIsFresh(root)

const args = process.argv.slice(2)
const helpOf = args.length === 1 && args[0] === "--help" ? "chainetl" : args.length === 2 && args[1] === "--help" ? args[0] : undefined

if (args.length === 1 && args[0] === "--version") {
  // the version alone needs no module of ours
  process.stdout.write(`${JSON.parse(readFileSync(`${root}package.json`, "utf8")).version}\n`)
} else if (helpOf !== undefined && /^[a-z]+$/.test(helpOf) && fresh() && existsSync(`${root}dist/cli/help/${helpOf}.txt`)) {
  // help rendered by this very build (scripts/build.mjs)
  process.stdout.write(readFileSync(`${root}dist/cli/help/${helpOf}.txt`))
} else if (fresh()) {
  await import(built)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/bin.ts")
}
