/**
 * Item 8: the output disk fills up, or is read-only. A real `chainetl run` writes to
 * - a 400 KB tmpfs (ENOSPC mid-run; needs the right to mount, as root in CI's container), then the
 *   same tmpfs remounted read-only (EROFS), then remounted large;
 * - anywhere, under a file size limit (`ulimit -f`: EFBIG on the first part over it), then without.
 * Each time: exit 1 with the system's reason, every part on disk whole, no part past its slice's
 * checkpoint, no checkpoint past its parts; and the next run with room finishes to the clean result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DuckDBInstance } from "@duckdb/node-api"
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { BIN, type CliExit, REPO, cliEnv, runArgs, runCli } from "./cli.ts"
import { compareCatalogs, filesBelow, leftovers, readCheckpoints } from "./compare.ts"
import { runInProcess } from "../support/spine.ts"
import { whyNoTmpfs } from "../support/privileges.ts"

const DATASETS = ["staking_transactions", "delegators", "utxos"]

/** Why this process may not mount a tmpfs (it needs root with CAP_SYS_ADMIN); undefined when it may. */
const noTmpfs = whyNoTmpfs()

/** Rows of every part of a slice up to its checkpoint's last seq, read from the files themselves. */
const partRows = async (out: string, files: ReadonlyArray<string>): Promise<Map<string, number>> => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const bySlice = new Map<string, number>()
  try {
    for (const f of files) {
      // a torn file would fail here: every part on disk must read whole
      const n = Number((await conn.runAndReadAll(`SELECT count(*) FROM read_parquet('${path.join(out, f)}')`)).getRows()[0]![0])
      const slice = /part-([a-z0-9_-]+)-\d{6,}\.parquet$/.exec(f)![1]!
      bySlice.set(slice, (bySlice.get(slice) ?? 0) + n)
    }
  } finally {
    conn.closeSync()
    db.closeSync()
  }
  return bySlice
}

/**
 * The run said why: the slices whose part could not be written failed with the system's reason
 * (in their checkpoint and the run report), and the CLI named them — or, when the catalog could
 * not be rebuilt either, the catalog with the reason too.
 */
/** The errno name Node puts before a system message. */
const code = (reason: string): string => ({ "No space left on device": "ENOSPC", "File too large": "EFBIG" })[reason] ?? "E[A-Z]+"

const expectFailedOn = async (out: string, run: CliExit, reason: string) => {
  const checkpoints = await readCheckpoints(out)
  const failed = checkpoints.filter((c) => c.status === "failed")
  // no failure recorded at all is possible: when the disk is so full that no failed slice's
  // checkpoint fits, every one stays "running" (named below; the next run recovers them). Seen in
  // about one run in ten on a 400 KB tmpfs, whichever worker runs the file
  // a part that could not be staged (DuckDB's words, or chainetl's own writer's for a part under
  // 32 rows), or the checkpoint saved before the slice's first part
  for (const c of failed) {
    expect(c.error).toMatch(
      new RegExp(`^(Io at ${out}/${c.dataset}/.+\\.parquet: (IO Error: )?Could not write file "${out}/_staging/.+": ${reason}|checkpoint of ${c.slice}: Io: Error: ${code(reason)}: ${reason.toLowerCase()}, .+)$`)
    )
  }
  // progress lines share stderr; the verdict is the line the CLI prefixes with its name. A slice
  // whose failure could not be recorded either (the disk is full) stays "running" on disk: it is
  // named too, and the next run recovers it like any cut-short slice
  const verdict = run.stderr.split("\n").find((l) => l.startsWith("chainetl: ")) ?? ""
  // past five names the rest are counted ("… and 2 more")
  const named = /^chainetl: (\d+) slice\(s\) failed: (.+?)(?: and (\d+) more)?\. ((?:catalog not rebuilt|run report not written): .+\. )?Details in (\S+\.json); rerun the same command to resume them\.$/.exec(verdict)
  expect(named, verdict).not.toBeNull()
  const names = named![2]!.split(", ")
  const more = Number(named![3] ?? 0)
  expect(names).toHaveLength(more > 0 ? 5 : Number(named![1]))
  expect(names.length + more).toBe(Number(named![1]))
  expect(failed.length).toBeLessThanOrEqual(Number(named![1]))
  if (more === 0) for (const c of failed) expect(names).toContain(`${c.dataset}/${c.slice}`)
  // (or has no checkpoint at all: even marking it running found the disk full)
  for (const n of names) expect(["failed", "running", undefined]).toContain(checkpoints.find((c) => `${c.dataset}/${c.slice}` === n)?.status)
  // DuckDB says "No space left on device", Node's fs "ENOSPC: no space left on device": which one
  // depends on whether the catalog's database or its catalog.sql met the full disk first
  if (named![4] !== undefined) expect(named![4].toLowerCase()).toContain(reason.toLowerCase())
}

