/**
 * `chainetl compact` end to end, real processes: a crawl of the emulator with small parts
 * (`--no-compact`), then compaction; every dataset reads the same rows as the uncompacted copy
 * (EXCEPT ALL both ways), partitions hold a few files, and a second run plus compaction still
 * equals the same two runs without compaction.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { defaultNow } from "@chainetl/emulator"
import { readManifest } from "../../src/compact/Manifest.ts"
import { CAMPAIGN_DATASETS, writeCampaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type CliExit, runArgs, runCli } from "./cli.ts"
import { type DatasetDiff, compareCatalogs, filesBelow, leftovers } from "./compare.ts"

const SEED = 3

/** Data files per partition folder (every folder holding a .parquet below a table). */
export const filesPerFolder = async (out: string): Promise<Map<string, number>> => {
  const counts = new Map<string, number>()
  for (const f of await filesBelow(out)) {
    if (!f.endsWith(".parquet") || (f.startsWith("_") && !f.startsWith("_rejects/"))) continue
    counts.set(path.dirname(f), (counts.get(path.dirname(f)) ?? 0) + 1)
  }
  return counts
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)

const expectEqual = (diffs: ReadonlyArray<DatasetDiff>) => {
  for (const d of diffs) {
    expect({ dataset: d.dataset, onlyCompacted: d.onlyA, onlyPlain: d.onlyB, rows: d.rowsA }).toEqual({ dataset: d.dataset, onlyCompacted: 0, onlyPlain: 0, rows: d.rowsB })
  }
  for (const name of CAMPAIGN_DATASETS) expect(diffs.find((d) => d.dataset === name)?.rowsB).toBeGreaterThan(0)
}

describe("chainetl compact, end to end", () => {
  const compactDir = tempFolders("compact")
  let dir: string
  let job: string
  const out = () => path.join(dir, "compacted")
  const plain = () => path.join(dir, "plain")
  const crawl = (to: string) => runCli([...runArgs({ datasets: CAMPAIGN_DATASETS, job, out: to, partRows: 20, emulatorSeed: SEED }), "--no-compact", "--quiet"])
  let first: { crawl: CliExit; compact: CliExit; before: Map<string, number>; after: Map<string, number>; diffs: DatasetDiff[] }

  beforeAll(async () => {
    dir = await compactDir()
    job = path.join(dir, "job.json")
    await writeCampaignJob(SEED, job)
    const crawled = await crawl(out())
    await fs.cp(out(), plain(), { recursive: true })
    const before = await filesPerFolder(out())
    // the copy's catalog points at the original's files: it is rebuilt over its own while the
    // original is compacted (two folders, nothing shared)
    const [catalogued, compacted] = await Promise.all([runCli(["catalog", "--out", plain()]), runCli(["compact", "--out", out()])])
    if (catalogued.code !== 0) throw new Error(`catalog of the copy exited ${catalogued.code}: ${catalogued.stderr}`)
    first = { crawl: crawled, compact: compacted, before, after: await filesPerFolder(out()), diffs: await compareCatalogs(out(), plain()) }
  }, 300_000)

  it("given a crawl in parts of 20 rows, when compacted, then it exits 0 and every dataset reads exactly the same rows (EXCEPT ALL both ways)", () => {
    expect(first.crawl.code).toBe(0)
    expect(first.compact.code).toBe(0)
    expect(first.compact.stdout).toMatch(/files merged into/)
    expectEqual(first.diffs)
  })

  it("given the compacted folder, when its files are counted, then they dropped to a few per partition and nothing dead is left", async () => {
    // many folders hold one day's single part: compaction has nothing to merge there
    expect(sum(first.after)).toBeLessThan(sum(first.before))
    expect(Math.max(...first.before.values())).toBeGreaterThanOrEqual(3)
    // what may stay beside a compacted file: the parts of windows not final yet (their end is past
    // the run's as-of, named in the part's slice id), however many their rows filled
    const asOf = defaultNow(SEED)
    const open = (file: string): boolean => {
      const ends = [...path.basename(file).matchAll(/(\d{4}-\d{2}-\d{2})t(\d{2})-(\d{2})-(\d{2})z/g)].map((m) => Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) / 1000)
      return ends.length === 2 && (ends[1] as number) > asOf
    }
    const openParts = new Map<string, number>()
    for (const f of await filesBelow(out())) if (f.endsWith(".parquet") && open(f)) openParts.set(path.dirname(f), (openParts.get(path.dirname(f)) ?? 0) + 1)
    for (const [folder, n] of first.after) expect(n - (openParts.get(folder) ?? 0), folder).toBeLessThanOrEqual(1)
    expect(first.after.size).toBe(first.before.size)
    expect(await leftovers(out())).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
    const manifest = await readManifest(out(), "primary_blocks")
    expect(manifest.files.length).toBeGreaterThan(0)
  })

  it("given a second run with nightly compaction and a second compact, when compared with the same two runs never compacted, then no row is doubled or lost", async () => {
    // the same second run on both folders, at once (each starts its own emulator of the same seed)
    const [again, plainAgain] = await Promise.all([runCli([...runArgs({ datasets: CAMPAIGN_DATASETS, job, out: out(), partRows: 20, emulatorSeed: SEED }), "--quiet"]), crawl(plain())])
    const compactedAgain = await runCli(["compact", "--out", out()])
    expect([again.code, plainAgain.code, compactedAgain.code]).toEqual([0, 0, 0])
    expectEqual(await compareCatalogs(out(), plain()))
    expect(await leftovers(out())).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
  }, 300_000)
})
