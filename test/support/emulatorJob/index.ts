/**
 * The default job of `npm start`: each dataset group picks, from the emulator's default world,
 * the entities that make its datasets non-empty. The result is committed as
 * pipelines/jobs/emulator.json (the pipeline reads a file, never the emulator); a test fails when
 * the file and the emulator drift apart: regenerate with `npm run job:emulator`.
 */
import type { RunningEmulator } from "@chainetl/emulator"
import { defaultJob, type Job } from "../../../src/Job.ts"
import { evmJobPart } from "./evm.ts"
import { metricsJobPart } from "./metrics.ts"
import { nodeJobPart } from "./node.ts"
import { primaryJobPart } from "./primary.ts"

/** Parts may both list address sets: they are concatenated, everything else is merged. */
export const emulatorJob = (emu: RunningEmulator): Job => {
  const primary = primaryJobPart(emu)
  // the node part names only address sets the primary part lacks
  const parts: ReadonlyArray<Partial<Job>> = [primary, nodeJobPart(emu), evmJobPart(emu), metricsJobPart(emu)]
  const addressSets = parts.flatMap((p) => p.addressSets ?? [])
  const merged = Object.assign({}, ...parts) as Partial<Job>
  return { ...defaultJob, ...merged, addressSets }
}

/** The job as the committed file spells it: only what differs from the defaults, stable key order. */
export const emulatorJobFile = (emu: RunningEmulator): string => {
  const job = emulatorJob(emu)
  const differs = Object.entries(job).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify((defaultJob as Record<string, unknown>)[k]))
  return `${JSON.stringify(Object.fromEntries(differs), null, 2)}\n`
}
