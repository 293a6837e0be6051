import { Either } from "effect"
import { checkIncremental } from "../../src/cli/backfillPlan.ts"
import { promises as fs } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EMULATOR_JOB } from "../../src/cli/runCommand.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { loadJobFile } from "../../src/Job.ts"
import { emulatorJobFile } from "../support/emulatorJob/index.ts"

describe("pipelines/jobs/emulator.json", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    // the world `npm start` crawls: the emulator's defaults
    emu = await startEmulator()
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the default emulator world, when the job is derived from it, then the committed file is exactly that job (else: npm run job:emulator)", async () => {
    expect(await fs.readFile(EMULATOR_JOB, "utf8")).toBe(emulatorJobFile(emu))
  })

  it("given the committed file, when it is loaded, then it validates and names address sets, contracts and holders", async () => {
    const job = await loadJobFile(EMULATOR_JOB)
    expect(Either.isRight(job)).toBe(true)
    const j = Either.getOrThrow(job)
    expect(j.addressSets.length).toBeGreaterThan(0)
    expect(j.tokenContracts.length).toBeGreaterThan(0)
    expect(j.tokenHolders.length).toBeGreaterThan(0)
  })
})

describe("pipelines/jobs/mainnet.example.json", () => {
  it("given the documented job for the real services, when it is loaded, then it validates", async () => {
    const job = await loadJobFile(EMULATOR_JOB.replace("emulator.json", "mainnet.example.json"))
    expect(Either.isRight(job)).toBe(true)
    expect(Either.isRight(checkIncremental(Either.getOrThrow(job), "mainnet.example.json"))).toBe(true)
    expect(Either.getOrThrow(job).incremental["primary_blocks"]).toEqual({ window: "1d", lookback: "2h", since: "2025-01-01" })
    expect(Either.getOrThrow(job).tokenContracts.map((c) => c.address)).toEqual([
      "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
      "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7"
    ])
  })
})
