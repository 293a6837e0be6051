/**
 * Issue 14 item 6: nothing outside `--out`. A symbolic link to a folder outside the output is
 * planted where chainetl writes — a dataset's folder, `_state`, `_staging`, `_runs`, a partition
 * folder, a checkpoint folder, a rejects partition — and a run is started: it refuses before
 * anything is written (ConfigError naming the link, exit 2 from the CLI) and the outside folder
 * stays empty. The same output without the link runs and leaves that folder empty too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { filesUnder, runInProcess } from "../support/spine.ts"
import { tempFolders } from "../support/fixtures.ts"
import { campaignJob } from "./campaign.ts"
import { runCli } from "./cli.ts"

const PLACES = [
  "delegators",
  "_state",
  "_staging",
  "_runs",
  "delegators/network=mainnet",
  "_state/checkpoints/delegators",
  "_rejects/dataset=delegators"
]

describe("symbolic links planted in the output", () => {
  const linksDir = tempFolders("links")
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
  })
  afterAll(async () => {
    await emu?.close()
  })

  /** A fresh output with a link at `place` to a fresh empty folder outside it. */
  const plant = async (place: string) => {
    const dir = await linksDir()
    const out = path.join(dir, "out")
    const outside = path.join(dir, "outside")
    await fs.mkdir(outside)
    await fs.mkdir(path.dirname(path.join(out, place)), { recursive: true })
    await fs.symlink(outside, path.join(out, place))
    return { out, outside }
  }

  it.each(PLACES)("given a link at <out>/%s, when a run starts, then it refuses naming the link and writes nothing outside", async (place) => {
    const { out, outside } = await plant(place)
    const error = await runInProcess(out, emu, { datasets: ["delegators"], job: campaignJob(emu) }).then(
      () => "no error",
      (e: unknown) => String(e)
    )
    expect(error).toContain(`--out: ${path.join(out, place)} is a symbolic link (to ${outside}); chainetl writes only inside ${out} and never follows a link there. Fix: remove the link, or replace it with a real folder holding what it pointed to`)
    expect(await filesUnder(outside)).toEqual([])
    expect((await filesUnder(out)).filter((f) => !f.startsWith(place))).toEqual([])
  })

  it("given no link, when the same run starts, then it writes its output inside and nothing outside", async () => {
    const dir = await linksDir()
    const out = path.join(dir, "out")
    const outside = path.join(dir, "outside")
    await fs.mkdir(outside)
    const report = await runInProcess(out, emu, { datasets: ["delegators"], job: campaignJob(emu) })
    expect(report.status).toBe("succeeded")
    expect((await filesUnder(out)).some((f) => f.startsWith("delegators/network=mainnet/"))).toBe(true)
    expect(await filesUnder(outside)).toEqual([])
  })

  it("given a link at <out>/_state, when the CLI runs, then it exits 2 naming the link", async () => {
    const { out, outside } = await plant("_state")
    const exit = await runCli(["run", "delegators", "--emulator", "--emulator-seed", "1", "--out", out, "--quiet"])
    expect(exit.code).toBe(2)
    expect(exit.stderr).toContain(`${path.join(out, "_state")} is a symbolic link (to ${outside})`)
    expect(await filesUnder(outside)).toEqual([])
  }, 60_000)
})
