/**
 * Item 1 of the reliability campaign: a real `chainetl run` process, SIGKILLed at 20 seeded
 * moments (after a committed part, while staging a part, while writing a checkpoint, during the
 * catalog rebuild, on the writer lock, after a delay) and restarted each time until it finishes,
 * ends with exactly the rows of an uninterrupted run and leaves nothing behind.
 * Longer campaigns: `npm run chaos`.
 */
import { beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import { CAMPAIGN_DATASETS, type CampaignResult, TRIGGERS, runCampaign, tempDir, writeCampaignJob } from "./campaign.ts"

const EMULATOR_SEED = 1
const KILL_SEED = 20_251
const KILLS = 20

describe("kill campaign: SIGKILL a real run 20 times, restart it until it finishes", () => {
  let result: CampaignResult
  beforeAll(async () => {
    const dir = await tempDir("kill")
    const job = path.join(dir, "job.json")
    await writeCampaignJob(EMULATOR_SEED, job)
    result = await runCampaign({
      datasets: CAMPAIGN_DATASETS,
      job,
      emulatorSeed: EMULATOR_SEED,
      killSeed: KILL_SEED,
      kills: KILLS,
      partRows: 20,
      out: path.join(dir, "killed"),
      reference: path.join(dir, "reference"),
      log: (line) => process.env["CHAINETL_CHAOS_VERBOSE"] === "1" && console.log(line)
    })
  }, 600_000)

  it("given 20 seeded kill moments of every kind, when the campaign ran, then each process died by SIGKILL and the last one exited 0", () => {
    const killed = result.records.filter((r) => r.killed)
    expect(killed.length).toBe(KILLS)
    expect(killed.every((r) => r.exit.signal === "SIGKILL")).toBe(true)
    // every kind of moment landed, the catalog rebuild and checkpoint writes included
    expect(new Set(killed.map((r) => r.plan.trigger))).toEqual(new Set(TRIGGERS))
    expect(result.final.code).toBe(0)
    expect(result.reference.code).toBe(0)
  })

  it("given the killed-and-restarted output and an uninterrupted run of the same seed, when compared in DuckDB, then EXCEPT ALL is empty both ways for every dataset", () => {
    const datasets = result.diffs.map((d) => d.dataset)
    expect(datasets).toEqual(expect.arrayContaining([...CAMPAIGN_DATASETS, "_rejects"]))
    for (const d of result.diffs) {
      expect({ dataset: d.dataset, onlyKilled: d.onlyA, onlyReference: d.onlyB, rows: d.rowsA }).toEqual({
        dataset: d.dataset,
        onlyKilled: 0,
        onlyReference: 0,
        rows: d.rowsB
      })
    }
    // every campaign dataset has rows: an empty comparison would prove nothing
    for (const name of CAMPAIGN_DATASETS) expect(result.diffs.find((d) => d.dataset === name)?.rowsB).toBeGreaterThan(0)
  })

  it("given the finished campaign, when the output folder is listed, then no staged part, temporary file, lock or part past its checkpoint is left", () => {
    expect(result.left).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
  })
})
