/**
 * Checks of what `chainetl backfill` and a job's `incremental` section ask for, before any
 * request: each names the flag or field and the fix (exit code 2).
 */
import { Effect, Either } from "effect"
import { datasets as registry } from "../../pipelines/index.ts"
import type { AnyDataset, Backfill } from "../crawl/Dataset.ts"
import { ConfigError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import { grainOnDisk } from "../sink/Layout.ts"
import { INSTANT_PATTERN, parseDuration, parseInstant } from "../Time.ts"

const windowed = (): ReadonlyArray<AnyDataset> => registry.filter((d) => d.windows !== undefined)
const backfillable = (): ReadonlyArray<AnyDataset> => registry.filter((d) => d.windows !== undefined || d.backfill !== undefined)

export const backfillableNames = (): ReadonlyArray<string> => backfillable().map((d) => d.name)

const HEIGHT = /^[0-9]{1,20}$/

const unitOf = (d: AnyDataset): "time" | "height" => (d.backfill === "height" ? "height" : "time")

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
        detail: `${cannot.join(", ")} cannot be backfilled by range (their routes take no range, or their history comes with every run)`,
        fix: `choose from ${can.join(", ")}`
      })
    )
  }
  const chosen = names.map((n) => registry.find((d) => d.name === n)!)
  const units = new Set(chosen.map(unitOf))
  if (units.size > 1) {
    const heights = chosen.filter((d) => unitOf(d) === "height").map((d) => d.name)
    return Either.left(new ConfigError({ reason: "Invalid", field: "dataset", detail: `${heights.join(", ")} take block heights, the others dates`, fix: "backfill them in separate commands" }))
  }
  return units.has("height") ? heightRange(from, to, window) : timeRange(chosen, from, to, window)
}

const badInstant = (text: string): string =>
  INSTANT_PATTERN.test(text.trim()) ? `"${text}" is not a day or time the calendar has` : `got "${text}"`

const timeRange = (chosen: ReadonlyArray<AnyDataset>, from: string, to: string, window: string | undefined): Either.Either<Backfill, ConfigError> => {
  const start = parseInstant(from)
  if (start === undefined) return Either.left(new ConfigError({ reason: "Invalid", field: "--from", detail: badInstant(from), fix: "pass a UTC date like 2025-01-01 or an instant like 2025-01-01T06:00:00Z" }))
  const end = parseInstant(to)
  if (end === undefined) return Either.left(new ConfigError({ reason: "Invalid", field: "--to", detail: badInstant(to), fix: "pass a UTC date like 2025-02-01 or an instant like 2025-02-01T00:00:00Z" }))
  if (end <= start) return Either.left(new ConfigError({ reason: "Invalid", field: "--to", detail: `${to} is not after --from ${from} (the range is [from, to))`, fix: "pass a --to later than --from" }))
  if (window === undefined) return Either.right({ unit: "time", from: start, to: end })
  const size = parseDuration(window)
  if (size === undefined || size < 1) return Either.left(new ConfigError({ reason: "Invalid", field: "--window", detail: `got "${window}"`, fix: "pass a duration like 1d, 6h or 30m" }))
  const fixed = chosen.filter((d) => d.windows === undefined).map((d) => d.name)
  if (fixed.length > 0) {
    return Either.left(new ConfigError({ reason: "Invalid", field: "--window", detail: `${fixed.join(", ")} has windows of its own (calendar months)`, fix: "drop --window, or backfill it in a separate command" }))
  }
  return Either.right({ unit: "time", from: start, to: end, window: size })
}

const heightRange = (from: string, to: string, window: string | undefined): Either.Either<Backfill, ConfigError> => {
  if (!HEIGHT.test(from)) return Either.left(new ConfigError({ reason: "Invalid", field: "--from", detail: `got "${from}"; these datasets are ordered by block height`, fix: "pass a block height like 1200000" }))
  if (!HEIGHT.test(to)) return Either.left(new ConfigError({ reason: "Invalid", field: "--to", detail: `got "${to}"; these datasets are ordered by block height`, fix: "pass a block height like 1300000" }))
  if (BigInt(to) <= BigInt(from)) return Either.left(new ConfigError({ reason: "Invalid", field: "--to", detail: `${to} is not above --from ${from} (the range is [from, to))`, fix: "pass a --to above --from" }))
  if (window === undefined) return Either.right({ unit: "height", from: BigInt(from).toString(), to: BigInt(to).toString() })
  if (!HEIGHT.test(window) || BigInt(window) < 1n) return Either.left(new ConfigError({ reason: "Invalid", field: "--window", detail: `got "${window}"`, fix: "pass a number of blocks like 1000" }))
  return Either.right({ unit: "height", from: BigInt(from).toString(), to: BigInt(to).toString(), window: BigInt(window).toString() })
}

/** The job's `partitionGrain` section: names of datasets that have a time partition. */
export const checkPartitionGrain = (job: Job, source: string): Either.Either<Job, ConfigError> => {
  const names = registry.filter((d) => d.timePartition !== undefined).map((d) => d.name)
  for (const name of Object.keys(job.partitionGrain)) {
    if (!names.includes(name)) {
      return Either.left(new ConfigError({ reason: "Unknown", field: `${source}: partitionGrain.${name}`, detail: `${name} has no time partition`, fix: `use one of ${names.join(", ")}` }))
    }
  }
  return Either.right(job)
}

/**
 * A dataset already on disk at another grain than the one asked for would mix `date=` and
 * `month=` folders, which no reader can glob as one table: refuse before any request.
 */
export const checkStoredGrains = (out: string, datasets: ReadonlyArray<AnyDataset>, source: string) =>
  Effect.gen(function* () {
    for (const d of datasets) {
      if (d.grain === undefined) continue
      const stored = yield* Effect.promise(() => grainOnDisk(out, d.name))
      if (stored !== undefined && stored !== d.grain) {
        return yield* Effect.fail(
          new ConfigError({
            reason: "Invalid",
            field: `${source}: partitionGrain.${d.name}`,
            detail: `${d.name} is stored by ${stored} in ${out}, the job asks for ${d.grain}`,
            fix: `keep "${stored}" for this output folder, or write the new grain to a fresh --out`
          })
        )
      }
    }
  })

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
