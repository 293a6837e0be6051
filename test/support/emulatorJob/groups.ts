/**
 * The job a dataset group's tests run against an emulator: the default job with that group's
 * part (the node tests add the primary part too, address sets concatenated, as npm start's job).
 */
import type { RunningEmulator } from "@chainetl/emulator"
import { defaultJob, type Job } from "../../../src/Job.ts"
import { evmJobPart } from "./evm.ts"
import { metricsJobPart } from "./metrics.ts"
import { nodeJobPart } from "./node.ts"
import { primaryJobPart } from "./primary.ts"

/** The networks the primary datasets crawl: the default job's. */
export const NETWORKS = defaultJob.networks

export const nodeJob = (emu: RunningEmulator, extra: Partial<Job> = {}): Job => {
  const primary = primaryJobPart(emu)
  const node = nodeJobPart(emu)
  return { ...defaultJob, ...primary, ...node, addressSets: [...(primary.addressSets ?? []), ...(node.addressSets ?? [])], ...extra }
}

export const metricsJob = (emu: RunningEmulator): Job => ({ ...defaultJob, ...metricsJobPart(emu) })

export const evmJob = (emu: RunningEmulator): Job => ({ ...defaultJob, ...evmJobPart(emu) })
