/**
 * First pages a backfill asked before its crawl (Probe.ts, SplitListings.ts), handed to the crawl
 * instead of asked again: a window probed and then crawled whole asks for its first page once.
 *
 * - **Rules.** A page is used at most once, and only by the slice it was asked for (same dataset,
 *   id, params and start) at the run's first pass, first page, with no cursor (FetchPage.ts): a
 *   slice resumed from a checkpoint's cursor, or a listing started over, asks the service. It keeps
 *   what a fetch gives the crawl: the page (records, next token, keys, reach), the answers the
 *   clients returned while it was fetched (PageSources.ts: a reject's raw text is cut from them) and
 *   when it was received (its next token's age counts from then: a token past the listing's TTL
 *   when the slice would take it is not used, the first page is asked again). Its requests were
 *   counted under the probe's own scope (`probeScope`); the slice that takes it claims them
 *   (SourceStats `claim`), so they count once in the slice's report and once at the hosts.
 * - **Memory.** At most the probes' pages (PROBES per dataset), and once the crawl starts only
 *   those of slices it will crawl (`keepOnly`); each goes when its slice takes it or is over.
 * - **Failure modes.** A probe that failed leaves no page: its slice asks as it would have.
 */
import type { Page } from "./Dataset.ts"
import type { Slice } from "./Slice.ts"

export interface ProbedPage {
  readonly page: Page
  /** The answers the clients returned while it was fetched, in order (PageSources.ts). */
  readonly sources: ReadonlyArray<unknown>
  /** When it was received (ms): its next token's age counts from then. */
  readonly receivedAt: number
  /** Its round trip (ms), for a probe that asks the same window again (Probe.ts). */
  readonly ms: number
}

/** The SourceStats scope a probe of `slice` counts its requests under, until its slice claims them. */
export const probeScope = (dataset: string, slice: Slice): string => `probe:${dataset}/${slice.id}`

const same = (a: Slice, b: Slice): boolean => {
  if (a.id !== b.id || a.fetchFrom !== b.fetchFrom) return false
  const ka = Object.keys(a.params)
  return ka.length === Object.keys(b.params).length && ka.every((k) => a.params[k] === b.params[k])
}

interface Held extends ProbedPage {
  readonly slice: Slice
}

export class ProbedPages {
  private readonly held = new Map<string, Held>()

  private static key(dataset: string, sliceId: string): string {
    return `${dataset}/${sliceId}`
  }

  /** Keeps the first page of `slice` as probed (a second probe of the same window keeps the first's). */
  put(dataset: string, slice: Slice, probed: ProbedPage): void {
    const key = ProbedPages.key(dataset, slice.id)
    if (!this.held.has(key)) this.held.set(key, { ...probed, slice })
  }

  /** The page probed for `slice`, left where it is (a second probe of the window reads it). */
  peek(dataset: string, slice: Slice): ProbedPage | undefined {
    const held = this.held.get(ProbedPages.key(dataset, slice.id))
    return held !== undefined && same(held.slice, slice) ? held : undefined
  }

  /** The page probed for `slice`, gone from here whether or not it was asked for this same slice. */
  take(dataset: string, slice: Slice): ProbedPage | undefined {
    const key = ProbedPages.key(dataset, slice.id)
    const held = this.held.get(key)
    if (held === undefined) return undefined
    this.held.delete(key)
    return same(held.slice, slice) ? held : undefined
  }

  /** Drops the page of `slice`, if one is still here (its crawl is over). */
  drop(dataset: string, sliceId: string): void {
    this.held.delete(ProbedPages.key(dataset, sliceId))
  }

  /** Drops every page but those of `plan`'s slices (a cut window's page is of no piece's). */
  keepOnly(plan: ReadonlyArray<{ readonly dataset: { readonly name: string }; readonly slices: ReadonlyArray<Slice> }>): void {
    const wanted = new Set(plan.flatMap((p) => p.slices.map((s) => ProbedPages.key(p.dataset.name, s.id))))
    for (const key of [...this.held.keys()]) if (!wanted.has(key)) this.held.delete(key)
  }

  get size(): number {
    return this.held.size
  }
}
