/**
 * How distributed runs hand slices over, from the environment (docs/scale-out.md#distributed-slices):
 *  - CHAINETL_WORKER_LEASE_SECONDS: a worker renews its hold on a job every third of this; a
 *    worker silent for this long loses the job (default 30, at least 3);
 *  - CHAINETL_QUEUE_SWEEP_SECONDS: how often the engine puts jobs whose lease ran out back in the
 *    queue (default 5, at least 1);
 *  - CHAINETL_QUEUE_POLL_MS: how often an idle worker asks for a job, and the enqueuer for
 *    progress (default 1000, at least 100).
 * A dead worker's slice is taken over within lease + sweep + 1 s (the retry delay) + poll
 * (about 37 s by default).
 */
import { Config, Effect } from "effect"
import { ConfigError } from "../Errors.ts"

export interface DistributedSettings {
  readonly leaseSeconds: number
  readonly sweepSeconds: number
  readonly pollMs: number
}

const whole = (name: string, fallback: number, min: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Effect.mapError(() => new ConfigError({ reason: "Invalid", field: name, detail: "not a whole number", fix: `export ${name}=${fallback}, or unset it` })),
    Effect.filterOrFail(
      (n) => n >= min,
      (n) => new ConfigError({ reason: "Invalid", field: name, detail: `got ${n}`, fix: `use a whole number ≥ ${min} (default ${fallback})` })
    )
  )

export const loadDistributedSettings: Effect.Effect<DistributedSettings, ConfigError> = Effect.all({
  leaseSeconds: whole("CHAINETL_WORKER_LEASE_SECONDS", 30, 3),
  sweepSeconds: whole("CHAINETL_QUEUE_SWEEP_SECONDS", 5, 1),
  pollMs: whole("CHAINETL_QUEUE_POLL_MS", 1000, 100)
})
