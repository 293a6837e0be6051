/**
 * The folders under `_staging/` that parts are written into before their files are renamed into
 * place. A folder whose part was committed holds nothing but DuckDB's empty partition folders
 * (`__group=<k>`), so it is lent again to a later part instead of being removed: creating and
 * removing one folder per file was about a fifth of the sink's CPU per file (ext4 allocates and
 * frees an inode each time, and scans past recently freed ones to allocate the next).
 *
 * A folder is lent to one part at a time, from before its COPY until its files are renamed away.
 * A part that fails gives its folder back as `spoiled`: it may hold files of that part, so it is
 * removed rather than lent again. A killed run's folders are removed by the next run's
 * `clearStaging`, as any staged file.
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"

export interface StagingAreas {
  /** A folder under the staging root for one part; it may not exist yet (the COPY creates it). */
  readonly take: () => string
  /** Gives back a folder whose files were all renamed away: lent again. */
  readonly give: (dir: string) => void
  /** Gives back a folder that may still hold files: removed (best effort, never fails). */
  readonly spoiled: (dir: string) => Promise<void>
  /** Forgets the idle folders (the staging root was just cleared, or the sink closes). */
  readonly forget: () => ReadonlyArray<string>
}

export const makeStagingAreas = (stagingRoot: string): StagingAreas => {
  const idle: string[] = []
  // the pid and a random tag keep two sinks on one output (a worker and its enqueuer) apart
  const tag = `${process.pid}.${randomBytes(4).toString("hex")}`
  let made = 0

  const take = () => idle.pop() ?? path.join(stagingRoot, `${tag}.${++made}`)
  const give = (dir: string) => void idle.push(dir)
  const spoiled = (dir: string) => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined)
  const forget = () => idle.splice(0, idle.length)

  return { take, give, spoiled, forget }
}
