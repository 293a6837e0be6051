/**
 * Text of the page: HTML escaping and figures for people. Exact figures are decimal strings and
 * stay strings (digits grouped, sizes divided with bigints); the page keeps the exact value in a
 * `data-value` attribute beside what it prints.
 */

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for an element's content or a quoted attribute. */
export const esc = (text: unknown): string => String(text ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]!)

/** "1234567" → "1,234,567"; anything but an integer is returned as it is. */
export const grouped = (exact: string): string => (/^-?\d+$/.test(exact) ? exact.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : exact)

const UNITS = ["B", "KB", "MB", "GB", "TB"] as const

/** A byte count in units of 2^10 with one decimal ("27.1 KB"), computed exactly from its string. */
export const bytesText = (exact: string): string => {
  let whole = BigInt(exact)
  let unit = 0
  let tenths = 0n
  while (whole >= 1024n && unit < UNITS.length - 1) {
    tenths = ((whole % 1024n) * 10n) / 1024n
    whole /= 1024n
    unit++
  }
  return unit === 0 ? `${whole} B` : `${grouped(whole.toString())}.${tenths} ${UNITS[unit]}`
}

/** A table cell holding a figure: its exact value for machines, grouped digits (or `shown`) for people. */
export const figure = (name: string, exact: string, shown: string = grouped(exact), cls = "num"): string =>
  `<td class="${cls}" data-figure="${esc(name)}" data-value="${esc(exact)}">${esc(shown)}</td>`

/** A plain text cell. */
export const cell = (text: unknown, cls = ""): string => `<td${cls === "" ? "" : ` class="${cls}"`}>${esc(text)}</td>`

/** A Unix-seconds instant as `YYYY-MM-DD HH:MM:SSZ` (UTC). */
export const instant = (seconds: number): string => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ")}Z`
