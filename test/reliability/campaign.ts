/**
 * The kill campaign: a real `chainetl run` process is SIGKILLed at seeded moments and restarted
 * until it finishes; an uninterrupted run of the same emulator seed is the reference. Used by
 * test/reliability/kill.test.ts (small, in CI) and scripts/chaos.ts (longer).
 *
 * Both runs start the emulator in their own process (`run --emulator --emulator-seed N`): same
 * seed, same network, and the run's as-of is the emulator's clock, so the two runs agree on
 * snapshot dates whatever the wall clock does meanwhile. (A killed process takes its emulator
 * with it; the restarted one meets a fresh emulator that does not know the old metrics page
 * tokens, as after a service restart.)
 *
 * Kill moments are drawn from a seeded generator and tied to what the process is doing, seen from
 * outside: the n-th committed part on its debug log, the n-th file it stages, the n-th checkpoint
 * it writes, the catalog rebuild, the writer lock, or a delay after the run began.
 */
import * as fs from "node:fs"
import { promises as fsp } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { type RunningEmulator, defaultNow, startEmulator } from "@chainetl/emulator"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import type { Job } from "../../src/Job.ts"
import { emulatorJob } from "../support/emulatorJob/index.ts"
import { type CliExit, runArgs, startCli } from "./cli.ts"
import { type DatasetDiff, type Leftovers, compareCatalogs, filesBelow, leftovers } from "./compare.ts"

/** A small deterministic generator (mulberry32): the campaign's only source of chance. */
export const rng = (seed: number) => {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) }
}

export const TRIGGERS = ["commit", "staging", "checkpoint", "catalog", "lock", "time"] as const
/**
 * Moments of a compaction: after a merged file is renamed into its folder, after a manifest
 * commit, just before (or, with a delay, while) the replaced files are deleted; besides the
 * staged merged file, the catalog rebuild between commit and deletion, the lock and a delay.
 */
export const COMPACT_TRIGGERS = ["merged", "manifest", "delete", "staging", "catalog", "time"] as const
export type Trigger = (typeof TRIGGERS)[number] | (typeof COMPACT_TRIGGERS)[number]

/** Triggers seen on the process's debug log (stdout), not on the folder. */
const LINE_TRIGGERS: Partial<Record<Trigger, RegExp>> = {
  commit: /part \d+ committed/,
  merged: /compaction: \S+ merged \d+ files/,
  manifest: /compaction: \S+ manifest committed/,
  delete: /compaction: deleting \d+ dead files/
}

export interface KillPlan {
  readonly trigger: Trigger
  /** Which occurrence of the trigger's event kills (1 = the first). */
  readonly nth: number
  /** Delay between the event and the SIGKILL. */
  readonly delayMs: number
}

/**
 * Kill moments, endless: the first six are one of each trigger (in a seeded order), the rest are
 * drawn with commits weighted up, since they make the progress. A moment that did not come (the
 * process finished first) is not a kill: `again` draws a new moment of the same trigger.
 */
export const killPlanner = (seed: number, triggers: ReadonlyArray<Trigger> = TRIGGERS, nthAtMost: Partial<Record<Trigger, number>> = {}) => {
  const r = rng(seed)
  // a process with few events of a kind (a compaction of two merges) has its later ones drawn
  // as its last: a moment that never comes costs a whole run
  const draw = (trigger: Trigger): KillPlan => {
    const plan = drawPlan(trigger)
    return { ...plan, nth: Math.min(plan.nth, nthAtMost[trigger] ?? plan.nth) }
  }
  const drawPlan = (trigger: Trigger): KillPlan => {
    switch (trigger) {
      case "merged":
        return { trigger, nth: r.int(1, 6), delayMs: r.int(0, 5) }
      case "manifest":
        return { trigger, nth: r.int(1, 3), delayMs: r.int(0, 5) }
      case "delete":
        return { trigger, nth: 1, delayMs: r.int(0, 3) }
      case "commit":
        return { trigger, nth: r.int(1, 3), delayMs: r.int(0, 40) }
      case "staging":
        return { trigger, nth: r.int(1, 4), delayMs: 0 }
      case "checkpoint":
        return { trigger, nth: r.int(1, 3), delayMs: 0 }
      case "catalog":
        // the rebuild DESCRIBEs every dataset's parts: tens to hundreds of ms
        return { trigger, nth: 1, delayMs: r.int(0, 60) }
      case "lock":
        return { trigger, nth: 1, delayMs: 0 }
      case "time":
        return { trigger, nth: 1, delayMs: r.int(0, 1000) }
    }
  }
  const first = [...triggers]
  for (let i = first.length - 1; i > 0; i--) {
    const j = r.int(0, i)
    ;[first[i], first[j]] = [first[j]!, first[i]!]
  }
  const weighted: Array<[Trigger, number]> = [["commit", 4], ["staging", 2], ["checkpoint", 2], ["catalog", 1], ["lock", 1], ["time", 2], ["merged", 3], ["manifest", 2], ["delete", 2]]
  const weights = weighted.filter(([t]) => triggers.includes(t))
  const total = weights.reduce((s, [, w]) => s + w, 0)
  return {
    next: (): KillPlan => {
      const t = first.shift()
      if (t !== undefined) return draw(t)
      let u = r.next() * total
      return draw((weights.find(([, w]) => (u -= w) < 0) ?? weights[0]!)[0])
    },
    again: (plan: KillPlan): KillPlan => draw(plan.trigger)
  }
}

