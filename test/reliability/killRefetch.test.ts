/**
 * `backfill --refetch` SIGKILLed and restarted (src/verify/Clear.ts's promise): a kill while it
 * removes parts, compacted files or checkpoints, or while it crawls the windows again, leaves an
 * output that `verify` fails for as long as rows are missing, and the same command, run again to
 * the end, gives back exactly the rows of an uninterrupted crawl with nothing left behind.
 *
 * The output: primary_blocks and staking_transactions of 16 day windows (2024-11-26 to 12-12, the
 * emulator of seed 3 in each process), compacted into files of ~12 rows, so the refetch of
 * December 1–10 takes compacted files whole (one of them holds windows from 3 to 9 December) and
 * leaves windows before and after it: a refetched window gone is a hole verify can see.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { tempFolders } from "../support/fixtures.ts"
import { type KillPlan, commandUntilKilled, killPlanner, rng, writeCampaignJob } from "./campaign.ts"
import { type CliExit, runCli, startCli } from "./cli.ts"
import { type DatasetDiff, compareCatalogs, leftovers } from "./compare.ts"

const SEED = 3
const KILL_SEED = 4_242
const DATASETS = ["primary_blocks", "staking_transactions"] as const

const dirs = tempFolders("kill-refetch")

const log = (line: string) => process.env["CHAINETL_CHAOS_VERBOSE"] === "1" && console.log(line)

/** A step of the removal, seen on the debug log (Clear.ts), or a moment of the crawl after it (campaign.ts). */
type Moment = { readonly step: "parts" | "compacted" | "checkpoints"; readonly nth: number; readonly delayMs: number } | { readonly plan: KillPlan }

const STEP_LINE = {
  parts: /refetch: \d+ part\(s\) removed/,
  compacted: /refetch: \d+ compacted file\(s\) removed/,
  checkpoints: /refetch: \d+ checkpoint\(s\) removed/
} as const

/**
 * A kill after each step of the removal (Clear.ts: parts, then compacted files and the catalog,
 * then checkpoints; the first dataset's, then the second's), and one at a commit of the crawl
 * after it, each a seeded few milliseconds late. Every step of both datasets was killed once when
 * this was written (nine rounds); CI keeps one of each kind, as each round costs ~20 CPU-s.
 */
const moments = (): ReadonlyArray<Moment> => {
  const r = rng(KILL_SEED)
  const steps = ([["parts", 1], ["compacted", 2], ["checkpoints", 1], ["checkpoints", 2]] as const).map(([step, nth]) => ({ step, nth, delayMs: r.int(0, 3) }))
  return [...steps, { plan: killPlanner(KILL_SEED, ["commit"]).next() }]
}

const label = (m: Moment) => ("step" in m ? `${m.step}#${m.nth}+${m.delayMs}ms` : `${m.plan.trigger}#${m.plan.nth}+${m.plan.delayMs}ms`)

/** The command, killed at the moment unless it exits first. */
const killedAt = async (out: string, args: ReadonlyArray<string>, m: Moment): Promise<{ exit: CliExit; killed: boolean }> => {
  if (!("step" in m)) return commandUntilKilled(out, args, m.plan)
  const cli = startCli(args, { CHAINETL_LOG_LEVEL: "debug" })
  let seen = 0
  cli.onLine((line) => {
    if (STEP_LINE[m.step].test(line) && ++seen === m.nth) setTimeout(() => cli.kill(), m.delayMs)
  })
  const exit = await cli.exited
  return { exit, killed: exit.signal === "SIGKILL" }
}

interface Round {
  readonly moment: string
  readonly killed: boolean
  /** Rows the killed output lacks or has beyond the uninterrupted crawl, over both datasets. */
  readonly differing: number
  readonly verifyCode: number | null
  /** The same command once more, to its end. */
  readonly again: CliExit
  readonly afterwards: {
    readonly diffs: ReadonlyArray<DatasetDiff>
    readonly verify: CliExit
    readonly left: Awaited<ReturnType<typeof leftovers>>
  }
}

const ours = (diffs: ReadonlyArray<DatasetDiff>) => diffs.filter((d) => (DATASETS as ReadonlyArray<string>).includes(d.dataset))
const differing = (diffs: ReadonlyArray<DatasetDiff>) => ours(diffs).reduce((n, d) => n + d.onlyA + d.onlyB, 0)

let campaign: Promise<{ readonly compactedDecember: number; readonly rounds: ReadonlyArray<Round> }>

