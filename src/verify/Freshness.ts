/**
 * Freshness: how old each dataset's data is, against the SLA its job gives it (`"freshness":
 * {"primary_blocks": "26h"}`). A windowed dataset is as fresh as its least fresh listing's
 * watermark (status's: its history is complete up to there); another dataset as the as-of of the
 * newest run that finished one of its slices (or, from an older checkpoint without one, when it
 * was written). Pure.
 */
import { Either } from "effect"
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import { ConfigError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import { closest } from "../DidYouMean.ts"
import { parseDuration } from "../Time.ts"
import type { Finding } from "./Finding.ts"

/** The job's `freshness` names datasets of the registry, each with a duration of at least a second. */
export const checkFreshness = (job: Job, names: ReadonlyArray<string>, source: string): Either.Either<Job, ConfigError> => {
  for (const [name, sla] of Object.entries(job.freshness)) {
    const field = `${source}: freshness.${name}`
    if (!names.includes(name)) {
      const near = closest(name, names)
      return Either.left(new ConfigError({ reason: "Unknown", field, detail: `${name} is not a dataset${near === undefined ? "" : ` (did you mean ${near}?)`}`, fix: `use one of ${names.join(", ")}` }))
    }
    if ((parseDuration(sla) ?? 0) < 1) return Either.left(new ConfigError({ reason: "Invalid", field, detail: `got "${sla}"`, fix: 'give a duration of at least 1s, e.g. "26h"' }))
  }
  return Either.right(job)
}

/** When a dataset's data was last known complete (Unix seconds), from its checkpoints; undefined when nothing finished. */
export const newestOf = (states: ReadonlyArray<CheckpointState>, watermarks: ReadonlyArray<number | null> | undefined): number | undefined => {
  if (watermarks !== undefined) {
    // the least fresh listing decides; a listing with nothing complete yet has no age to give
    const known = watermarks.filter((w): w is number => w !== null)
    return known.length === 0 ? undefined : Math.min(...known)
  }
  const done = states.filter((s) => s.status === "done")
  const times = done.map((s) => s.completedAsOf ?? Math.floor(Date.parse(s.updatedAt) / 1000)).filter((t) => Number.isFinite(t))
  return times.length === 0 ? undefined : Math.max(...times)
}

/** Seconds behind `now`, never negative (an emulated as-of can be ahead of this machine). */
export const lagOf = (now: number, newest: number | undefined): number | undefined => (newest === undefined ? undefined : Math.max(0, now - newest))

export const freshnessFinding = (dataset: string, sla: string, lag: number | undefined): Finding | undefined => {
  const limit = parseDuration(sla)!
  if (lag !== undefined && lag <= limit) return undefined
  return {
    dataset,
    check: "freshness",
    listing: {},
    what: lag === undefined ? `has no finished slice, its freshness SLA is ${sla}` : `is ${hours(lag)} old, its freshness SLA is ${sla}`,
    repair: { kind: "run", dataset }
  }
}

const hours = (s: number): string => (s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`)