/** After a failed run: parts whole, none past a checkpoint, each checkpoint's rows exactly on disk. */
const expectConsistent = async (out: string) => {
  const left = await leftovers(out)
  expect(left.staging).toEqual([])
  expect(left.strayParts).toEqual([])
  const parts = (await filesBelow(out)).filter((f) => f.endsWith(".parquet") && !f.startsWith("_"))
  const rows = await partRows(out, parts)
  for (const c of await readCheckpoints(out)) {
    expect({ slice: c.slice, rows: rows.get(c.slice) ?? 0 }).toEqual({ slice: c.slice, rows: c.rowsCommitted })
  }
}

describe("a full or read-only output disk", () => {
  // removed after the tmpfs describe has unmounted its folder
  const diskDir = tempFolders("disk")
  let emu: RunningEmulator
  let jobFile: string
  let env: Record<string, string>
  let cleanOut: string
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    const dir = await diskDir()
    jobFile = path.join(dir, "job.json")
    await fs.writeFile(jobFile, JSON.stringify(campaignJob(emu)))
    env = { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }
    cleanOut = await diskDir()
    await runInProcess(cleanOut, emu, { datasets: DATASETS, job: campaignJob(emu) })
  })
  afterAll(async () => {
    await emu?.close()
  })

  /** The run's result equals the clean run's (snapshot_date is the wall clock's day in a CLI run without --emulator). */
  const expectClean = async (out: string) => {
    const diffs = await compareCatalogs(out, cleanOut, ["snapshot_date"])
    expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    expect(await leftovers(out)).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
  }

  // the steps of one story on one disk, in order (filled, then read-only, then given room): the
  // files are shuffled, these tests are not. Which slice meets the full disk first is a race, and
  // every outcome of it is accepted (expectFailedOn), so the file needs no fresh worker of its own
  describe("on a tmpfs", { shuffle: false }, () => {
    let mnt: string
    beforeAll(async () => {
      if (noTmpfs !== undefined) return
      mnt = await diskDir()
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=400k", "tmpfs", mnt])
    })
    afterAll(() => {
      if (noTmpfs === undefined) spawnSync("umount", [mnt])
    })

    it("given 400 KB of disk, when the run fills it, then it exits 1 saying no space is left, and what is on disk is whole and matches the checkpoints", async ({ skip }) => {
      skip(noTmpfs !== undefined, noTmpfs)
      const out = path.join(mnt, "out")
      const run = await runCli(runArgs({ datasets: DATASETS, job: jobFile, out, partRows: 20 }), env)
      expect(run.code).toBe(1)
      await expectFailedOn(out, run, "No space left on device")
      await expectConsistent(out)
    }, 120_000)

    it("given the disk then remounted read-only, when the run starts, then it refuses at once with exit 2 saying so and changes nothing", async ({ skip }) => {
      skip(noTmpfs !== undefined, noTmpfs)
      const out = path.join(mnt, "out")
      const snapshot = async () => Promise.all((await filesBelow(out)).map(async (f) => [f, (await fs.readFile(path.join(out, f))).toString("base64")]))
      const before = await snapshot()
      execFileSync("mount", ["-o", "remount,ro", mnt])
      let run: CliExit
      try {
        run = await runCli(runArgs({ datasets: DATASETS, job: jobFile, out, partRows: 20 }), env)
      } finally {
        execFileSync("mount", ["-o", "remount,rw,size=64m", mnt])
      }
      // a read-only --out is bad configuration, found before anything starts (docs/cli.md#the-cli, bad input)
      expect(run.code).toBe(2)
      expect(run.stderr.trim()).toBe(`chainetl: --out: cannot write to ${out}: ${out} is on a read-only file system. Fix: pass a folder on a writable disk`)
      expect(await snapshot()).toEqual(before)
    }, 120_000)

    it("given room again, when the same command runs, then it finishes and equals the clean run", async ({ skip }) => {
      skip(noTmpfs !== undefined, noTmpfs)
      const out = path.join(mnt, "out")
      const run = await runCli(runArgs({ datasets: DATASETS, job: jobFile, out, partRows: 20 }), env)
      expect(run.code, run.stderr).toBe(0)
      await expectClean(out)
    }, 120_000)
  })

  describe("under a file size limit (ulimit -f), which needs no privilege", () => {
    it("given parts larger than the limit allows, when the run writes them, then it exits 1 saying the file is too large, what is on disk matches the checkpoints, and a run without the limit finishes to the clean result", async () => {
      const out = path.join(await diskDir(), "out")
      const args = runArgs({ datasets: DATASETS, job: jobFile, out, partRows: 20 })
      // 16 KiB a file: the small staking parts fit, a delegators page does not
      const limited = await new Promise<CliExit>((resolve, reject) => {
        const started = Date.now()
        const child = spawn(
          "bash",
          ["-c", 'ulimit -f 16 && exec "$0" "$@"', process.execPath, BIN, ...args],
          { cwd: REPO, env: cliEnv(env) }
        )
        let stdout = ""
        let stderr = ""
        child.stdout.on("data", (d: Buffer) => (stdout += d))
        child.stderr.on("data", (d: Buffer) => (stderr += d))
        child.once("error", reject)
        child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }))
      })
      expect(limited.code).toBe(1)
      await expectFailedOn(out, limited, "File too large")
      await expectConsistent(out)

      const free = await runCli(args, env)
      expect(free.code, free.stderr).toBe(0)
      await expectClean(out)
    }, 180_000)
  })
})
