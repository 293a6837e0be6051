/**
 * One writer per output folder: two runs writing the same parts and checkpoints would interleave
 * their renames and corrupt each other's recovery. The lock is `<outDir>/_state/writer.lock`,
 * created with O_EXCL and holding {pid, hostname, runId, startedAt}.
 *
 * A lock whose pid is dead on this host is stale (a killed run) and is taken over. Taking over
 * must not let two contenders both win: "it is stale, delete it" is two steps, and between them
 * another contender may have replaced it with a fresh lock. So the deleting contender first
 * claims that stale lock (an O_EXCL file named after its content), re-checks, deletes, and then
 * competes with O_EXCL like anyone else. (Renaming the stale lock aside is not enough: with three
 * contenders the rename can move a fresh lock, and putting it back races a third O_EXCL.)
 *
 * A lock from another host cannot be judged from here and is never taken over.
 */
import { Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import type { Scope } from "effect"
import { SinkError } from "../Errors.ts"

export const LOCK_DIR = "_state"
export const LOCK_FILE = "writer.lock"

export interface LockHolder {
  readonly pid: number
  readonly hostname: string
  readonly runId: string
  readonly startedAt: string
}

export interface HeldLock {
  readonly path: string
  readonly holder: LockHolder
}

/** Bounded: each round either wins, fails as Locked, or saw the lock change under it. */
const MAX_ROUNDS = 10

export const lockPath = (outDir: string): string => path.join(path.resolve(outDir), LOCK_DIR, LOCK_FILE)

/** Whether a process of this pid exists on this host. */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: the process exists but belongs to another user
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

const sameHolder = (a: LockHolder, b: LockHolder): boolean =>
  a.pid === b.pid && a.hostname === b.hostname && a.runId === b.runId && a.startedAt === b.startedAt

const parseHolder = (text: string): LockHolder | undefined => {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>
    return typeof v.pid === "number" && typeof v.hostname === "string" && typeof v.runId === "string" && typeof v.startedAt === "string"
      ? { pid: v.pid, hostname: v.hostname, runId: v.runId, startedAt: v.startedAt }
      : undefined
  } catch {
    return undefined
  }
}

