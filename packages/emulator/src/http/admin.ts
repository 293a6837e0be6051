/**
 * Emulator-only controls under /_emulator/, a prefix no official route uses. They bypass auth,
 * rate limits and faults: a test must be able to move time even while the service misbehaves.
 */
import { HttpError, type Clock } from "./contract.ts"
import type { EmulatorOptions } from "./options.ts"
import { jsonOutcome, type Outcome } from "./respond.ts"
import type { EmulatorStats } from "./stats.ts"

export const ADMIN_PREFIX = "/_emulator/"

export interface AdminDeps {
  readonly clock: Clock
  readonly options: EmulatorOptions
  readonly stats: EmulatorStats
}

export const emulatorState = ({ clock, options, stats }: AdminDeps) => ({
  now: clock.now(),
  seed: options.seed,
  scale: options.scale,
  // the keys themselves stay out of what the admin route serves
  requests: { ...stats, keyArrivals: undefined }
})

export const serveAdmin = (method: string, path: string, query: URLSearchParams, deps: AdminDeps): Outcome => {
  if (method === "POST" && path === "/_emulator/advance") {
    const raw = query.get("seconds") ?? ""
    if (!/^\d{1,12}$/.test(raw)) throw new HttpError(400, `seconds must be a whole number >= 0 (got "${raw}")`)
    deps.clock.advance(Number(raw))
    return jsonOutcome(200, { now: deps.clock.now() })
  }
  if (method === "GET" && path === "/_emulator/state") return jsonOutcome(200, emulatorState(deps))
  throw new HttpError(404, `Cannot ${method} ${path}`)
}
