/**
 * Nothing outside `--out`: chainetl writes only inside the output folder and never follows a
 * symbolic link found inside it. A link planted where it writes (a dataset's folder or any folder
 * or file below it, `_state` and its folders, `_staging`, `_runs`) would send parts, checkpoints,
 * the lock or deletions somewhere else, so a run (and `chainetl compact`) refuses before it
 * touches anything: ConfigError naming the link and where it points, exit 2.
 *
 * Checked: chainetl's own folders and each table's top folder, every table of the registry (a
 * killed compaction of any table is finished by any run), and the whole tree of the tables the
 * command writes (a partition folder or part planted as a link). The walk reads folder listings
 * only, about one readdir per partition folder. `--out` itself may be a link: that is the user's
 * choice of where the output lives. A link planted while a run is under way is not looked for.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { ConfigError } from "../Errors.ts"
import { LOCK_DIR } from "./OutputLock.ts"
import { STAGING_DIR } from "../files/StagingDir.ts"

const OWN = [LOCK_DIR, path.join(LOCK_DIR, "checkpoints"), path.join(LOCK_DIR, "manifests"), STAGING_DIR, "_runs"]

const isLink = async (p: string): Promise<boolean> => (await fs.lstat(p).catch(() => undefined))?.isSymbolicLink() === true

/** The first link at or below `dir` (not following any), or undefined. */
const firstLinkBelow = async (dir: string): Promise<string | undefined> => {
  if (await isLink(dir)) return dir
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  const link = entries.find((e) => e.isSymbolicLink())
  return link === undefined ? undefined : path.join(link.parentPath, link.name)
}

const refusal = async (out: string, link: string, label: string): Promise<ConfigError> => {
  const target = await fs.readlink(link).catch(() => "?")
  return new ConfigError({
    reason: "Invalid",
    field: label,
    detail: `${link} is a symbolic link (to ${target}); chainetl writes only inside ${out} and never follows a link there`,
    fix: `remove the link, or replace it with a real folder holding what it pointed to`
  })
}

/**
 * Fails when a link stands where chainetl would write: `own` checks chainetl's folders and the
 * top folder of `allTables`, `walk` the whole tree of the tables about to be written.
 */
export const refuseLinks = (out: string, allTables: ReadonlyArray<string>, walk: ReadonlyArray<string>, label = "--out"): Effect.Effect<void, ConfigError> =>
  Effect.promise(async () => {
    const checkpointDirs = await fs.readdir(path.join(out, LOCK_DIR, "checkpoints")).catch(() => [] as string[])
    const tops = [...OWN, ...allTables, ...checkpointDirs.map((d) => path.join(LOCK_DIR, "checkpoints", d))]
    for (const rel of tops) {
      if (await isLink(path.join(out, rel))) return refusal(out, path.join(out, rel), label)
    }
    for (const table of walk) {
      const link = await firstLinkBelow(path.join(out, table))
      if (link !== undefined) return refusal(out, link, label)
    }
    return undefined
  }).pipe(Effect.flatMap((e) => (e === undefined ? Effect.void : Effect.fail(e))))
