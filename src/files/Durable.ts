/**
 * The few filesystem steps that make a file durable before anything may point at it: fsync
 * the file's bytes, rename it into place (atomic on one filesystem), fsync the directory so the
 * new name itself survives a power cut.
 *
 * Only the fsyncs are asynchronous. Opening, writing a small file, closing and renaming are
 * metadata work on a local disk, done by the kernel well within a millisecond; each as an async
 * call cost more CPU in hand-offs to libuv's threads and back than the call itself, and a
 * one-page slice made about twenty of them ([Cheap slices](../../docs/performance.md#cheap-slices)).
 * An fsync waits for the device, so it stays off the event loop.
 */
import * as fsc from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { promisify } from "node:util"

const fsync = promisify(fsc.fsync)

/** fsyncs `p` and returns what `read` makes of its open descriptor. */
const synced = async <A>(p: string, read: (fd: number) => A): Promise<A> => {
  // Linux accepts fsync on a read-only descriptor, files and directories alike
  const fd = fsc.openSync(p, "r")
  try {
    await fsync(fd)
    return read(fd)
  } finally {
    fsc.closeSync(fd)
  }
}

export const fsyncPath = (p: string): Promise<void> => synced(p, () => undefined)

/** fsyncs a file and returns its size in bytes. */
export const fsyncFile = (p: string): Promise<number> => synced(p, (fd) => fsc.fstatSync(fd).size)

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

/**
 * Renames a staged file to `dest`, making its folder first when there is none: tried first
 * because the folder mostly exists already, which spares a mkdir per file.
 */
export const renameInto = async (staged: string, dest: string): Promise<void> => {
  try {
    fsc.renameSync(staged, dest)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e
    await ensureDir(path.dirname(dest))
    fsc.renameSync(staged, dest)
  }
}

/** Writes `content` to a new file `p` and fsyncs it, on one descriptor. */
export const writeSynced = async (p: string, content: string | Uint8Array): Promise<void> => {
  const fd = fsc.openSync(p, "w")
  try {
    // writes it all: a short write is retried, a full disk throws (ENOSPC)
    fsc.writeFileSync(fd, content)
    await fsync(fd)
  } finally {
    fsc.closeSync(fd)
  }
}

/**
 * Replaces `file` whole: the new content is written aside (`<file>.tmp-<pid>`), fsynced, renamed
 * over the old one, and the folder fsynced, so a kill or a power cut leaves the old file or the
 * new one, never a torn one. `content` is the text, or writes the temporary file itself (a
 * database built there, a download). A failure removes the temporary file; those a kill leaves
 * in the output's own folders are cleared by the next run (sink/Leftovers.ts).
 *
 * `syncFolder: false` leaves the rename unsynced, for a copy that is not the truth (a download
 * of a bucket's object, pulled again after a power cut): the file is still whole or absent.
 */
export const replaceFile = async (
  file: string,
  content: string | ((tmp: string) => Promise<void>),
  options: { readonly syncFolder?: boolean } = {}
): Promise<void> => {
  const dir = path.dirname(file)
  // text is written straight away: its folder mostly exists (a checkpoint's, a manifest's), which spares a mkdir per file
  if (typeof content !== "string") await ensureDir(dir)
  const tmp = `${file}.tmp-${process.pid}`
  try {
    if (typeof content === "string") {
      await writeSynced(tmp, content).catch(async (e: NodeJS.ErrnoException) => {
        if (e.code !== "ENOENT") throw e
        await ensureDir(dir)
        await writeSynced(tmp, content)
      })
    } else {
      await content(tmp)
      await fsyncPath(tmp)
    }
    fsc.renameSync(tmp, file)
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined)
    throw e
  }
  if (options.syncFolder !== false) await fsyncPath(dir)
}
