/**
 * `npm run chaos`: the reliability campaigns of test/reliability/, longer.
 *
 *   npm run chaos                                  # 60 kills per emulator seed 1 and 2, then the full fault campaign
 *   npm run chaos -- --kills 200 --seeds 1,2,3,4   # more (--kills 0: no run campaign)
 *   npm run chaos -- --kill-seed 7 --no-faults     # other kill moments, kills only
 *   npm run chaos -- --compact-kills 100           # longer compaction campaign (0: none)
 *   npm run chaos -- --row-group-kills 50          # longer campaign over merges that move row groups (0: none)
 *
 * Kill campaign (per emulator seed): a real `chainetl run --emulator --emulator-seed S` is SIGKILLed
 * at seeded moments (after a commit, while staging a part, while writing a checkpoint, during the
 * catalog rebuild, on the writer lock, after a delay) and restarted until it finishes; an
 * uninterrupted run of the same seed is the reference. Compaction campaign (per emulator seed): an
 * uncompacted crawl (`--no-compact`) is compacted by `chainetl compact`, SIGKILLed after a merged
 * file, after a manifest commit, before and while deleting what it replaced, while staging, during
 * the catalog rebuild or after a delay, restarted until it finishes; the catalog on disk after
 * every kill and every finished compaction equal the uncompacted crawl. The same over a base of
 * parts of a reader's size, whose merges move row groups as they are (crawlRowGroupBase). Fault campaign (per emulator seed): a whole
 * run in this process against the emulator with 5xx, 429 bursts, resets and truncated bodies on
 * 20% of requests each, compared with a clean run. Both compare every dataset in DuckDB with
 * EXCEPT ALL both ways and list what a crash may leave behind. Exit code 1 on any difference.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { startEmulator } from "@chainetl/emulator"
import { table } from "../src/cli/table.ts"
import {
  CAMPAIGN_DATASETS,
  COMPACT_TRIGGERS,
  FAULT_CAMPAIGN_SOURCE,
  FULL_FAULTS,
  ROW_GROUP_CAMPAIGN,
  TRIGGERS,
  type CompactionCampaignConfig,
  type CompactionCampaignResult,
  campaignJob,
  crawlRowGroupBase,
  runCampaign,
  runCompactionCampaign,
  tempDir,
  writeCampaignJob
} from "../test/reliability/campaign.ts"
import { type DatasetDiff, type Leftovers, compareCatalogs, leftovers } from "../test/reliability/compare.ts"
import { runArgs, runCli } from "../test/reliability/cli.ts"
import { runInProcess } from "../test/support/spine.ts"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? undefined : process.argv[i + 1]
}
const flag = (name: string): boolean => process.argv.includes(`--${name}`)
const int = (name: string, fallback: number): number => {
  const raw = arg(name)
  const n = raw === undefined ? fallback : Number(raw)
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} wants a whole number, got ${raw}`)
  return n
}

const kills = int("kills", 60)
const compactKills = int("compact-kills", 30)
const rowGroupKills = int("row-group-kills", 20)
const killSeed = int("kill-seed", 1)
const partRows = int("part-rows", 20)
const seeds = (arg("seeds") ?? "1,2").split(",").map((s) => Number(s.trim()))
const faults = !flag("no-faults")
const killsToo = !flag("no-kills")
const verbose = flag("verbose")

interface Row {
  readonly campaign: string
  readonly seed: number
  readonly kills: number
  readonly runs: number
  readonly faults: number
  readonly datasets: number
  readonly rows: number
  readonly differences: number
  readonly leftovers: number
  readonly seconds: number
}

const differences = (diffs: ReadonlyArray<DatasetDiff>) => diffs.reduce((n, d) => n + d.onlyA + d.onlyB + Math.abs(d.rowsA - d.rowsB), 0)
const leftCount = (l: Leftovers) => l.staging.length + l.temps.length + l.locks.length + l.strayParts.length + l.deadFiles.length
const rowsCompared = (diffs: ReadonlyArray<DatasetDiff>) => diffs.reduce((n, d) => n + d.rowsB, 0)

const results: Row[] = []
const byTrigger = new Map<string, { killed: number; leftStaged: number; leftTemp: number; leftStray: number }>()
const problems: string[] = []

const print = (line: string) => console.log(line)

/**
 * A compaction kill campaign over `config.base`, added to the tables; `check` names what else is
 * wrong with the merges it saw (by how they were written), if anything.
 */
