/**
 * The spellings of time a user writes in job files and flags: durations ("30d", "6h", "90m",
 * "45s") and instants ("2025-01-31", "2025-01-31T12:00:00Z"). Parsed once, at the edge, into
 * Unix seconds; undefined when the text is neither (callers name the field and the fix).
 */

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400 }

export const DURATION_PATTERN = /^([0-9]{1,9})([smhd])$/

/** "30d" → 2592000. */
export const parseDuration = (text: string): number | undefined => {
  const m = DURATION_PATTERN.exec(text.trim())
  return m === null ? undefined : Number(m[1]) * (UNIT_SECONDS[m[2] as string] as number)
}

export const INSTANT_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(\.[0-9]+)?Z)?$/

/**
 * A UTC date (midnight) or an ISO instant ending in Z → Unix seconds. A date the calendar does
 * not have (2023-02-30, 24:00) is refused: Date.parse would roll it over into the next month.
 */
export const parseInstant = (text: string): number | undefined => {
  const t = text.trim()
  if (!INSTANT_PATTERN.test(t)) return undefined
  const ms = Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t)
  if (!Number.isFinite(ms)) return undefined
  // the parsed instant printed back must show the same calendar fields that were written
  const written = t.slice(0, 16).replace(/Z$/, "")
  if (new Date(ms).toISOString().slice(0, written.length) !== written) return undefined
  return Math.floor(ms / 1000)
}

/** 2592000 → "30d"; the largest unit that divides it. */
export const formatDuration = (seconds: number): string => {
  for (const [unit, size] of [["d", 86_400], ["h", 3_600], ["m", 60]] as const) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`
  }
  return `${seconds}s`
}

export const isoSeconds = (t: number): string => new Date(t * 1000).toISOString().replace(".000Z", "Z")