/** What one kill left behind, seen before the next process starts. */
export interface KillRecord {
  readonly plan: KillPlan
  /** False when the process finished before the moment came (then it was not killed). */
  readonly killed: boolean
  readonly exit: CliExit
  readonly left: Leftovers
}

export interface CampaignConfig {
  readonly datasets: ReadonlyArray<string>
  /** A job file the datasets run with. */
  readonly job: string
  readonly emulatorSeed: number
  readonly killSeed: number
  readonly kills: number
  readonly partRows: number
  /** Folder of the killed-and-restarted run and of the reference run (created). */
  readonly out: string
  readonly reference: string
  /**
   * The reference run into `reference`, when the caller started it (startReference): the
   * campaign then waits for it instead of starting its own.
   */
  readonly referenceRun?: Promise<CliExit>
  readonly log?: (line: string) => void
}

export interface CampaignResult {
  readonly records: ReadonlyArray<KillRecord>
  /** Runs started, the reference excluded (kills + runs that finished before their moment + the final run). */
  readonly runs: number
  readonly final: CliExit
  readonly reference: CliExit
  readonly diffs: ReadonlyArray<DatasetDiff>
  readonly left: Leftovers
  readonly ms: number
}

const STAGED = /^_staging\/.+\.parquet$/
const CHECKPOINT_TMP = /^_state\/checkpoints\/.+\.json\.tmp-\d+$/
const CATALOG_TMP = /^catalog\.duckdb\.tmp-\d+$/
const LOCK = /^_state\/writer\.lock/
/** One process; killed at `plan`'s moment unless it exits first. */
export const runUntilKilled = (config: CampaignConfig, plan: KillPlan | undefined): Promise<{ exit: CliExit; killed: boolean }> =>
  commandUntilKilled(
    config.out,
    runArgs({ datasets: config.datasets, job: config.job, out: config.out, partRows: config.partRows, emulatorSeed: config.emulatorSeed }),
    plan
  )

/** Any chainetl command writing into `out`; killed at `plan`'s moment unless it exits first. */
export const commandUntilKilled = async (out: string, args: ReadonlyArray<string>, plan: KillPlan | undefined): Promise<{ exit: CliExit; killed: boolean }> => {
  const config = { out }
  await fsp.mkdir(config.out, { recursive: true })
  const cli = startCli(args, { CHAINETL_LOG_LEVEL: "debug" })
  let killed = false
  let seen = 0
  const kill = () => {
    if (killed) return
    killed = true
    const fire = () => cli.kill()
    if (plan !== undefined && plan.delayMs > 0) setTimeout(fire, plan.delayMs)
    else fire()
  }
  const count = () => {
    if (plan !== undefined && ++seen === plan.nth) kill()
  }
  const names = new Set<string>()
  const watcher =
    plan === undefined || LINE_TRIGGERS[plan.trigger] !== undefined
      ? undefined
      : fs.watch(config.out, { recursive: true }, (event, name) => {
          if (name === null || plan === undefined) return
          const f = name.split(path.sep).join("/")
          switch (plan.trigger) {
            case "staging":
              // staged names are unique: the first event of a name is its creation
              if (STAGED.test(f) && !names.has(f)) {
                names.add(f)
                count()
              }
              return
            case "checkpoint":
              // the tmp name repeats per slice: a `rename` on a name not there before is a creation
              if (event === "rename" && CHECKPOINT_TMP.test(f)) {
                if (names.has(f)) names.delete(f)
                else {
                  names.add(f)
                  count()
                }
              }
              return
            case "catalog":
              if (CATALOG_TMP.test(f)) count()
              return
            case "lock":
              if (LOCK.test(f)) count()
              return
            case "time":
              if (LOCK.test(f)) count()
              return
            default:
              return
          }
        })
  watcher?.on("error", () => undefined)
  const line = plan === undefined ? undefined : LINE_TRIGGERS[plan.trigger]
  if (line !== undefined) cli.onLine((l) => line.test(l) && count())
  const exit = await cli.exited.finally(() => watcher?.close())
  return { exit, killed: exit.signal === "SIGKILL" }
}

