import { Effect, Either } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { acquireOutputLock, lockPath } from "../../src/sink/OutputLock.ts"

let outDir = ""
beforeEach(async () => {
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-lock-"))
})
afterEach(async () => {
  await fs.rm(outDir, { recursive: true, force: true })
})

/** The pid of a process that has exited, so no live process has it (pids are not reused this fast). */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"])
  return Number(child.stdout.toString())
}

const writeLock = (holder: object) =>
  fs.mkdir(path.dirname(lockPath(outDir)), { recursive: true }).then(() => fs.writeFile(lockPath(outDir), JSON.stringify(holder)))

const readLock = async () => JSON.parse(await fs.readFile(lockPath(outDir), "utf8")) as Record<string, unknown>

describe("acquireOutputLock", () => {
  it("given a free folder when acquired then the lock names this process and is removed when the scope ends", async () => {
    const during = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(acquireOutputLock(outDir, "run-a"), () => Effect.promise(readLock)))
    )

    expect(during).toMatchObject({ pid: process.pid, hostname: os.hostname(), runId: "run-a" })
    await expect(fs.access(lockPath(outDir))).rejects.toThrow(/ENOENT/)
  })

  it("given a lock held by a live run when a second run acquires then it fails Locked naming holder and lock path", async () => {
    const second = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(acquireOutputLock(outDir, "run-a"), () => Effect.either(Effect.scoped(acquireOutputLock(outDir, "run-b"))))
      )
    )

    expect(Either.isLeft(second)).toBe(true)
    const error = Either.getLeft(second).pipe((o) => (o._tag === "Some" ? o.value : undefined))!
    expect(error.reason).toBe("Locked")
    expect(error.path).toBe(lockPath(outDir))
    expect(error.message).toContain("run run-a")
    expect(error.message).toContain(`pid ${process.pid}`)
    expect(error.message).toContain(lockPath(outDir))
  })

  it("given a stale lock from a dead pid when acquired then it is taken over", async () => {
    await writeLock({ pid: deadPid(), hostname: os.hostname(), runId: "killed", startedAt: "2024-01-01T00:00:00.000Z" })

    const held = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(acquireOutputLock(outDir, "run-new"), () => Effect.promise(readLock)))
    )

    expect(held).toMatchObject({ pid: process.pid, runId: "run-new" })
    expect(await fs.readdir(path.dirname(lockPath(outDir)))).toEqual([])
  })

  it("given a stale lock and eight contenders at once when they acquire then exactly one wins", async () => {
    await writeLock({ pid: deadPid(), hostname: os.hostname(), runId: "killed", startedAt: "2024-01-01T00:00:00.000Z" })

    const [outcomes, lockDuring] = await Effect.runPromise(
      Effect.scoped(
        Effect.all([
          Effect.forEach(
            Array.from({ length: 8 }, (_, i) => `run-${i}`),
            (runId) => Effect.either(acquireOutputLock(outDir, runId)),
            { concurrency: "unbounded" }
          ),
          Effect.promise(readLock)
        ])
      )
    )

    const winners = outcomes.filter(Either.isRight)
    expect(winners).toHaveLength(1)
    expect(outcomes.filter(Either.isLeft).map((o) => o.left.reason)).toEqual(Array(7).fill("Locked"))
    expect(lockDuring["runId"]).toBe(winners[0]!.right.holder.runId)
  })

  it("given a lock from another host when acquired then it fails Locked and leaves the lock alone", async () => {
    const holder = { pid: 1, hostname: "elsewhere.example", runId: "remote", startedAt: "2024-01-01T00:00:00.000Z" }
    await writeLock(holder)

    const result = await Effect.runPromise(Effect.either(Effect.scoped(acquireOutputLock(outDir, "run-x"))))

    expect(Either.isLeft(result) && result.left.reason).toBe("Locked")
    expect(Either.isLeft(result) && result.left.message).toContain("on elsewhere.example")
    expect(await readLock()).toEqual(holder)
  })
})
