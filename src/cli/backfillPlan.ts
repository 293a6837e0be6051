/**
 * Checks of what `chainetl backfill` and a job's `incremental` section ask for, before any
 * request: each names the flag or field and the fix (exit code 2).
 */
import { Either } from "effect"
import { datasets as registry } from "../../pipelines/index.ts"
import type { AnyDataset, Backfill } from "../crawl/Dataset.ts"
import { ConfigError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import { parseDuration, parseInstant } from "../Time.ts"

const windowed = (): ReadonlyArray<AnyDataset> => registry.filter((d) => d.windows !== undefined)
const backfillable = (): ReadonlyArray<AnyDataset> => registry.filter((d) => d.windows !== undefined || d.backfill !== undefined)

export const backfillableNames = (): ReadonlyArray<string> => backfillable().map((d) => d.name)

/** `--from`/`--to`/`--window` for the named datasets → the range every one of them is planned over. */
export const parseBackfill = (
  names: ReadonlyArray<string>,
  from: string,
  to: string,
  window: string | undefined
): Either.Either<Backfill, ConfigError> => {
  const can = backfillable().map((d) => d.name)
  const cannot = names.filter((n) => !can.includes(n))
  if (names.length === 0) {
    return Either.left(new ConfigError({ reason: "Missing", field: "dataset", detail: "name the datasets to backfill", fix: `choose from ${can.join(", ")}` }))
  }
  if (cannot.length > 0) {
    return Either.left(
      new ConfigError({
        reason: "Invalid",
        field: "dataset",
        detail: `${cannot.join(", ")} cannot be backfilled by time range (their history comes with every run, or by height ranges in the job file)`,
        fix: `choose from ${can.join(", ")}`
      })
    )
  }
  const start = parseInstant(from)
  if (start === undefined) return Either.left(new ConfigError({ reason: "Invalid", field: "--from", detail: `got "${from}"`, fix: 'pass a UTC date like 2025-01-01 or an instant like 2025-01-01T06:00:00Z' }))
  const end = parseInstant(to)
  if (end === undefined) return Either.left(new ConfigError({ reason: "Invalid", field: "--to", detail: `got "${to}"`, fix: 'pass a UTC date like 2025-02-01 or an instant like 2025-02-01T00:00:00Z' }))
  if (end <= start) return Either.left(new ConfigError({ reason: "Invalid", field: "--to", detail: `${to} is not after --from ${from} (the range is [from, to))`, fix: "pass a --to later than --from" }))
  if (window === undefined) return Either.right({ from: start, to: end })
  const size = parseDuration(window)
  if (size === undefined || size < 1) return Either.left(new ConfigError({ reason: "Invalid", field: "--window", detail: `got "${window}"`, fix: 'pass a duration like 1d, 6h or 30m' }))
  const fixed = names.filter((n) => registry.find((d) => d.name === n)?.windows === undefined)
  if (fixed.length > 0) {
    return Either.left(new ConfigError({ reason: "Invalid", field: "--window", detail: `${fixed.join(", ")} has windows of its own (calendar months)`, fix: "drop --window, or backfill it in a separate command" }))
  }
  return Either.right({ from: start, to: end, window: size })
}

/** The job's `incremental` section: windowed dataset names, durations that make sense. */
export const checkIncremental = (job: Job, source: string): Either.Either<Job, ConfigError> => {
  const names = windowed().map((d) => d.name)
  for (const [name, settings] of Object.entries(job.incremental)) {
    const field = `${source}: incremental.${name}`
    if (!names.includes(name)) {
      return Either.left(new ConfigError({ reason: "Unknown", field, detail: `${name} is not a windowed dataset`, fix: `use one of ${names.join(", ")}` }))
    }
    if (settings.window !== undefined && (parseDuration(settings.window) ?? 0) < 1) {
      return Either.left(new ConfigError({ reason: "Invalid", field: `${field}.window`, detail: `got "${settings.window}"`, fix: "give a window of at least 1s, e.g. 1d" }))
    }
  }
  return Either.right(job)
}