/**
 * The uninterrupted run of the campaign's seed into `config.reference`. `extra` arguments change
 * how it finishes, not which rows it writes (`--no-compact`: its parts stay as crawled, so the same
 * folder can be the compaction campaign's base).
 */
export const startReference = (config: Omit<CampaignConfig, "killSeed" | "kills" | "out">, extra: ReadonlyArray<string> = []): Promise<CliExit> =>
  startCli([...runArgs({ datasets: config.datasets, job: config.job, out: config.reference, partRows: config.partRows, emulatorSeed: config.emulatorSeed }), ...extra]).exited

/**
 * Kills until `config.kills` processes died by SIGKILL, then one run to completion; meanwhile the
 * reference runs uninterrupted. Finally both catalogs are compared and the folder is inspected.
 */
export const runCampaign = async (config: CampaignConfig): Promise<CampaignResult> => {
  const started = Date.now()
  const log = config.log ?? (() => undefined)
  const planner = killPlanner(config.killSeed)
  const reference = config.referenceRun ?? startReference(config)
  const records: KillRecord[] = []
  let runs = 0
  let kills = 0
  let plan = planner.next()
  while (kills < config.kills) {
    if (runs >= config.kills * 3) throw new Error(`only ${kills} of ${config.kills} kills landed in ${runs} runs`)
    runs++
    const { exit, killed } = await runUntilKilled(config, plan)
    if (!killed && exit.code !== 0) throw new Error(`run ${runs} (${plan.trigger}) exited ${exit.code} without being killed:\n${exit.stderr}\n${exit.stdout}`)
    const left = await leftovers(config.out)
    if (killed) kills++
    records.push({ plan, killed, exit, left })
    log(
      `run ${runs}: ${plan.trigger}#${plan.nth}+${plan.delayMs}ms ${killed ? "killed" : `finished (${exit.code})`} after ${exit.ms} ms; ` +
        `left ${left.staging.length} staged, ${left.temps.length} tmp, ${left.locks.length} lock, ${left.strayParts.length} stray parts`
    )
    plan = killed ? planner.next() : planner.again(plan)
  }
  runs++
  const final = (await runUntilKilled(config, undefined)).exit
  log(`run ${runs}: uninterrupted, exit ${final.code} after ${final.ms} ms`)
  if (final.code !== 0) throw new Error(`the final run exited ${final.code}:\n${final.stderr}\n${final.stdout}`)
  const ref = await reference
  if (ref.code !== 0) throw new Error(`the reference run exited ${ref.code}:\n${ref.stderr}\n${ref.stdout}`)
  return {
    records,
    runs,
    final,
    reference: ref,
    diffs: await compareCatalogs(config.out, config.reference),
    left: await leftovers(config.out),
    ms: Date.now() - started
  }
}

/** The campaign's datasets: one of each kind of listing, small enough for CI. */
export const CAMPAIGN_DATASETS = ["staking_transactions", "primary_blocks", "delegators", "utxos", "token_transfers", "chain_metrics"] as const

/**
 * A small job over the emulator's world of `emu` (its seed): one network, the P-chain's blocks,
 * one address set, one token contract, one metric over the last `metricDays` days.
 */
export const campaignJob = (emu: RunningEmulator, metricDays = 8): Partial<Job> => {
  const full = emulatorJob(emu)
  const now = emu.clock.now()
  const addressSet = full.addressSets.find((s) => s.network === "mainnet" && s.blockchain === "p-chain")
  return {
    networks: ["mainnet"],
    primaryBlockchains: ["p-chain"],
    evmChains: ["43114"],
    addressSets: addressSet === undefined ? [] : [addressSet],
    tokenContracts: full.tokenContracts.slice(0, 1),
    transferBlockWindow: full.transferBlockWindow,
    incremental: full.incremental,
    metrics: { metrics: ["txCount"], startTimestamp: now - metricDays * 86_400, endTimestamp: now }
  }
}

