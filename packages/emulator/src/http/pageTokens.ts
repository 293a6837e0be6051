/**
 * The metrics service's UUID page tokens: random, stored server-side with their issue time, and
 * expired after the TTL (seed: Limits). Memory stays bounded on a long crawl: tokens are kept in
 * issue order, so expired ones sit at the front and are swept in O(1) per call; past `maxLive`
 * the oldest are dropped. Swept ids are remembered (a bounded FIFO) so a client presenting one
 * still learns it "expired" rather than being told it never existed.
 */
import { randomUUID } from "node:crypto"
import type { Clock, PageTokenStore } from "./contract.ts"

interface Entry {
  readonly payload: string
  readonly issuedMs: number
}

export interface PageTokenStoreLimits {
  readonly maxLive: number
  readonly maxRemembered: number
}

const DEFAULT_LIMITS: PageTokenStoreLimits = { maxLive: 100_000, maxRemembered: 100_000 }

export const createPageTokenStore = (
  clock: Clock,
  ttlSeconds: number,
  limits: PageTokenStoreLimits = DEFAULT_LIMITS
): PageTokenStore & { readonly size: () => number } => {
  const ttlMs = ttlSeconds * 1000
  const live = new Map<string, Entry>()
  const expired = new Set<string>()

  const remember = (token: string): void => {
    expired.add(token)
    if (expired.size > limits.maxRemembered) expired.delete(expired.values().next().value as string)
  }

  const isExpired = (e: Entry, nowMs: number): boolean => nowMs - e.issuedMs > ttlMs

  const sweep = (nowMs: number): void => {
    for (const [token, e] of live) {
      if (!isExpired(e, nowMs) && live.size <= limits.maxLive) break
      live.delete(token)
      if (isExpired(e, nowMs)) remember(token)
    }
  }

  return {
    issue(payload) {
      const nowMs = clock.tokenTimeMs()
      const token = randomUUID()
      live.set(token, { payload, issuedMs: nowMs })
      sweep(nowMs)
      return token
    },
    lookup(token) {
      const nowMs = clock.tokenTimeMs()
      sweep(nowMs)
      const e = live.get(token)
      if (e) return isExpired(e, nowMs) ? "expired" : { payload: e.payload }
      return expired.has(token) ? "expired" : "unknown"
    },
    size: () => live.size
  }
}
