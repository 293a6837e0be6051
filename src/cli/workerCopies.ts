/**
 * A worker's working copy of a bucket output is its own folder, `<workDir>.worker-<pid>`, removed
 * when the worker stops. A worker killed with SIGKILL (or a machine that lost power) cannot remove
 * it, and a later worker reuses that name only if it happens to get the same pid: without this,
 * each kill left a copy of its slices' files behind for good. Nothing in such a copy is trusted
 * (a worker pulls each slice's files before crawling it), so a starting worker removes the copies
 * of workers that no longer run, and never one whose process is alive (another worker on this
 * machine, or a process that took a dead worker's pid: that copy waits for a later start).
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"

export const workerCopyOf = (workDir: string, pid: number): string => `${workDir}.worker-${pid}`

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: the process exists but is another user's
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Removes the copies left by workers whose process is gone; returns the folders removed. */
export const removeDeadWorkerCopies = async (workDir: string): Promise<ReadonlyArray<string>> => {
  const parent = path.dirname(workDir)
  const prefix = `${path.basename(workDir)}.worker-`
  const names = await fs.readdir(parent).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const pid = name.slice(prefix.length)
    if (!/^[1-9][0-9]*$/.test(pid) || alive(Number(pid))) continue
    const dir = path.join(parent, name)
    await fs.rm(dir, { recursive: true, force: true })
    removed.push(dir)
  }
  return removed
}
