/**
 * verify's slices check and `run --refetch-slice` with the checkpoints in PostgreSQL
 * (CHAINETL_STATE_URL): a part of the delegators snapshot deleted from an output whose state lives
 * in the database is found from the database's checkpoint, named with its re-crawl, and `--repair`
 * sets that checkpoint back in the database, so the run's recovery crawls the slice again whole:
 * rows equal to an untouched crawl, and still no checkpoint file in the folder.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { compareCatalogs } from "../reliability/compare.ts"
import { it } from "../support/emulatorFixtures.ts"
import { postgresForTests } from "../support/postgres.ts"
import { filesUnder } from "../support/spine.ts"

describe("verify with the checkpoints in PostgreSQL", () => {
  const pg = postgresForTests()

  it("given a part of a delegators snapshot deleted, when verified, then the slice is named from the database's checkpoint, and --repair sets it back there and crawls it again to the untouched rows", async ({ ownEmulator, folder, cli }) => {
    const emu = await ownEmulator()
    const job = path.join(await folder("pg-verify-job"), "job.json")
    await fs.writeFile(job, JSON.stringify({ networks: ["mainnet"] }))
    const env = { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_RATE_LIMIT: "200", CHAINETL_STATE_URL: pg().url }
    // two crawls, not a copy: a copied folder would share its output id, and so its checkpoints, with the first
    const [base, out] = [await folder("pg-verify-base"), await folder("pg-verify-out")]
    for (const dir of [base, out]) expect((await cli(["run", "delegators", "--job", job, "--out", dir, "--part-rows", "100", "--quiet"], env)).code).toBe(0)
    const parts = (await filesUnder(path.join(out, "delegators"))).filter((f) => f.endsWith(".parquet"))
    expect(parts.length).toBeGreaterThan(1)
    await fs.rm(path.join(out, "delegators", parts[0]!))
    const slice = /part-(.+)-\d{6}\.parquet$/.exec(parts[0]!)![1]!

    const r = await cli(["verify", "--out", out, "--job", job], env)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL delegators network=mainnet/snapshot_date=\\S+ slices: slice ${slice} committed (\\d+) row\\(s\\), its files hold (\\d+) \\(no file of part-${slice}-000000 is on disk\\)$`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl run delegators --refetch-slice ${slice} --out ${out} --job ${job}`)

    const repaired = await cli(["verify", "--out", out, "--job", job, "--repair"], env)
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain("after --repair:")
    expect((await compareCatalogs(base, out)).filter((d) => d.dataset === "delegators").map((d) => [d.onlyA, d.onlyB])).toEqual([[0, 0]])
    // the state stayed in the database
    expect(await fs.readdir(path.join(out, "_state", "checkpoints")).catch(() => [])).toEqual([])
  }, 180_000)
})