/** `undefined` when there is no lock file. */
const readHolder = async (file: string): Promise<{ holder: LockHolder | undefined; text: string } | undefined> => {
  try {
    const text = await fs.readFile(file, "utf8")
    return { holder: parseHolder(text), text }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
}

/**
 * Creates `file` holding `content` unless it exists. The content is written and fsynced under a
 * temporary name first and hard-linked into place (link fails on an existing name, like O_EXCL),
 * so a kill -9 never leaves an empty lock or claim that nobody could judge. A temporary file a
 * kill leaves behind ends in `.tmp-<pid>`: the next run removes it (sink/Leftovers.ts).
 */
const createExclusive = async (file: string, content: string): Promise<boolean> => {
  // unique per call: contenders in one process must not share it
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`
  const handle = await fs.open(tmp, "wx")
  try {
    await handle.writeFile(content)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fs.link(tmp, file)
    return true
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EEXIST") return false
    // a filesystem without hard links: plain O_EXCL (a kill between create and write tears it)
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP") return createExclusivePlain(file, content)
    throw e
  } finally {
    await fs.rm(tmp, { force: true })
  }
}

const createExclusivePlain = async (file: string, content: string): Promise<boolean> => {
  try {
    const handle = await fs.open(file, "wx")
    try {
      await handle.writeFile(content)
      await handle.sync()
    } finally {
      await handle.close()
    }
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false
    throw e
  }
}

const lockedError = (file: string, holder: LockHolder | undefined, why: string) =>
  new SinkError({
    reason: "Locked",
    path: file,
    detail:
      holder === undefined
        ? `${why}. If no chainetl run uses this output folder, delete ${file}`
        : `output folder is in use by run ${holder.runId} (pid ${holder.pid} on ${holder.hostname}, started ${holder.startedAt}); ${why}. ` +
          `Wait for it to finish or stop it; if it is gone, delete ${file}`
  })

const claimPath = (file: string, staleText: string): string =>
  `${file}.takeover-${createHash("sha256").update(staleText).digest("hex").slice(0, 16)}`

/**
 * Removes the stale lock `staleText` if this contender wins the claim on it. The claim (O_EXCL,
 * named after the stale lock's content) makes "check it is still the stale lock, then delete it"
 * exclusive: no other contender can delete that lock meanwhile, and nobody can replace it while
 * it exists, so a fresh lock is never deleted. Returns false when another contender holds the
 * claim (the caller waits and starts over).
 */
const removeStale = async (file: string, staleText: string, depth = 0): Promise<boolean> => {
  const claim = claimPath(file, staleText)
  if (!(await createExclusive(claim, String(process.pid)))) {
    // a claim whose contender was killed mid-takeover would block every later run: it is stale
    // in turn, and is removed the same exclusive way (a claim on the claim), a few levels deep
    const held = await fs.readFile(claim, "utf8").catch(() => undefined)
    const pid = Number(held)
    if (held !== undefined && Number.isSafeInteger(pid) && pid > 0 && !processAlive(pid) && depth < MAX_CLAIM_DEPTH) {
      await removeStale(claim, held, depth + 1)
    }
    return false
  }
  try {
    const current = await readHolder(file)
    if (current?.text === staleText) await fs.rm(file, { force: true })
  } finally {
    // a late contender may claim the same stale content again: it finds the lock changed and stops
    await fs.rm(claim, { force: true })
  }
  return true
}

const CLAIM_WAIT_MS = 25
/** Claims on claims: each level needs one more run killed in the middle of a takeover. */
const MAX_CLAIM_DEPTH = 4

const tryAcquire = async (outDir: string, runId: string): Promise<HeldLock> => {
  const file = lockPath(outDir)
  await fs.mkdir(path.dirname(file), { recursive: true })
  const me: LockHolder = { pid: process.pid, hostname: os.hostname(), runId, startedAt: new Date().toISOString() }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (await createExclusive(file, JSON.stringify(me))) return { path: file, holder: me }
    const current = await readHolder(file)
    if (current === undefined) continue // released between our attempt and the read
    const { holder, text } = current
    if (holder === undefined) throw lockedError(file, undefined, "the lock file is unreadable (not chainetl's JSON)")
    if (holder.hostname !== me.hostname) throw lockedError(file, holder, "it runs on another host, so this one cannot tell whether it is alive")
    if (processAlive(holder.pid)) throw lockedError(file, holder, "that process is alive")
    if (!(await removeStale(file, text))) await new Promise((resolve) => setTimeout(resolve, CLAIM_WAIT_MS))
  }
  throw lockedError(
    file,
    undefined,
    `another run is taking over the stale lock, or such a takeover was interrupted (then also delete ${file}.takeover-*)`
  )
}

const release = async (lock: HeldLock): Promise<void> => {
  const current = await readHolder(lock.path).catch(() => undefined)
  // never delete a lock that is no longer ours (taken over after we were judged dead)
  if (current?.holder !== undefined && sameHolder(current.holder, lock.holder)) await fs.rm(lock.path, { force: true })
}

/**
 * Holds the writer lock of `outDir` for the enclosing scope: fails with SinkError "Locked" naming
 * the holder and the lock path when another live run on this host (or any run on another host)
 * holds it; takes over a lock left by a dead process.
 */
export const acquireOutputLock = (outDir: string, runId: string): Effect.Effect<HeldLock, SinkError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => tryAcquire(outDir, runId),
      catch: (e) =>
        e instanceof SinkError
          ? e
          : new SinkError({ reason: "Io", path: lockPath(outDir), detail: e instanceof Error ? e.message : String(e) })
    }),
    (lock) => Effect.promise(() => release(lock).catch(() => undefined))
  )

export const OutputLock = { acquire: acquireOutputLock } as const
