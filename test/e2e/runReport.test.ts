import { Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Progress } from "../../src/crawl/Progress.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { defaultJob } from "../../src/Job.ts"
import type { RunReport } from "../../src/Runner.ts"
import { emulatorIncremental } from "../support/emulatorJob/primary.ts"
import { tempFolders } from "../support/fixtures.ts"
import { runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("runReport")

describe("the run report", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given a run, when its first slice starts, then the report is on disk as running; when it ends, it holds every slice's costs", async () => {
    const out = await tempOut()
    const job = { ...defaultJob, networks: ["mainnet" as const], primaryBlockchains: ["p-chain" as const], incremental: emulatorIncremental(emu) }
    const atStart: RunReport[] = []
    // a listener that reads the report file the moment the first slice starts
    const peek = Layer.succeed(Progress, {
      emit: (e) =>
        e.type === "slice_started" && atStart.length === 0
          ? Effect.promise(async () => {
              const [file] = await fs.readdir(path.join(out, "_runs"))
              atStart.push(JSON.parse(await fs.readFile(path.join(out, "_runs", file!), "utf8")) as RunReport)
            })
          : Effect.void
    })
    const before = emu.state().requests.total
    const report = await Effect.runPromise(runSpine(out, emu, { datasets: ["primary_blocks"], job }, (e) => Effect.provide(e, peek)))
    const requests = emu.state().requests.total - before

    expect(atStart[0]).toMatchObject({ runId: report.runId, status: "running", finishedAt: null, mode: "run", planned: report.planned, slices: [] })
    const saved = JSON.parse(await fs.readFile(path.join(out, "_runs", `${report.runId}.json`), "utf8")) as RunReport
    expect(saved).toEqual(JSON.parse(JSON.stringify(report)))
    expect(saved.status).toBe("succeeded")
    expect(saved.slices).toHaveLength(saved.planned)
    expect(saved.slices.reduce((n, s) => n + s.requests, 0)).toBe(requests)
    expect(saved.slices.reduce((n, s) => n + s.pages, 0)).toBe(requests)
    expect(saved.slices.every((s) => s.bytes > 0 && s.retries === 0 && s.rateLimited === 0 && s.durationMs >= 0)).toBe(true)
    const [host] = Object.values(saved.hosts)
    expect(host).toMatchObject({ requests, retries: 0, rateLimited: 0, bytesReceived: saved.slices.reduce((n, s) => n + s.bytes, 0) })
  }, 60_000)
})
