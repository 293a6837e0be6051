/**
 * Makes a written part's files durable in their final places before any checkpoint may point at
 * them: every file's bytes fsynced first (all at once: the disk queues them; a writer that
 * fsynced its files as it wrote them hands their sizes instead), then each renamed
 * to its final name (atomic on one filesystem; a fenced writer only within its right:
 * PartFence.ts), then each folder fsynced so the new names survive a power cut. A part that fails
 * after some of its files are in place is taken back (`takeBackFiles`), so no row past the
 * checkpoint shows meanwhile.
 */
import * as path from "node:path"
import * as fs from "node:fs/promises"
import { fsyncFile, fsyncPath, renameInto } from "../files/Durable.ts"
import { type PartFence, QUICK_WRITE_MS } from "./PartFence.ts"
import { asSinkError } from "./SinkFailure.ts"

/**
 * Commits staged `files` as `dests` (same order) and returns their sizes in bytes. Each
 * destination is pushed onto `renamed` as it lands, so that a failure part-way leaves the caller
 * knowing what to take back.
 */
export const commitFiles = async (
  files: ReadonlyArray<string>,
  dests: ReadonlyArray<string>,
  fence: PartFence | undefined,
  renamed: string[],
  /** The files' sizes when their writer fsynced them already (SmallParts.ts). */
  synced?: ReadonlyArray<number>
): Promise<number[]> => {
  const sizes = synced !== undefined ? [...synced] : await Promise.all(
    files.map(async (f, k) => {
      try {
        return await fsyncFile(f)
      } catch (e) {
        throw asSinkError("Io", dests[k]!)(e)
      }
    })
  )
  for (let k = 0; k < files.length; k++) {
    // the fence answers from its last confirmation while enough of it is left
    if (fence !== undefined) await fence.deadline(QUICK_WRITE_MS)
    try {
      await renameInto(files[k]!, dests[k]!)
      renamed.push(dests[k]!)
    } catch (e) {
      throw asSinkError("Io", dests[k]!)(e)
    }
  }
  await Promise.all(
    [...new Set(renamed.map((d) => path.dirname(d)))].map((dir) =>
      fsyncPath(dir).catch((e: unknown) => {
        throw asSinkError("Io", dir)(e)
      })
    )
  )
  return sizes
}

/** Best effort: deletes committed files again and fsyncs their folders; never fails. */
export const takeBackFiles = async (files: ReadonlyArray<string>): Promise<void> => {
  for (const f of files) await fs.rm(f, { force: true }).catch(() => undefined)
  for (const dir of new Set(files.map((f) => path.dirname(f)))) await fsyncPath(dir).catch(() => undefined)
}
