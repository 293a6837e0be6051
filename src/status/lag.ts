/**
 * How far behind a listing is, as `chainetl status` prints it: the height lines, the probes that
 * did not answer, and the clamp of a lag that would be negative, with its reason.
 */

/** A height-ordered listing: committed through which height, and (--live) the service's tip. */
export interface HeightLine {
  readonly dataset: string
  readonly listing: Readonly<Record<string, string>>
  readonly height: string
  /** Every height from the listing's lowest up to here is written, none below is a hole (crawl/Heights.ts); null when none can be said so. */
  readonly completeThrough: string | null
  /** Rejected blocks not written since (a later run asks for them again); null when an older checkpoint did not count them. */
  readonly holes: number | null
  /** Their heights, ascending, where known. */
  readonly holeKeys: ReadonlyArray<string>
  readonly latest: string | null
  readonly lagBlocks: string | null
  readonly error?: string
  /** Why lagBlocks is 0 although the tip is below the height: the clamp explained. */
  readonly lagNote?: string
}

/** A probe that did not answer: which dataset's service, and why. */
export interface Unreachable {
  readonly dataset: string
  readonly error: string
}

export const isUnreachable = (x: unknown): x is Unreachable => typeof x === "object" && x !== null && "error" in x && "dataset" in x

export const TIP_BELOW = "the service's tip is below the height scanned (a node behind, or another service than the one crawled): nothing to fetch, lag 0"
export const NEWEST_BEFORE = "complete up to the as-of of the run that last finished it, which is past the service's newest block (nothing newer to fetch): lag 0"
export const AS_OF_AHEAD = "the run's as-of (service time; the emulated network's under --emulator) is ahead of this machine's clock: age 0"

/** Seconds behind, never negative: the clamp's reason when it applies. */
export const behind = (newer: number, older: number, note: string): { readonly seconds: number; readonly note?: string } =>
  newer >= older ? { seconds: newer - older } : { seconds: 0, note }

/** Seconds as people read a lag: "42m", "3h 20m", "2d 4h". */
export const span = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  if (s < 3_600) return `${Math.floor(s / 60)}m`
  if (s < 86_400) return `${Math.floor(s / 3_600)}h ${Math.floor((s % 3_600) / 60)}m`
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3_600)}h`
}
