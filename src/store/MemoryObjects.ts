/**
 * An object store in memory, for tests of what the bucket output does without a server: the same
 * calls as the SDK client (S3Objects.ts), ETags as S3 gives them for a single PUT (the MD5), and a
 * log of every call. `failUploads` and `failRemovals` make uploads or deletions whose key matches
 * fail, as a server refusing them.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import type { ObjectStoreClient } from "./OutputStore.ts"

export interface MemoryObjects {
  readonly client: ObjectStoreClient
  readonly objects: Map<string, Buffer>
  /** `put <key>`, `get <key>`, `delete <key>` in the order they happened. */
  readonly log: string[]
  failUploads: RegExp | undefined
  /** Deletions of keys matching it fail, as a server refusing them. */
  failRemovals: RegExp | undefined
}

export const memoryObjects = (): MemoryObjects => {
  const objects = new Map<string, Buffer>()
  const log: string[] = []
  const self: MemoryObjects = {
    objects,
    log,
    failUploads: undefined,
    failRemovals: undefined,
    client: {
      // S3 lists keys in UTF-8 binary order, whatever order they were put in
      list: async (prefix) =>
        [...objects]
          .filter(([k]) => k.startsWith(prefix))
          .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
          .map(([key, b]) => ({ key, size: b.length, etag: createHash("md5").update(b).digest("hex") })),
      download: async (key, file) => {
        log.push(`get ${key}`)
        const body = objects.get(key)
        if (body === undefined) throw new Error(`NoSuchKey ${key}`)
        await fs.writeFile(file, body)
      },
      upload: async (file, key, signal) => {
        if (self.failUploads?.test(key) === true) throw new Error(`InternalError: upload of ${key} refused`)
        const body = await fs.readFile(file)
        signal?.throwIfAborted()
        log.push(`put ${key}`)
        objects.set(key, body)
      },
      remove: async (keys) => {
        const refused = keys.find((k) => self.failRemovals?.test(k) === true)
        if (refused !== undefined) throw new Error(`AccessDenied: delete of ${refused} refused`)
        for (const k of keys) {
          log.push(`delete ${k}`)
          objects.delete(k)
        }
      },
      createIfAbsent: async (key, body) => void (objects.has(key) ? undefined : objects.set(key, Buffer.from(body))),
      read: async (key) => objects.get(key)?.toString("utf8"),
      check: async () => undefined
    }
  }
  return self
}
