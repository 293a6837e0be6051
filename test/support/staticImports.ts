/**
 * What a source file loads when evaluated, followed through the repository: the guard of the
 * commands' start-up (a module imported statically is compiled and evaluated on every start).
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

export const REPO = fileURLToPath(new URL("../../", import.meta.url))

/** `import type …` or `import { type A, type B }`: erased, loads nothing. */
const typeOnly = (clause: string): boolean => /^type\s/.test(clause) || /^\{(\s*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?)*\s*\}$/s.test(clause)

export interface ImportLine {
  /** As written: a relative path or a package specifier. */
  readonly spec: string
  /** Erased when compiled (`import type`, `export type`, every name `type`): loads nothing. */
  readonly typeOnly: boolean
  /** `import("literal")`: loaded when the code runs, not with the module. */
  readonly dynamic: boolean
}

/** Every import and re-export of a source text, static ones first, then literal dynamic imports. */
export const importsIn = (text: string): ReadonlyArray<ImportLine> => [
  ...[...text.matchAll(/^(?:import|export)\s+([^'";]*?)\s+from\s+["']([^"']+)["']|^import\s+["']([^"']+)["']/gms)].flatMap(([, clause, from, bare]) =>
    bare !== undefined ? [{ spec: bare, typeOnly: false, dynamic: false }] : clause !== undefined && from !== undefined ? [{ spec: from, typeOnly: typeOnly(clause.trim()), dynamic: false }] : []
  ),
  ...[...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].flatMap(([, spec]) => (spec === undefined ? [] : [{ spec, typeOnly: false, dynamic: true }]))
]

/** Modules a source file loads when evaluated: its imports and re-exports that are not type-only (dynamic ones excluded). */
const staticImports = (file: string): ReadonlyArray<string> =>
  importsIn(readFileSync(file, "utf8"))
    .filter((i) => !i.typeOnly && !i.dynamic)
    .map((i) => i.spec)

/**
 * Every module reachable by static imports from `entry`: repository files (relative), packages (by
 * name) and the package specifiers as written (a subpath such as "apache-arrow/type" included).
 */
export const reachable = (
  entry: string
): { readonly files: ReadonlySet<string>; readonly packages: ReadonlySet<string>; readonly specifiers: ReadonlySet<string> } => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const specifiers = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec))
      else if (!spec.startsWith("node:")) {
        specifiers.add(spec)
        packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? spec))
      }
    }
  }
  visit(path.join(REPO, entry))
  return { files: new Set([...files].map((f) => path.relative(REPO, f))), packages, specifiers }
}
