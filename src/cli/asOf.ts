/**
 * `run --emulator --as-of <when>`: the emulated network's "now" for an offline nightly rehearsal
 * (night 1, night 2, a missed night). Two spellings:
 *
 *  - `+<duration>` (`+1d`, `+3d`, `+6h`): the emulator's clock moved that far past its start, the
 *    fixed instant its seed gives (docs/emulator.md; docs/operations.md#rehearsing-nights-offline).
 *    Night 1 is no flag, night 2 `+1d`, a night missed and the one after it `+3d`.
 *  - a UTC date or instant (`2025-01-04`, `2025-01-04T02:15:00Z`): the clock moved to that
 *    instant (a date is its 00:00 UTC); it must not be before the clock's start.
 *
 * Why relative to the seed's start and not to the output's last run: every `run --emulator`
 * starts a fresh in-process emulator at its seed's instant, so the same command shows the same
 * network whatever the output folder holds, and a rehearsal is reproducible. Why the clock is
 * advanced (what `POST /_emulator/advance` does) rather than the emulator started later: the
 * synthetic network is built around the instant it starts at, so a later start would be a
 * different network with a different history, not the same one a day on.
 */
import { Either } from "effect"
import { ConfigError } from "../Errors.ts"
import { INSTANT_PATTERN, isoSeconds, parseDuration, parseInstant } from "../Time.ts"

export type AsOf =
  /** Seconds past the emulator clock's start. */
  | { readonly kind: "after"; readonly seconds: number; readonly text: string }
  /** An instant, Unix seconds. */
  | { readonly kind: "at"; readonly instant: number; readonly text: string }

const FIX = "pass +1d (a day after the emulator's start; +6h, +3d…), or a UTC date or instant like 2025-01-04 or 2025-01-04T02:15:00Z"

/** The flag's text → what it asks for; `emulator`: whether --emulator was given. */
export const parseAsOf = (text: string, emulator: boolean): Either.Either<AsOf, ConfigError> => {
  if (!emulator) {
    return Either.left(
      new ConfigError({
        reason: "Invalid",
        field: "--as-of",
        detail: "moves the emulated network's clock; a run against real services is as of their own time",
        fix: "add --emulator, or drop --as-of"
      })
    )
  }
  const t = text.trim()
  if (t.startsWith("+")) {
    const seconds = parseDuration(t.slice(1))
    if (seconds !== undefined) return Either.right({ kind: "after", seconds, text: t })
    return Either.left(new ConfigError({ reason: "Invalid", field: "--as-of", detail: `got "${text}"`, fix: FIX }))
  }
  const instant = parseInstant(t)
  if (instant !== undefined) return Either.right({ kind: "at", instant, text: t })
  const detail = INSTANT_PATTERN.test(t) ? `"${text}" is not a day or time the calendar has` : `got "${text}"`
  return Either.left(new ConfigError({ reason: "Invalid", field: "--as-of", detail, fix: FIX }))
}

/** Seconds to advance a clock that starts at `start` (Unix seconds); refuses an instant before it. */
export const advanceFor = (asOf: AsOf, start: number): Either.Either<number, ConfigError> => {
  if (asOf.kind === "after") return Either.right(asOf.seconds)
  if (asOf.instant >= start) return Either.right(asOf.instant - start)
  return Either.left(
    new ConfigError({
      reason: "Invalid",
      field: "--as-of",
      detail: `${asOf.text} is before the emulator's start (${isoSeconds(start)}); its clock only moves forward`,
      fix: `pass ${isoSeconds(start).slice(0, 10)} or later, or +1d, +3d…`
    })
  )
}