beforeAll(async () => {
  const dir = await dirs()
  const job = path.join(dir, "job.json")
  const full = await writeCampaignJob(SEED, job)
  // every window from the 26th on is expected: one gone in the middle is a hole verify names
  const since = { window: "1d", since: "2024-11-26" }
  await fs.writeFile(job, JSON.stringify({ ...full, incremental: { primary_blocks: since, staking_transactions: since } }, null, 2))
  const emulator = ["--emulator", "--emulator-seed", String(SEED)]
  const backfill = (from: string, to: string, out: string) => ["backfill", ...DATASETS, "--from", from, "--to", to, "--window", "1d", "--job", job, "--out", out, "--part-rows", "5", ...emulator]
  const must = async (args: ReadonlyArray<string>) => {
    const r = await runCli(args)
    if (r.code !== 0) throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`)
  }
  const reference = path.join(dir, "reference")
  const base = path.join(dir, "compacted")
  const work = path.join(dir, "work")
  const refetch = [...backfill("2024-12-01", "2024-12-10", work), "--refetch"]
  const verify = () => runCli(["verify", "--out", work, "--job", job])
  campaign = (async () => {
    await must([...backfill("2024-11-26", "2024-12-12", reference), "--no-compact", "--quiet"])
    await fs.cp(reference, base, { recursive: true })
    await must(["compact", ...DATASETS, "--out", base, "--target-rows", "12", "--quiet"])
    const manifest = JSON.parse(await fs.readFile(path.join(base, "_state", "manifests", "staking_transactions.json"), "utf8")) as { files: Array<{ file: string }> }
    const rounds: Round[] = []
    // a round per moment, each from the compacted output: a refetch that finished compacts its
    // windows with their neighbours, and the same range is then refused (RefetchScope.ts)
    for (const m of moments()) {
      await fs.rm(work, { recursive: true, force: true })
      await fs.cp(base, work, { recursive: true })
      const { exit, killed } = await killedAt(work, refetch, m)
      if (!killed && exit.code !== 0) throw new Error(`${label(m)}: exited ${exit.code} without being killed: ${exit.stderr}`)
      const differs = differing(await compareCatalogs(work, reference))
      const verifyCode = (await verify()).code
      const again = await runCli([...refetch, "--quiet"])
      rounds.push({ moment: label(m), killed, differing: differs, verifyCode, again, afterwards: { diffs: ours(await compareCatalogs(work, reference)), verify: await verify(), left: await leftovers(work) } })
      log(`${label(m)}: ${killed ? "killed" : "finished"}, ${differs} row(s) differ, verify ${verifyCode}; again: exit ${again.code}, verify ${rounds.at(-1)!.afterwards.verify.code}`)
    }
    return { compactedDecember: manifest.files.filter((f) => f.file.includes("month=2024-12")).length, rounds }
  })()
  campaign.catch(() => undefined)
})

describe("backfill --refetch killed at every step of its removal and of its crawl, then run again", () => {
  it("given a kill at each step, when the output is read after it, then verify fails wherever rows differ from the uninterrupted crawl", async () => {
    const { compactedDecember, rounds } = await campaign
    expect(compactedDecember).toBeGreaterThan(0)
    const killed = rounds.filter((r) => r.killed)
    // the removal's steps come before any crawl: each of them lands
    expect(killed.map((r) => r.moment.split("+")[0])).toEqual(["parts#1", "compacted#2", "checkpoints#1", "checkpoints#2", expect.stringMatching(/^commit#\d$/)])
    // kills that took rows away were seen: the property below is not vacuous
    expect(killed.filter((r) => r.differing > 0).length).toBeGreaterThanOrEqual(3)
    for (const r of rounds) {
      if (r.differing > 0) expect({ moment: r.moment, verify: r.verifyCode }).toEqual({ moment: r.moment, verify: 1 })
      else expect([0, 1]).toContain(r.verifyCode)
    }
  }, 900_000)

  it("given each killed output, when the same command runs once more to its end, then every row is there once, verify passes and nothing is left behind", async () => {
    const { rounds } = await campaign
    for (const r of rounds) {
      expect({ moment: r.moment, code: r.again.code }).toEqual({ moment: r.moment, code: 0 })
      expect(r.afterwards.diffs.map((d) => ({ dataset: d.dataset, onlyKilled: d.onlyA, onlyReference: d.onlyB, same: d.rowsA === d.rowsB }))).toEqual(
        DATASETS.map((dataset) => ({ dataset, onlyKilled: 0, onlyReference: 0, same: true }))
      )
      for (const d of r.afterwards.diffs) expect(d.rowsB).toBeGreaterThan(0)
      expect({ moment: r.moment, verify: r.afterwards.verify.code }).toEqual({ moment: r.moment, verify: 0 })
      expect(r.afterwards.left).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
    }
  }, 900_000)
})
