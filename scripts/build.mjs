/**
 * Compiles the CLI to JavaScript in dist/ (run by `npm install` through the `prepare` script), so
 * `npx chainetl` starts without compiling TypeScript on every call. One ESM bundle of our own
 * code and Effect, split at every dynamic import (each command still loads only what it uses). bin/chainetl.mjs runs dist/ when it is newer than
 * every source file, and the TypeScript through tsx otherwise.
 *
 * The chunks sit two folders below the repository (dist/cli/), as src/cli/*.ts do, so paths
 * built from import.meta.url (the emulator job: ../../pipelines/jobs/emulator.json) still point
 * at the same files. Beside them: the help text of each command (help/) and the registry's
 * metadata `chainetl status` reads (dataset-meta.json).
 */
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
await rm(`${root}dist`, { recursive: true, force: true })

/**
 * Packages Effect imports eagerly that no command of ours calls, left out of the bundle: each
 * start would load them (~0.2 CPU-s together, measured on `--version` through Effect). @effect/cli
 * imports YAML, INI and TOML parsers for options read from files (Options.file*, none of ours):
 * they are forwarded to the real package on first use. effect's FastCheck re-exports fast-check
 * for Arbitrary (property tests, never the CLI): it becomes an empty module, and the check below
 * fails the build if our sources start using it.
 */
const LAZY_PARSERS = ["yaml", "ini", "toml"]
const LEFT_OUT = /^(yaml|ini|toml|fast-check)$/
const stubOf = (name) =>
  LAZY_PARSERS.includes(name)
    ? `import { createRequire } from "node:module"\nexport const parse = (text) => createRequire(import.meta.url)(${JSON.stringify(name)}).parse(text)\n`
    : "export {}\n"

/**
 * CommonJS packages the bundle loads with `require` rather than `import`: Node's ESM loader first
 * lexes each file of a CommonJS package for its named exports, and @duckdb/node-api is ~90 files
 * (~0.2 CPU-s of every command that opens DuckDB, status included; require skips the lexing). The
 * sources keep their ordinary imports; the bundle gets a module exporting the package's own keys.
 * The CLI requires @duckdb/node-api's JavaScript as one file bundled beside it (BUNDLED_CJS; the
 * native @duckdb/node-bindings stays a package): resolving, reading and compiling its ~120 files
 * cost ~0.12 CPU-s of every command that opens DuckDB, the one file ~0.05. The sink's row writer
 * calls @duckdb/node-bindings itself (src/sink/RowEncoder.ts), so it is required the same way: a
 * native addon cannot be bundled.
 */
const REQUIRED = ["@duckdb/node-api", "@duckdb/node-bindings"]
const REQUIRED_FILTER = new RegExp(`^(${REQUIRED.map((n) => n.replace(/[/.]/g, "\\$&")).join("|")})$`)
const requireOf = createRequire(import.meta.url)
const BUNDLED_CJS = { "@duckdb/node-api": { file: "duckdb-node-api.cjs", external: ["@duckdb/node-bindings"] } }
const requiredModule = (name, bundledBeside) => {
  const names = Object.keys(requireOf(name)).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default" && k !== "__esModule")
  const target = bundledBeside && BUNDLED_CJS[name] !== undefined ? `./${BUNDLED_CJS[name].file}` : name
  return `import { createRequire } from "node:module"\nconst m = createRequire(import.meta.url)(${JSON.stringify(target)})\nexport default m\nexport const { ${names.join(", ")} } = m\n`
}

const sourcesUsing = async (dir, pattern) => {
  const found = []
  for (const e of await readdir(`${root}${dir}`, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith(".ts")) continue
    const file = `${e.parentPath ?? e.path}/${e.name}`
    if (pattern.test(await readFile(file, "utf8"))) found.push(file.slice(root.length))
  }
  return found
}
const usesFastCheck = (await Promise.all(["src", "pipelines", "schemas"].map((d) => sourcesUsing(d, /\b(Arbitrary|FastCheck)\b|fast-check/)))).flat()
if (usesFastCheck.length > 0) throw new Error(`scripts/build.mjs leaves fast-check out of the CLI, but ${usesFastCheck.join(", ")} use it: drop it from LEFT_OUT`)
/**
 * Every package is bundled but DuckDB (required above: a native addon) and the left-out ones.
 * Barrels (import { Effect } from "effect") would otherwise load every module of a library on
 * each start; bundled, esbuild keeps only what is used, in a few chunks. Measured on `run`
 * (`npm run bench -- --smoke`, 2k rows, where start-up is most of the cost): with only Effect
 * bundled, a run loaded ~440 files from node_modules (apache-arrow 146 of them) and spent about a
 * second of CPU resolving, reading and compiling modules. Dynamic imports still split chunks, so
 * each command loads only what it uses.
 */
const bundleAllButNative = (bundledBeside) => ({
  name: "bundle-all-but-native",
  setup(b) {
    b.onResolve({ filter: LEFT_OUT }, (args) => ({ path: args.path, namespace: "left-out" }))
    b.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({ contents: stubOf(args.path), loader: "js", resolveDir: root }))
    b.onResolve({ filter: REQUIRED_FILTER }, (args) => ({ path: args.path, namespace: "required" }))
    b.onLoad({ filter: /.*/, namespace: "required" }, (args) => ({ contents: requiredModule(args.path, bundledBeside), loader: "js", resolveDir: root }))
  }
})
// a CommonJS package bundled into ESM calls require() for Node's own modules: give it one
const banner = { js: 'import { createRequire as __chainetlRequire } from "node:module"; const require = __chainetlRequire(import.meta.url);' }
const common = { banner, absWorkingDir: root, bundle: true, format: "esm", platform: "node", target: "node20", plugins: [bundleAllButNative(false)], logLevel: "warning" }

for (const [name, { file, external }] of Object.entries(BUNDLED_CJS)) {
  await build({ absWorkingDir: root, entryPoints: [requireOf.resolve(name)], bundle: true, format: "cjs", platform: "node", target: "node20", external, outfile: `dist/cli/${file}`, logLevel: "warning" })
}
await build({ ...common, plugins: [bundleAllButNative(true)], entryPoints: { bin: "src/bin.ts" }, outdir: "dist/cli", splitting: true, sourcemap: "linked" })

/**
 * The registry's facts the CLI reads at start-up (src/crawl/DatasetMeta.ts: names, services,
 * backfillable, windows, height columns), derived from the pipelines' declarations by the same
 * code as the CLI and written beside it before anything runs it: `--help`, the settings check and
 * status read this instead of loading every pipeline with its decoders, Arrow schemas and HTTP
 * clients.
 */
const [meta] = (await build({ ...common, entryPoints: ["src/cli/status/writeMeta.ts"], write: false })).outputFiles
execFileSync(process.execPath, ["--input-type=module", "-", `${root}dist/cli`], { cwd: root, input: meta.text, stdio: ["pipe", "inherit", "inherit"] })

/**
 * `--help` of every command, rendered once by the CLI just built: bin/chainetl.mjs prints these
 * without loading Effect (the help of a whole command tree costs ~0.4 s CPU to build each time).
 */
await mkdir(`${root}dist/cli/help`, { recursive: true })
for (const command of ["", "run", "backfill", "worker", "emulator", "catalog", "compact", "status", "query", "report"]) {
  const args = command === "" ? ["--help"] : [command, "--help"]
  const text = execFileSync(process.execPath, [`${root}dist/cli/bin.js`, ...args], { env: { ...process.env, NO_COLOR: "1" } })
  await writeFile(`${root}dist/cli/help/${command || "chainetl"}.txt`, text)
}