/** Writes the campaign job of emulator seed `seed` to `file`. */
export const writeCampaignJob = async (seed: number, file: string, metricDays = 8): Promise<Partial<Job>> => {
  const emu = await startEmulator({ seed })
  try {
    const job = campaignJob(emu, metricDays)
    await fsp.mkdir(path.dirname(file), { recursive: true })
    await fsp.writeFile(file, JSON.stringify(job, null, 2))
    return job
  } finally {
    await emu.close()
  }
}

/**
 * How a compaction campaign runs over the base of crawlRowGroupBase (below): one merge per month
 * folder (the default target), so a compaction stages and merges two files and commits one
 * manifest; a moment drawn past those is taken at the last.
 */
export const ROW_GROUP_CAMPAIGN = { targetRows: 1_000_000, nthAtMost: { merged: 2, staging: 2, manifest: 1 } } as const

/**
 * An uncompacted base whose compaction moves row groups as they are (ParquetConcat.ts) instead of
 * having DuckDB write them again: parts of a reader's size, which the small campaigns' parts of 20
 * rows never are. The C-chain blocks of one network at emulator scale 8, from four weeks before its
 * clock (its densest: ~12k blocks in December), in 14-day windows and parts of up to 6,000
 * rows (~775 bytes a row uncompressed, so their row groups average past the 2 MB that
 * RowGroups.keepsRowGroups asks for); `--as-of` three weeks past the clock makes the windows that
 * hold December and early January final, so their two month folders merge (three parts each).
 * ~13 s of crawling, 26k rows.
 */
export const crawlRowGroupBase = async (seed: number, dir: string): Promise<{ readonly out: string; readonly exit: CliExit }> => {
  const now = defaultNow(seed)
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10)
  const job = path.join(dir, "row-groups-job.json")
  await fsp.mkdir(dir, { recursive: true })
  await fsp.writeFile(
    job,
    JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["c-chain"], incremental: { primary_blocks: { since: day(now - 28 * 86_400), window: "14d" } } }, null, 2)
  )
  const out = path.join(dir, "row-groups-base")
  const args = [...runArgs({ datasets: ["primary_blocks"], job, out, partRows: 6_000, emulatorSeed: seed }), "--emulator-scale", "8", "--as-of", day(now + 22 * 86_400), "--no-compact", "--quiet"]
  return { out, exit: await startCli(args).exited }
}

/**
 * A folder for `npm run chaos` (scripts/chaos.ts), which keeps a failed campaign's output to be
 * looked at; a test file takes its folders from tempFolders (test/support/fixtures.ts) instead,
 * which removes them after the file.
 */
export const tempDir = (prefix: string) => fsp.mkdtemp(path.join(os.tmpdir(), `chainetl-${prefix}-`))

/**
 * The fault campaign in CI: 5xx, resets and truncated bodies on 20% of requests each, 429 bursts
 * with `Retry-After: 1` on 5%, 20 ms latency, and 20% of pages with a field no document lists. With 429s at 20% too the client's limiter (rightly)
 * halves its rate on every burst and the run crawls at a request a second for minutes: that is
 * FULL_FAULTS, which `npm run chaos` runs.
 */
export const CI_FAULTS = { seed: 7, rate5xx: 0.2, rate429: 0.05, burst429: 2, retryAfterSeconds: 1, resetRate: 0.2, truncateRate: 0.2, latencyMs: 20, extraFieldsRate: 0.2 }
export const FULL_FAULTS = { ...CI_FAULTS, rate429: 0.2 }

/** Retry budget of a fault campaign: two in three attempts fail, so far more retries than the default 6; delays short. */
export const FAULT_CAMPAIGN_SOURCE = {
  maxRetries: 60,
  retry: { baseDelayMs: 5, maxDelayMs: 50, retryAfterMinMs: 250, retryAfterMaxMs: 2000, maxRateLimitedRetries: 60 }
}

export interface CompactionCampaignConfig {
  /** An uncompacted output (crawled with --no-compact): every round starts from a copy of it. */
  readonly base: string
  /** Where the copies are compacted and killed. */
  readonly work: string
  readonly killSeed: number
  readonly kills: number
  /** `--target-rows`: small, so a table's compaction merges many files (many moments to kill). */
  readonly targetRows: number
  /** The most events of a kind a compaction has (its merges, its manifest commits): later ones are drawn as the last. */
  readonly nthAtMost?: Partial<Record<Trigger, number>>
  readonly log?: (line: string) => void
}

