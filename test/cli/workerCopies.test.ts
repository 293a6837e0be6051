/**
 * Working copies left by killed workers: a starting worker removes those whose process is gone,
 * and keeps every copy whose worker still runs.
 */
import { spawnSync } from "node:child_process"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { removeDeadWorkerCopies, workerCopyOf } from "../../src/cli/workerCopies.ts"

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true })
})

/** The pid of a process that has exited. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" })
  return Number(child.stdout)
}

describe("removeDeadWorkerCopies", () => {
  it("removes a killed worker's copy and keeps a running one's, the shared copy and other folders", async () => {
    // given a staging folder with the shared copy, a live worker's copy, a dead one's and a look-alike
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-worker-copies-"))
    dirs.push(parent)
    const workDir = path.join(parent, "s3-copy")
    const dead = workerCopyOf(workDir, deadPid())
    const live = workerCopyOf(workDir, process.pid)
    const other = `${workDir}.worker-notapid`
    for (const d of [workDir, dead, live, other]) {
      await fs.mkdir(path.join(d, "evm_blocks"), { recursive: true })
      await fs.writeFile(path.join(d, "evm_blocks", "part.parquet"), "x")
    }
    // when a worker starts
    const removed = await removeDeadWorkerCopies(workDir)
    // then only the dead worker's copy is gone
    expect(removed).toEqual([dead])
    expect((await fs.readdir(parent)).sort()).toEqual([path.basename(workDir), path.basename(live), path.basename(other)].sort())
  })

  it("does nothing when the staging folder does not exist yet", async () => {
    // given a work dir whose parent is missing, then nothing is removed and nothing fails
    expect(await removeDeadWorkerCopies(path.join(os.tmpdir(), "chainetl-no-such-folder", "copy"))).toEqual([])
  })
})
