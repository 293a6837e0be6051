/**
 * Shared setup of the EVM pipeline tests: an in-process emulator without rate limits, the job the
 * EVM group would add to the emulator job file, runs of the real spine, and DuckDB reads.
 */
import { Effect } from "effect"
import { expect } from "vitest"
import * as path from "node:path"
import { startEmulator, type RunningEmulator } from "@chainetl/emulator"
import { defaultJob, type Job } from "../../../src/Job.ts"
import type { RunReport } from "../../../src/Runner.ts"
import { evmJobPart } from "../../support/emulatorJob/evm.ts"
import { query, runSpine } from "../../support/spine.ts"

export const startEvmEmulator = async (seed: number): Promise<{ emu: RunningEmulator; job: Job }> => {
  const emu = await startEmulator({ seed, rateLimit: { keylessPerSecond: 0, keyedPerSecond: 0, metricsPerSecond: 0 } })
  return { emu, job: { ...defaultJob, ...evmJobPart(emu) } }
}

/** Runs the named datasets through the spine and insists the run succeeded. */
export const crawl = async (out: string, emu: RunningEmulator, job: Job, datasets: ReadonlyArray<string>): Promise<RunReport> => {
  const report = await Effect.runPromise(runSpine(out, emu, { job, datasets }))
  expect(report.slices.filter((s) => s.status === "failed")).toEqual([])
  expect(report.status).toBe("succeeded")
  return report
}

export const catalogOf = (out: string) => path.join(out, "catalog.duckdb")

/** Column name → DuckDB type of a view. */
export const columnTypes = async (out: string, view: string): Promise<Record<string, string>> =>
  Object.fromEntries((await query(catalogOf(out), `DESCRIBE ${view}`)).map((r) => [String(r["column_name"]), String(r["column_type"])]))

export const rows = (out: string, sql: string) => query(catalogOf(out), sql)

/** GET a chain-data route of the emulator with plain fetch: its own answer, to compare rows with. */
export const getJson = async (emu: RunningEmulator, route: string): Promise<any> => {
  const res = await fetch(`${emu.baseUrl}${route}`)
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** Logical requests the emulator has served so far. */
export const served = (emu: RunningEmulator): number => emu.state().requests.total