/** A finished compaction of one round: compared with the uncompacted base, and the folder inspected. */
export interface CompactionRound {
  readonly diffs: ReadonlyArray<DatasetDiff>
  readonly left: Leftovers
  readonly filesBefore: number
  readonly filesAfter: number
}

export interface CompactionCampaignResult {
  readonly records: ReadonlyArray<KillRecord>
  /** After each kill: the catalog on disk compared with the base (a reader opening it then). */
  readonly afterKills: ReadonlyArray<ReadonlyArray<DatasetDiff>>
  readonly rounds: ReadonlyArray<CompactionRound>
  readonly runs: number
  /** Merges begun or finished over all runs (killed ones too), by how they were written ("row groups moved", …). */
  readonly merges: Readonly<Record<string, number>>
}

/** The debug line of a merged file names how it was written (Compaction.ts). */
const MERGED_LINE = /compaction: \S+ merged \d+ files into \S+ \(([^)]+)\)/g

const dataFiles = async (out: string) =>
  (await filesBelow(out)).filter((f) => f.endsWith(".parquet") && (!f.startsWith("_") || f.startsWith("_rejects/"))).length

/**
 * `chainetl compact` SIGKILLed at seeded compaction moments and restarted until it finishes (a
 * round), rounds starting again from a fresh copy of the base until `kills` kills landed. After
 * every kill the catalog on disk is compared with the base (what a reader would see), after every
 * round the finished output too, and its folder is inspected for leftovers.
 */
export const runCompactionCampaign = async (config: CompactionCampaignConfig): Promise<CompactionCampaignResult> => {
  const log = config.log ?? (() => undefined)
  const reference = `${config.base}`
  const planner = killPlanner(config.killSeed, COMPACT_TRIGGERS, config.nthAtMost)
  const merges: Record<string, number> = {}
  const countMerges = (exit: CliExit) => {
    for (const m of exit.stdout.matchAll(MERGED_LINE)) merges[m[1]!] = (merges[m[1]!] ?? 0) + 1
  }
  const args = ["compact", "--out", config.work, "--target-rows", String(config.targetRows)]
  const fresh = async () => {
    await fsp.rm(config.work, { recursive: true, force: true })
    await fsp.cp(config.base, config.work, { recursive: true })
    // the copy's catalog reads the base's files: give it its own (what `chainetl catalog` builds,
    // here in this process: setting a round up is not what is killed)
    await Effect.runPromise(buildCatalog(config.work, catalogEntries()))
  }
  const round = async (): Promise<CompactionRound> => ({
    diffs: await compareCatalogs(config.work, reference),
    left: await leftovers(config.work),
    filesBefore: await dataFiles(config.base),
    filesAfter: await dataFiles(config.work)
  })
  await fresh()
  const records: KillRecord[] = []
  const afterKills: Array<ReadonlyArray<DatasetDiff>> = []
  const rounds: CompactionRound[] = []
  let runs = 0
  let kills = 0
  let plan = planner.next()
  while (kills < config.kills) {
    if (runs >= config.kills * 4) throw new Error(`only ${kills} of ${config.kills} kills landed in ${runs} compactions`)
    runs++
    const { exit, killed } = await commandUntilKilled(config.work, args, plan)
    countMerges(exit)
    if (!killed && exit.code !== 0) throw new Error(`compaction ${runs} (${plan.trigger}) exited ${exit.code} without being killed:\n${exit.stderr}\n${exit.stdout}`)
    const left = await leftovers(config.work)
    records.push({ plan, killed, exit, left })
    log(`compaction ${runs}: ${plan.trigger}#${plan.nth}+${plan.delayMs}ms ${killed ? "killed" : `finished (${exit.code})`} after ${exit.ms} ms; ${left.deadFiles.length} dead files left`)
    if (killed) {
      kills++
      afterKills.push(await compareCatalogs(config.work, reference))
      plan = planner.next()
    } else {
      rounds.push(await round())
      await fresh()
      plan = planner.again(plan)
    }
  }
  runs++
  const final = (await commandUntilKilled(config.work, args, undefined)).exit
  if (final.code !== 0) throw new Error(`the final compaction exited ${final.code}:\n${final.stderr}\n${final.stdout}`)
  countMerges(final)
  rounds.push(await round())
  return { records, afterKills, rounds, runs, merges }
}
