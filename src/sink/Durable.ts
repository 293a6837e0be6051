/**
 * The few filesystem steps that make a part durable before a checkpoint may point past it: fsync
 * the file's bytes, rename it into place (atomic on one filesystem), fsync the directory so the
 * new name itself survives a power cut.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"

export const fsyncPath = async (p: string): Promise<void> => {
  // Linux accepts fsync on a read-only descriptor, files and directories alike
  const handle = await fs.open(p, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** `mkdir -p`, fsyncing the parent of every directory it creates. */
export const ensureDir = async (target: string): Promise<void> => {
  const dir = path.resolve(target)
  const first = await fs.mkdir(dir, { recursive: true })
  if (first === undefined) return
  // every directory from the first created one down was new: its parent must record it
  let created = dir
  const parents: string[] = []
  while (created.length >= first.length) {
    parents.push(path.dirname(created))
    created = path.dirname(created)
  }
  for (const p of parents.reverse()) await fsyncPath(p)
}

/** Moves a written file to `dest` (replacing it) so that after return both bytes and name are on disk. */
export const commitFile = async (staged: string, dest: string): Promise<void> => {
  await fsyncPath(staged)
  await ensureDir(path.dirname(dest))
  await fs.rename(staged, dest)
  await fsyncPath(path.dirname(dest))
}
