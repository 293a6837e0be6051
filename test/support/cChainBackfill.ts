/**
 * `backfill primary_blocks` of mainnet's C-chain in this process, the case the tests of a
 * backfill's windows share (cutListings.test.ts, probedFirstPages.test.ts): one dataset, parts of
 * 1,000 rows, four slices at once, the emulator's clock as the as-of.
 */
import { Effect } from "effect"
import type { RunningEmulator } from "@chainetl/emulator"
import { defaultJob } from "../../src/Job.ts"
import { type RunOptions, type RunReport, run } from "../../src/Runner.ts"
import { emulatorJob } from "./emulatorJob/index.ts"
import { spineLayers } from "./spine.ts"

export interface CChainBackfill {
  /** Unix seconds: the range's first instant and the one past it, and the windows' length. */
  readonly from: number
  readonly to: number
  readonly window: number
  /** Where the services are asked (a proxy before the emulator); the emulator's own URL by default. */
  readonly baseUrl?: string
  readonly cutListings?: RunOptions["cutListings"]
}

export const cChainBackfill = (emu: RunningEmulator, out: string, options: CChainBackfill): Promise<RunReport> =>
  Effect.runPromise(
    run({
      out,
      job: { ...defaultJob, ...emulatorJob(emu), networks: ["mainnet"], primaryBlockchains: ["c-chain"] },
      datasets: ["primary_blocks"],
      partRows: 1_000,
      sliceConcurrency: 4,
      asOf: emu.clock.now(),
      backfill: { unit: "time", from: options.from, to: options.to, window: options.window },
      ...(options.cutListings === undefined ? {} : { cutListings: options.cutListings })
    }).pipe(Effect.provide(spineLayers(out, { ...emu, baseUrl: options.baseUrl ?? emu.baseUrl })))
  )
