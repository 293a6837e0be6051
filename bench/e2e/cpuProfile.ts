/**
 * A short reading of a V8 .cpuprofile (what `node --cpu-prof` writes): self time per function,
 * and per package (node_modules/<name>, chainetl's own folders, node internals), from the
 * samples and their time deltas. Only the main thread is profiled: DuckDB's worker threads are
 * not in it, its work on the main thread is billed to the JavaScript function that called it.
 * Positions are those of the code V8 ran: for TypeScript loaded through tsx, the transformed code,
 * not the .ts source (open the kept .cpuprofile in Chrome DevTools to browse it with source maps).
 */
import * as fs from "node:fs"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number }
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

export interface ProfileLine {
  readonly name: string
  readonly selfMs: number
  readonly share: number
}

export interface ProfileSummary {
  readonly totalMs: number
  readonly functions: ReadonlyArray<ProfileLine>
  readonly packages: ReadonlyArray<ProfileLine>
}

const packageOf = (url: string, functionName: string): string => {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)"
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (nm !== null) return nm[1]!
  if (url.startsWith("node:")) return "node internals"
  const own = /\/(src\/[^/]+|pipelines|schemas|bench)\//.exec(url)
  return own !== null ? `chainetl ${own[1]}` : url.replace(/^file:\/\//, "")
}

const shortUrl = (url: string): string => url.replace(/^file:\/\/.*?\/(node_modules|src|pipelines|schemas|bench)\//, "$1/")

const top = (m: Map<string, number>, total: number, n: number): ProfileLine[] =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, selfMs: us / 1000, share: total === 0 ? 0 : us / total }))

export const summarizeProfile = (file: string, n = 15): ProfileSummary => {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const functions = new Map<string, number>()
  const packages = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    const frame = byId.get(id)?.callFrame
    if (frame === undefined) return
    // idle is time the thread waited, not work
    if (frame.functionName === "(idle)") return
    total += us
    const fn = `${frame.functionName || "(anonymous)"} ${frame.url === "" ? "" : `${shortUrl(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`}`.trim()
    functions.set(fn, (functions.get(fn) ?? 0) + us)
    const pkg = packageOf(frame.url, frame.functionName)
    packages.set(pkg, (packages.get(pkg) ?? 0) + us)
  })
  return { totalMs: total / 1000, functions: top(functions, total, n), packages: top(packages, total, 10) }
}

export const formatProfile = (s: ProfileSummary): string =>
  [
    `main thread busy ${(s.totalMs / 1000).toFixed(2)} s; top self time by function:`,
    ...s.functions.map((f) => `  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.selfMs.toFixed(0).padStart(7)} ms  ${f.name}`),
    "by package:",
    ...s.packages.map((f) => `  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.selfMs.toFixed(0).padStart(7)} ms  ${f.name}`)
  ].join("\n")