const compactionCampaign = async (
  label: string,
  seed: number,
  dir: string,
  config: Omit<CompactionCampaignConfig, "log">,
  check: (merges: CompactionCampaignResult["merges"]) => string | undefined = () => undefined
) => {
  const started = Date.now()
  const r = await runCompactionCampaign({ ...config, log: verbose ? print : undefined })
  for (const k of r.records.filter((x) => x.killed)) {
    const t = byTrigger.get(`compact ${k.plan.trigger}`) ?? { killed: 0, leftStaged: 0, leftTemp: 0, leftStray: 0 }
    byTrigger.set(`compact ${k.plan.trigger}`, { ...t, killed: t.killed + 1, leftStaged: t.leftStaged + (k.left.staging.length > 0 ? 1 : 0), leftTemp: t.leftTemp + (k.left.temps.length > 0 ? 1 : 0) })
  }
  const all = [...r.afterKills, ...r.rounds.map((x) => x.diffs)]
  const row: Row = {
    campaign: label,
    seed,
    kills: r.records.filter((x) => x.killed).length,
    runs: r.runs,
    faults: 0,
    datasets: r.rounds[0]?.diffs.filter((d) => d.rowsB > 0).length ?? 0,
    rows: all.reduce((n, d) => n + rowsCompared(d), 0),
    differences: all.reduce((n, d) => n + differences(d), 0),
    leftovers: r.rounds.reduce((n, x) => n + leftCount(x.left), 0),
    seconds: Math.round((Date.now() - started) / 1000)
  }
  results.push(row)
  const wrong = check(r.merges)
  if (wrong !== undefined) problems.push(`${label} seed ${seed}: ${wrong} (output kept in ${dir})`)
  if (row.differences > 0 || row.leftovers > 0) problems.push(`${label} seed ${seed}: ${JSON.stringify({ rounds: r.rounds, afterKills: r.afterKills })} (output kept in ${dir})`)
  else if (wrong === undefined) await fs.rm(dir, { recursive: true, force: true })
}

