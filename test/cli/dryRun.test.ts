import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts"
import { tempOut, filesUnder } from "../support/spine.ts"

const run = promisify(execFile)
const BIN = fileURLToPath(new URL("../../bin/chainetl.mjs", import.meta.url))
const JOB = fileURLToPath(new URL("../../pipelines/jobs/emulator.json", import.meta.url))

describe("chainetl run --dry-run", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given services that answer, when a dry run plans the default job, then it prints every dataset's slices and sends no request and writes nothing", async () => {
    const out = await tempOut()
    const before = JSON.stringify(emu.state().requests)
    const { stdout } = await run(process.execPath, [BIN, "run", "--dry-run", "--job", JOB, "--out", out], {
      env: { ...process.env, CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }
    })
    expect(stdout).toMatch(/^staking_transactions\s+2\s+2$/m)
    expect(stdout).toMatch(/^primary_blocks\s+6\s+6$/m)
    expect(stdout).toContain("nothing was fetched or written")
    expect(JSON.stringify(emu.state().requests)).toBe(before)
    expect(await filesUnder(out)).toEqual([])
  }, 120_000)
})
