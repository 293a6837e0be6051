/**
 * The identity of an output folder for state kept outside it (PostgreSQL): a random id written
 * once to `<out>/_state/output-id`. Checkpoints and the writer lock are keyed by it rather than
 * by the folder's path because the state must follow the data, never outlive it:
 *  - a folder deleted to start over gets a new id, so no old checkpoint says "done" over parts
 *    that are gone (keyed by path, the fresh run would skip them: a checkpoint past the data);
 *  - a folder moved or renamed keeps its id, so its checkpoints still describe its parts (keyed
 *    by path, the run would refetch slices whose parts are there and double their rows);
 *  - two paths to one folder (a symbolic link) are one id, so they share one lock.
 * A copy of a folder carries its id: runs on both copies would share state
 * (docs/scale-out.md#state-in-postgresql, limits).
 *
 * Created with a hard link from a fsynced temporary file, like the lock file: two first runs at
 * once agree on one id, and a kill leaves no empty id.
 */
import { Effect } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"

export const OUTPUT_ID_FILE = path.join("_state", "output-id")

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const fileOf = (out: string) => path.join(path.resolve(out), OUTPUT_ID_FILE)

const io = (file: string) => (e: unknown) =>
  e instanceof SinkError ? e : new SinkError({ reason: "Io", path: file, detail: e instanceof Error ? e.message : String(e) })

const parse = (file: string, text: string): string => {
  const id = text.trim()
  if (!ID.test(id)) {
    throw new SinkError({
      reason: "Io",
      path: file,
      detail: "not an output id (chainetl writes one UUID there). It keys this folder's state in PostgreSQL: restore it, or delete the folder's data and the file to start over"
    })
  }
  return id
}

const read = async (file: string): Promise<string | undefined> => {
  const text = await fs.readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined
    throw e
  })
  return text === undefined ? undefined : parse(file, text)
}

/** The folder's id, or undefined when it has none yet (no run kept its state elsewhere). */
export const readOutputId = (out: string): Effect.Effect<string | undefined, SinkError> =>
  Effect.tryPromise({ try: () => read(fileOf(out)), catch: io(fileOf(out)) })

/** The folder's id, created on first use. */
export const ensureOutputId = (out: string): Effect.Effect<string, SinkError> => {
  const file = fileOf(out)
  return Effect.tryPromise({
    try: async () => {
      const existing = await read(file)
      if (existing !== undefined) return existing
      await fs.mkdir(path.dirname(file), { recursive: true })
      // `.tmp-<pid>…`: what a killed run leaves is cleared by the next one (sink/Leftovers.ts)
      const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`
      const handle = await fs.open(tmp, "wx")
      try {
        await handle.writeFile(`${randomUUID()}\n`)
        await handle.sync()
      } finally {
        await handle.close()
      }
      try {
        await fs.link(tmp, file)
      } catch (e) {
        // another first run won: its id is the folder's
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      } finally {
        await fs.rm(tmp, { force: true })
      }
      const dir = await fs.open(path.dirname(file), "r")
      try {
        await dir.sync()
      } finally {
        await dir.close()
      }
      return parse(file, await fs.readFile(file, "utf8"))
    },
    catch: io(file)
  })
}