for (const seed of seeds) {
  if (killsToo && kills > 0) {
    const dir = await tempDir(`chaos-kill-${seed}`)
    const job = path.join(dir, "job.json")
    await writeCampaignJob(seed, job)
    print(`kill campaign: emulator seed ${seed}, kill seed ${killSeed + seed}, ${kills} kills, output ${dir}`)
    const r = await runCampaign({
      datasets: CAMPAIGN_DATASETS,
      job,
      emulatorSeed: seed,
      killSeed: killSeed + seed,
      kills,
      partRows,
      out: path.join(dir, "killed"),
      reference: path.join(dir, "reference"),
      log: verbose ? print : undefined
    })
    for (const k of r.records.filter((x) => x.killed)) {
      const t = byTrigger.get(k.plan.trigger) ?? { killed: 0, leftStaged: 0, leftTemp: 0, leftStray: 0 }
      byTrigger.set(k.plan.trigger, {
        killed: t.killed + 1,
        leftStaged: t.leftStaged + (k.left.staging.length > 0 ? 1 : 0),
        leftTemp: t.leftTemp + (k.left.temps.length > 0 ? 1 : 0),
        leftStray: t.leftStray + (k.left.strayParts.length > 0 ? 1 : 0)
      })
    }
    const row: Row = {
      campaign: "kill",
      seed,
      kills: r.records.filter((x) => x.killed).length,
      runs: r.runs,
      faults: 0,
      datasets: r.diffs.length,
      rows: rowsCompared(r.diffs),
      differences: differences(r.diffs),
      leftovers: leftCount(r.left),
      seconds: Math.round(r.ms / 1000)
    }
    results.push(row)
    if (row.differences > 0 || row.leftovers > 0) problems.push(`kill campaign seed ${seed}: ${JSON.stringify({ diffs: r.diffs, left: r.left })} (output kept in ${dir})`)
    else await fs.rm(dir, { recursive: true, force: true })
  }

  if (killsToo && compactKills > 0) {
    const dir = await tempDir(`chaos-compact-${seed}`)
    const job = path.join(dir, "job.json")
    await writeCampaignJob(seed, job)
    const base = path.join(dir, "base")
    print(`compaction kill campaign: emulator seed ${seed}, kill seed ${killSeed + seed}, ${compactKills} kills, output ${dir}`)
    const crawled = await runCli([...runArgs({ datasets: CAMPAIGN_DATASETS, job, out: base, partRows, emulatorSeed: seed }), "--no-compact", "--quiet"])
    if (crawled.code !== 0) throw new Error(`base crawl exited ${crawled.code}: ${crawled.stderr}`)
    await compactionCampaign("compaction kills", seed, dir, { base, work: path.join(dir, "compacted"), killSeed: killSeed + seed, kills: compactKills, targetRows: 60 })
  }

  if (killsToo && rowGroupKills > 0) {
    const dir = await tempDir(`chaos-row-groups-${seed}`)
    print(`compaction kill campaign by row groups: emulator seed ${seed}, kill seed ${killSeed + seed}, ${rowGroupKills} kills, output ${dir}`)
    const base = await crawlRowGroupBase(seed, dir)
    if (base.exit.code !== 0) throw new Error(`base crawl exited ${base.exit.code}: ${base.exit.stderr}`)
    await compactionCampaign("compaction kills, row groups moved", seed, dir, {
      ...ROW_GROUP_CAMPAIGN,
      base: base.out,
      work: path.join(dir, "compacted"),
      killSeed: killSeed + seed,
      kills: rowGroupKills
    }, (merges) => (Object.keys(merges).join() === "row groups moved" ? undefined : `merges written otherwise than by moving row groups: ${JSON.stringify(merges)}`))
  }

  if (faults) {
    const started = Date.now()
    const clean = await startEmulator({ seed })
    const faulty = await startEmulator({ seed, faults: { ...FULL_FAULTS, seed } })
    try {
      const job = campaignJob(clean)
      const cleanOut = await tempDir(`chaos-clean-${seed}`)
      const faultyOut = await tempDir(`chaos-faults-${seed}`)
      print(`fault campaign: emulator seed ${seed}, ${JSON.stringify({ ...FULL_FAULTS, seed })}, output ${faultyOut}`)
      await runInProcess(cleanOut, clean, { datasets: CAMPAIGN_DATASETS, job })
      const report = await runInProcess(faultyOut, faulty, { datasets: CAMPAIGN_DATASETS, job, source: FAULT_CAMPAIGN_SOURCE })
      const diffs = await compareCatalogs(faultyOut, cleanOut)
      const left = await leftovers(faultyOut)
      const met = faulty.state().requests
      const row: Row = {
        campaign: "faults 20%",
        seed,
        kills: 0,
        runs: 1,
        faults: Object.values(met.faults).reduce((a, b) => a + b, 0),
        datasets: diffs.filter((d) => d.rowsB > 0).length,
        rows: rowsCompared(diffs),
        differences: differences(diffs) + report.slices.filter((s) => s.status === "failed").length,
        leftovers: leftCount(left),
        seconds: Math.round((Date.now() - started) / 1000)
      }
      results.push(row)
      if (row.differences > 0 || row.leftovers > 0) {
        problems.push(`fault campaign seed ${seed}: ${JSON.stringify({ failed: report.slices.filter((s) => s.status === "failed"), diffs, left })} (output kept in ${faultyOut})`)
      } else {
        await fs.rm(cleanOut, { recursive: true, force: true })
        await fs.rm(faultyOut, { recursive: true, force: true })
      }
      print(`  faults met: ${JSON.stringify(met.faults)} in ${met.total} requests`)
    } finally {
      await clean.close()
      await faulty.close()
    }
  }
}

print("")
print(
  table(
    ["campaign", "emulator seed", "kills", "runs", "faults", "datasets with rows", "rows compared", "differences", "leftovers", "seconds"],
    results.map((r) => [r.campaign, r.seed, r.kills, r.runs, r.faults, r.datasets, r.rows, r.differences, r.leftovers, r.seconds])
  )
)
if (byTrigger.size > 0) {
  print("")
  print(
    table(
      ["kill moment", "kills", "left a staged part", "left a temp file", "left parts past a checkpoint"],
      [...TRIGGERS, ...COMPACT_TRIGGERS.map((t) => `compact ${t}`)].filter((t) => byTrigger.has(t)).map((t) => {
        const b = byTrigger.get(t)!
        return [t, b.killed, b.leftStaged, b.leftTemp, b.leftStray]
      })
    )
  )
}
print("")
if (problems.length > 0) {
  for (const p of problems) console.error(p)
  console.error(`chaos: ${problems.length} campaign(s) found differences or leftovers`)
  process.exitCode = 1
} else {
  print(`chaos: ${results.length} campaign(s), ${results.reduce((n, r) => n + r.kills, 0)} kills, ${results.reduce((n, r) => n + r.faults, 0)} faults, ${results.reduce((n, r) => n + r.rows, 0)} rows compared, differences = 0`)
}
