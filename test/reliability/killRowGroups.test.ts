/**
 * The compaction kill campaign over merges that move row groups as they are (ParquetConcat.ts):
 * the other campaigns' parts are too small for that path, so DuckDB writes all their merges. Here
 * the base's parts are of a reader's size (crawlRowGroupBase), `chainetl compact` is SIGKILLed at
 * one moment of every kind, the copy of the merged file's bytes included (the `staging` moment),
 * and restarted until it finishes. A reader of the catalog after every kill, and every finished
 * round, must see exactly the base's rows.
 */
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { COMPACT_TRIGGERS, type CompactionCampaignResult, ROW_GROUP_CAMPAIGN, crawlRowGroupBase, runCompactionCampaign } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"

const EMULATOR_SEED = 1
const KILL_SEED = 31_337
const KILLS = COMPACT_TRIGGERS.length

const log = (line: string) => process.env["CHAINETL_CHAOS_VERBOSE"] === "1" && console.log(line)

describe("kill campaign of compaction by row groups: SIGKILL chainetl compact at every kind of moment while it moves row groups", () => {
  const killDir = tempFolders("kill-row-groups")
  let result: CompactionCampaignResult
  beforeAll(async () => {
    const dir = await killDir()
    const base = await crawlRowGroupBase(EMULATOR_SEED, dir)
    if (base.exit.code !== 0) throw new Error(`the base crawl exited ${base.exit.code}: ${base.exit.stderr}`)
    result = await runCompactionCampaign({ ...ROW_GROUP_CAMPAIGN, base: base.out, work: path.join(dir, "compacted"), killSeed: KILL_SEED, kills: KILLS, log })
  }, 300_000)

  it("given parts of ~4 MB row groups, when compacted, then every merge moved their row groups as they are (none was written by DuckDB)", () => {
    expect(Object.keys(result.merges)).toEqual(["row groups moved"])
    expect(result.merges["row groups moved"]).toBeGreaterThanOrEqual(2)
  })

  it("given one seeded moment of every kind, when the campaign ran, then each landed by SIGKILL, one of them while a merged file was being staged", () => {
    const killed = result.records.filter((r) => r.killed)
    expect(killed.length).toBe(KILLS)
    expect(killed.every((r) => r.exit.signal === "SIGKILL")).toBe(true)
    expect(new Set(killed.map((r) => r.plan.trigger))).toEqual(new Set(COMPACT_TRIGGERS))
    // killed between the staged file's creation and its rename: the copy, its checks or its fsync
    expect(killed.some((r) => r.left.staging.some((f) => f.includes("compact.primary_blocks.")))).toBe(true)
  })

  it("given the catalog on disk after each kill, when compared with the uncompacted base, then EXCEPT ALL is empty both ways", () => {
    expect(result.afterKills).toHaveLength(KILLS)
    for (const diffs of result.afterKills) {
      for (const d of diffs) expect({ dataset: d.dataset, onlyKilled: d.onlyA, onlyBase: d.onlyB }).toEqual({ dataset: d.dataset, onlyKilled: 0, onlyBase: 0 })
    }
  })

  it("given each round's finished compaction, when compared and listed, then it holds the base's rows in fewer files and nothing staged, temporary or dead is left", () => {
    expect(result.rounds.length).toBeGreaterThan(0)
    for (const r of result.rounds) {
      const blocks = r.diffs.find((d) => d.dataset === "primary_blocks")
      expect(blocks?.rowsB).toBeGreaterThan(20_000)
      for (const d of r.diffs) {
        expect({ dataset: d.dataset, onlyCompacted: d.onlyA, onlyBase: d.onlyB, rows: d.rowsA }).toEqual({ dataset: d.dataset, onlyCompacted: 0, onlyBase: 0, rows: d.rowsB })
      }
      expect(r.filesAfter).toBeLessThan(r.filesBefore)
      expect(r.left).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
    }
  })
})
