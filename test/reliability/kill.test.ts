/**
 * Item 1 of the reliability campaign: a real `chainetl run` process, SIGKILLed at 20 seeded
 * moments (after a committed part, while staging a part, while writing a checkpoint, during the
 * catalog rebuild, on the writer lock, after a delay) and restarted each time until it finishes,
 * ends with exactly the rows of an uninterrupted run and leaves nothing behind.
 * The same for `chainetl compact`: killed after a merged file, after a manifest commit, before and
 * while it deletes what it replaced, while staging, during the catalog rebuild, after a delay.
 * Longer campaigns: `npm run chaos`.
 *
 * One uninterrupted crawl (`--no-compact`) serves both: the run campaign's reference and the
 * compaction campaign's uncompacted base. The two campaigns write to folders of their own and
 * run at the same time: the compaction campaign starts once the reference is done, while the run
 * campaign is still killing.
 */
import { beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import {
  CAMPAIGN_DATASETS,
  COMPACT_TRIGGERS,
  type CampaignResult,
  type CompactionCampaignResult,
  TRIGGERS,
  runCampaign,
  runCompactionCampaign,
  startReference,
  writeCampaignJob
} from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"

const EMULATOR_SEED = 1
const KILL_SEED = 20_251
const KILLS = 20
const COMPACT_KILLS = 8
const PART_ROWS = 20

const killDir = tempFolders("kill")

const log = (line: string) => process.env["CHAINETL_CHAOS_VERBOSE"] === "1" && console.log(line)

/** Both campaigns, started once for the file; each describe waits for its own. */
let campaigns: { readonly run: Promise<CampaignResult>; readonly compaction: Promise<CompactionCampaignResult> }

beforeAll(async () => {
  const dir = await killDir()
  const job = path.join(dir, "job.json")
  await writeCampaignJob(EMULATOR_SEED, job)
  const config = { datasets: CAMPAIGN_DATASETS, job, emulatorSeed: EMULATOR_SEED, partRows: PART_ROWS, reference: path.join(dir, "reference") }
  const reference = startReference(config, ["--no-compact"])
  const run = runCampaign({ ...config, killSeed: KILL_SEED, kills: KILLS, out: path.join(dir, "killed"), referenceRun: reference, log })
  const compaction = reference.then((crawled) => {
    if (crawled.code !== 0) throw new Error(`the reference crawl exited ${crawled.code}: ${crawled.stderr}`)
    return runCompactionCampaign({ base: config.reference, work: path.join(dir, "compacted"), killSeed: KILL_SEED, kills: COMPACT_KILLS, targetRows: 60, log })
  })
  // a failure is reported by the describe that waits for it, not as an unhandled rejection meanwhile
  run.catch(() => undefined)
  compaction.catch(() => undefined)
  campaigns = { run, compaction }
})

describe("kill campaign: SIGKILL a real run 20 times, restart it until it finishes", () => {
  let result: CampaignResult
  beforeAll(async () => {
    result = await campaigns.run
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

describe("kill campaign of compaction: SIGKILL chainetl compact 8 times, restart it until it finishes", () => {
  let result: CompactionCampaignResult
  beforeAll(async () => {
    result = await campaigns.compaction
  }, 600_000)

  it("given 8 seeded moments of every kind, when the campaign ran, then each landed by SIGKILL and every round's last compaction exited 0", () => {
    const killed = result.records.filter((r) => r.killed)
    expect(killed.length).toBe(COMPACT_KILLS)
    expect(killed.every((r) => r.exit.signal === "SIGKILL")).toBe(true)
    expect(new Set(killed.map((r) => r.plan.trigger))).toEqual(new Set(COMPACT_TRIGGERS))
    expect(result.rounds.length).toBeGreaterThan(0)
  })

  it("given the catalog on disk after each kill, when compared with the uncompacted output, then EXCEPT ALL is empty both ways: a reader opening it then sees every row once", () => {
    expect(result.afterKills).toHaveLength(COMPACT_KILLS)
    for (const diffs of result.afterKills) {
      for (const d of diffs) expect({ dataset: d.dataset, onlyKilled: d.onlyA, onlyBase: d.onlyB }).toEqual({ dataset: d.dataset, onlyKilled: 0, onlyBase: 0 })
    }
  })

  it("given each round's finished compaction, when compared and listed, then EXCEPT ALL is empty both ways, files dropped and nothing dead or temporary is left", () => {
    for (const r of result.rounds) {
      for (const d of r.diffs) {
        expect({ dataset: d.dataset, onlyCompacted: d.onlyA, onlyBase: d.onlyB, rows: d.rowsA }).toEqual({ dataset: d.dataset, onlyCompacted: 0, onlyBase: 0, rows: d.rowsB })
      }
      for (const name of CAMPAIGN_DATASETS) expect(r.diffs.find((d) => d.dataset === name)?.rowsB).toBeGreaterThan(0)
      expect(r.filesAfter).toBeLessThan(r.filesBefore)
      expect(r.left).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
    }
  })
})
