/**
 * Temporary files a killed run leaves outside `_staging/`: every atomic write (checkpoints, run
 * reports, the catalog and its SQL, the writer lock) goes through `<name>.tmp-<pid>…`, and an
 * interrupted takeover of a stale lock leaves its claim `writer.lock.takeover-…` holding a pid.
 * Harmless to readers, but they pile up (a catalog is as big as its views' metadata), so a run
 * holding the writer lock removes those whose process is gone. Dataset folders are not walked:
 * nothing temporary is ever written there (parts are staged in `_staging/`).
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { LOCK_DIR, LOCK_FILE, processAlive } from "./OutputLock.ts"

const TEMP = /\.tmp-(\d+)(?:-[0-9a-f]+)?(?:\.wal)?$/
const CLAIM = `${LOCK_FILE}.takeover-`

/** Where temporaries live: the output root (catalog) and chainetl's own folders, recursively. */
const ROOTS = ["", "_runs", LOCK_DIR] as const

const filesOf = async (dir: string, recursive: boolean): Promise<string[]> =>
  (await fs.readdir(dir, { recursive, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))

const dead = (pid: number): boolean => pid === process.pid || !processAlive(pid)

/** Removes the temporaries and takeover claims of dead processes; returns the paths removed. */
export const removeDeadTemps = async (outDir: string): Promise<string[]> => {
  const removed: string[] = []
  for (const root of ROOTS) {
    for (const file of await filesOf(path.join(outDir, root), root !== "")) {
      const name = path.basename(file)
      const temp = TEMP.exec(name)
      let pid: number | undefined = temp === null ? undefined : Number(temp[1])
      if (pid === undefined && name.startsWith(CLAIM)) pid = Number(await fs.readFile(file, "utf8").catch(() => "")) || undefined
      if (pid === undefined || !dead(pid)) continue
      await fs.rm(file, { force: true })
      removed.push(file)
    }
  }
  return removed
}

/** `removeDeadTemps` for the runner, which holds the writer lock when it calls this. */
export const clearDeadTemps = (outDir: string): Effect.Effect<ReadonlyArray<string>, SinkError> =>
  Effect.tryPromise({
    try: () => removeDeadTemps(outDir),
    catch: (e) => new SinkError({ reason: "Io", path: outDir, detail: `removing temporary files of killed runs: ${e instanceof Error ? e.message : String(e)}` })
  })
