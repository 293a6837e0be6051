/**
 * The repository's shape, checked from its import lines: no module imports itself through others,
 * src/'s folders depend one way, nothing but the CLI imports the CLI, the emulator and the product
 * never import each other, and no source file outgrows one purpose (400 lines).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { importsIn } from "../support/staticImports.ts"

const ROOT = resolve(import.meta.dirname, "../..")
const PRODUCT_ROOTS = ["src", "pipelines", "schemas"]
const EMULATOR_ROOTS = ["src/emulator", "packages/emulator"].filter((d) => existsSync(join(ROOT, d)))
const MAX_LINES = 400

interface Import {
  /** A repository path for a relative specifier, else the package specifier as written. */
  readonly target: string
  readonly typeOnly: boolean
  readonly dynamic: boolean
}

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (name === "node_modules" || name === "dist") return []
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : []
  })

const importsOf = (file: string): Array<Import> =>
  importsIn(readFileSync(join(ROOT, file), "utf8")).map(({ spec, typeOnly, dynamic }) => ({
    typeOnly,
    dynamic,
    target: spec.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, ".ts") : spec
  }))

const isEmulator = (path: string) => EMULATOR_ROOTS.some((d) => path === d || path.startsWith(`${d}/`)) || path.startsWith("@chainetl/emulator")
const productFiles = PRODUCT_ROOTS.flatMap(sourceFiles).filter((f) => !isEmulator(f))
const emulatorFiles = EMULATOR_ROOTS.flatMap(sourceFiles).filter((f) => !f.includes("/test/"))
const graph = new Map(productFiles.map((f) => [f, importsOf(f)] as const))

/** Strongly connected components of more than one node (Tarjan), each as the files in it. */
const cycles = (edges: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return found
}

/** src/a/b.ts → src/a; a file directly in src/ belongs to no folder (the root composes them). */
const srcFolder = (file: string): string | undefined => {
  const parts = file.split("/")
  return parts[0] === "src" && parts.length > 2 ? `src/${parts[1]}` : undefined
}

describe("the repository's layering", () => {
  it("given the product's value imports, when they are followed, then no module reaches itself", () => {
    const edges = new Map([...graph].map(([f, is]) => [f, is.filter((i) => !i.typeOnly && !i.dynamic && graph.has(i.target)).map((i) => i.target)] as const))
    expect(cycles(edges)).toEqual([])
  })

  it("given every value import between src/'s folders, when folders are nodes, then they form no cycle", () => {
    const edges = new Map<string, Array<string>>()
    for (const [file, imports] of graph) {
      const from = srcFolder(file)
      if (from === undefined) continue
      for (const { target } of imports.filter((i) => !i.typeOnly)) {
        const to = srcFolder(target)
        if (to !== undefined && to !== from) edges.set(from, [...(edges.get(from) ?? []), to])
      }
    }
    expect(edges.size).toBeGreaterThan(5)
    expect(cycles(edges)).toEqual([])
  })

  it("given the product's files, when one outside src/cli imports src/cli (at load or at run time), then it is named", () => {
    // src/bin.ts is the process's entry: it starts the CLI and nothing else
    const offenders = [...graph].flatMap(([file, imports]) =>
      file.startsWith("src/cli/") || file === "src/bin.ts" ? [] : imports.filter((i) => i.target.startsWith("src/cli/")).map((i) => `${file} → ${i.target}`)
    )
    expect(offenders).toEqual([])
  })

  it("given the emulator and the product, when their imports are read, then neither loads the other", () => {
    // the CLI's `emulator` command (and `run --emulator`) loads the package when asked, by import("…"), and may name its option types
    const loadsEmulator = (file: string, i: Import) => isEmulator(i.target) && !i.typeOnly && !(i.dynamic && file.startsWith("src/cli/"))
    const productToEmulator = [...graph].flatMap(([file, imports]) => imports.filter((i) => loadsEmulator(file, i)).map((i) => `${file} → ${i.target}`))
    const isProduct = (t: string) => PRODUCT_ROOTS.some((d) => t.startsWith(`${d}/`)) && !isEmulator(t)
    const emulatorToProduct = emulatorFiles.flatMap((file) => importsOf(file).filter((i) => isProduct(i.target)).map((i) => `${file} → ${i.target}`))
    expect(emulatorFiles.length).toBeGreaterThan(50)
    expect({ productToEmulator, emulatorToProduct }).toEqual({ productToEmulator: [], emulatorToProduct: [] })
  })

  it(`given every source file, when its lines are counted, then none is over ${MAX_LINES}`, () => {
    const long = [...productFiles, ...emulatorFiles]
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
    expect(long).toEqual([])
  })
})
