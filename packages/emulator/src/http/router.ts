/**
 * Matches request paths against the seed's route templates segment by segment. A segment is
 * either literal ("blocks", "balances:getNative" — colons are ordinary characters) or contains
 * {name} parameters, so /v1/chains/{chainId}/addresses/{address} (5 segments) can never swallow
 * /v1/chains/{chainId}/addresses/{address}/balances:getNative (6 segments).
 *
 * A path that matches a template under another method answers 404 "Cannot POST /path", as the
 * official services do (their error schemas list no 405).
 */
import type { RouteDef } from "./contract.ts"
import { badRequest } from "./errors.ts"

interface CompiledSegment {
  readonly literal?: string
  readonly pattern?: RegExp
  readonly names: ReadonlyArray<string>
}

interface CompiledRoute {
  readonly def: RouteDef
  readonly segments: ReadonlyArray<CompiledSegment>
}

export interface RouteMatch {
  readonly route: RouteDef
  readonly params: Readonly<Record<string, string>>
}

export interface Router {
  /** undefined when no template of that method matches. */
  match(method: string, path: string): RouteMatch | undefined
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const compileSegment = (segment: string): CompiledSegment => {
  const names: string[] = []
  let source = ""
  let last = 0
  for (const m of segment.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    source += escapeRegExp(segment.slice(last, m.index)) + "([^/]+?)"
    names.push(m[1] as string)
    last = m.index + m[0].length
  }
  if (names.length === 0) return { literal: segment, names }
  return { pattern: new RegExp(`^${source}${escapeRegExp(segment.slice(last))}$`), names }
}

const splitPath = (path: string): string[] => {
  // one trailing slash is tolerated, as the official services' router does
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
  return trimmed.split("/").slice(1)
}

const decode = (raw: string): string => {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw badRequest(`malformed percent-encoding in path segment "${raw}"`)
  }
}

const matchRoute = (route: CompiledRoute, rawSegments: ReadonlyArray<string>): Record<string, string> | undefined => {
  if (route.segments.length !== rawSegments.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < rawSegments.length; i++) {
    const seg = route.segments[i] as CompiledSegment
    const raw = rawSegments[i] as string
    if (seg.literal !== undefined) {
      if (raw !== seg.literal && decode(raw) !== seg.literal) return undefined
      continue
    }
    const m = seg.pattern?.exec(raw)
    if (!m) return undefined
    seg.names.forEach((name, j) => {
      params[name] = decode(m[j + 1] as string)
    })
  }
  return params
}

/** Literal segments outrank parameters, left to right, so the most specific template wins. */
const specificity = (r: CompiledRoute): string => r.segments.map((s) => (s.literal !== undefined ? "1" : "0")).join("")

export const createRouter = (routes: ReadonlyArray<RouteDef>): Router => {
  const seen = new Set<string>()
  for (const r of routes) {
    const key = `${r.method} ${r.path}`
    if (seen.has(key)) throw new Error(`emulator: route ${key} is declared twice`)
    seen.add(key)
  }
  const compiled = routes
    .map((def): CompiledRoute => ({ def, segments: def.path.split("/").slice(1).map(compileSegment) }))
    .sort((a, b) => (specificity(a) < specificity(b) ? 1 : specificity(a) > specificity(b) ? -1 : 0))
  return {
    match(method, path) {
      const raw = splitPath(path)
      for (const route of compiled) {
        if (route.def.method !== method) continue
        const params = matchRoute(route, raw)
        if (params) return { route: route.def, params }
      }
      return undefined
    }
  }
}
