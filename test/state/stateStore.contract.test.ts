/**
 * One contract, two stores: the checkpoint files under `<out>/_state` (the embedded default) and
 * PostgreSQL (CHAINETL_STATE_URL). The same cases run against both, through the layers the CLI
 * builds (state/StateLayer.ts), against a real PostgreSQL started from the OS packages.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type CheckpointState, CheckpointStore, checkpointsRoot, initialState } from "../../src/crawl/Checkpoint.ts"
import type { Slice } from "../../src/crawl/Slice.ts"
import { WriterLock } from "../../src/sink/WriterLock.ts"
import { readOutputId } from "../../src/state/OutputId.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { stateLayerOf } from "../../src/state/StateLayer.ts"
import { tempFolders } from "../support/fixtures.ts"
import { PG_PASSWORD, postgresForTests } from "../support/postgres.ts"

const postgres = postgresForTests()

const pgUrl = () => Option.some(Redacted.make(postgres().url))

/** Runs `sql` against the test server, outside the store (to break or delete a row as a user would). */
const direct = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.provide(pgDatabase(Redacted.make(postgres().url)))) as Effect.Effect<A, never>)

interface Backend {
  readonly name: string
  readonly layer: (out: string) => Layer.Layer<CheckpointStore | WriterLock, unknown>
  /** Replaces the stored checkpoint with one of the wrong shape, as a hand edit would. */
  readonly spoil: (out: string, dataset: string, slice: string) => Promise<void>
  /** Deletes the stored checkpoint: the fix a Corrupt error names. */
  readonly remove: (out: string, dataset: string, slice: string) => Promise<void>
}

const backends: ReadonlyArray<Backend> = [
  {
    name: "file store (<out>/_state)",
    layer: (out) => stateLayerOf(out, Option.none()),
    spoil: (out, d, s) => fs.writeFile(path.join(checkpointsRoot(out), d, `${s}.json`), '{"dataset": "delegators", "slice": 7'),
    remove: (out, d, s) => fs.rm(path.join(checkpointsRoot(out), d, `${s}.json`))
  },
  {
    name: "PostgreSQL store (CHAINETL_STATE_URL)",
    layer: (out) => stateLayerOf(out, pgUrl()),
    spoil: async (out, d, s) => {
      const id = await Effect.runPromise(readOutputId(out))
      await direct((sql) => sql`UPDATE chainetl_checkpoints SET state = jsonb_set(state, '{pagesCommitted}', '"seven"') WHERE output_id = ${id!} AND dataset = ${d} AND slice = ${s}`)
    },
    remove: async (out, d, s) => {
      const id = await Effect.runPromise(readOutputId(out))
      await direct((sql) => sql`DELETE FROM chainetl_checkpoints WHERE output_id = ${id!} AND dataset = ${d} AND slice = ${s}`)
    }
  }
]

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("state")

const slice = (dataset: string, id: string): Slice => ({ dataset, id, params: { network: "mainnet", id } })

/** A checkpoint part-way through a listing: two pages committed, a cursor to resume from. */
const midway = (s: Slice, runId = "20261125T000000Z-abcdef"): CheckpointState => ({
  ...initialState(s, runId),
  cursor: "token-of-page-3",
  cursorIssuedAt: 1_764_028_800_000,
  pagesCommitted: 2,
  rowsCommitted: 200,
  rejectsCommitted: 1,
  lastSeq: 1,
  reach: "2025-11-20T00:00:00Z"
})

const withoutTime = ({ updatedAt: _, ...rest }: CheckpointState) => rest

describe.each(backends)("checkpoint store contract: $name", (backend) => {
  const use = <A, E>(out: string, eff: Effect.Effect<A, E, CheckpointStore | WriterLock>) =>
    Effect.runPromise(eff.pipe(Effect.provide(backend.layer(out))) as Effect.Effect<A, never>)
  const useExit = <A, E>(out: string, eff: Effect.Effect<A, E, CheckpointStore | WriterLock>) =>
    Effect.runPromiseExit(eff.pipe(Effect.provide(backend.layer(out))) as Effect.Effect<A, E>)

  it("given a saved checkpoint, when it is loaded, then every field reads back as saved", async () => {
    const out = await tempOut()
    const s = slice("delegators", "mainnet-a1b2")
    const state = midway(s)
    const loaded = await use(out, Effect.gen(function* () {
      const store = yield* CheckpointStore
      yield* store.save(state)
      return yield* store.load(s)
    }))
    expect(loaded).toBeDefined()
    expect(withoutTime(loaded!)).toEqual(withoutTime(state))
  })

  it("given a slice saved twice, when loaded by a later process, then the second state is read, not the first", async () => {
    const out = await tempOut()
    const s = slice("delegators", "mainnet-a1b2")
    await use(out, Effect.flatMap(CheckpointStore, (store) => store.save(midway(s))))
    await use(out, Effect.flatMap(CheckpointStore, (store) => store.save({ ...midway(s), pagesCommitted: 3, rowsCommitted: 330, cursor: null, status: "done", completedAsOf: 1_764_100_000 })))
    const loaded = await use(out, Effect.flatMap(CheckpointStore, (store) => store.load(s)))
    expect(loaded).toMatchObject({ pagesCommitted: 3, rowsCommitted: 330, cursor: null, status: "done", completedAsOf: 1_764_100_000 })
  })

  it("given nothing saved, when a slice is loaded and the store listed, then there is no checkpoint", async () => {
    const out = await tempOut()
    const [loaded, all] = await use(out, Effect.gen(function* () {
      const store = yield* CheckpointStore
      return [yield* store.load(slice("utxos", "x")), yield* store.list()] as const
    }))
    expect(loaded).toBeUndefined()
    expect(all).toEqual([])
  })

  it("given slices of two datasets, when one dataset is listed, then exactly its slices come back", async () => {
    const out = await tempOut()
    const listed = await use(out, Effect.gen(function* () {
      const store = yield* CheckpointStore
      for (const s of [slice("delegators", "a"), slice("delegators", "b"), slice("utxos", "c")]) yield* store.save(midway(s))
      return { delegators: yield* store.list("delegators"), all: yield* store.list() }
    }))
    expect(listed.delegators.map((c) => c.slice).sort()).toEqual(["a", "b"])
    expect(listed.all.map((c) => `${c.dataset}/${c.slice}`).sort()).toEqual(["delegators/a", "delegators/b", "utxos/c"])
  })

  it("given two output folders on one store, when each saves the same slice, then neither sees the other's state", async () => {
    const [a, b] = [await tempOut(), await tempOut()]
    const s = slice("delegators", "same")
    await use(a, Effect.flatMap(CheckpointStore, (store) => store.save({ ...midway(s), pagesCommitted: 1 })))
    await use(b, Effect.flatMap(CheckpointStore, (store) => store.save({ ...midway(s), pagesCommitted: 5 })))
    expect((await use(a, Effect.flatMap(CheckpointStore, (store) => store.load(s))))?.pagesCommitted).toBe(1)
    expect((await use(b, Effect.flatMap(CheckpointStore, (store) => store.load(s))))?.pagesCommitted).toBe(5)
  })

  it("given a checkpoint broken by hand, when loaded, then Corrupt names it and the fix, it is marked for refetch, and once deleted the mark says so", async () => {
    const out = await tempOut()
    const s = slice("delegators", "broken")
    await use(out, Effect.flatMap(CheckpointStore, (store) => store.save(midway(s))))
    await backend.spoil(out, s.dataset, s.id)
    const exit = await useExit(out, Effect.flatMap(CheckpointStore, (store) => store.load(s)))
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? (exit.cause as { error?: { _tag: string; reason: string; message: string } }).error : undefined
    expect(error?._tag).toBe("CheckpointError")
    expect(error?.reason).toBe("Corrupt")
    expect(error?.message).toMatch(/broken .*Fix: delete it/)
    expect(await use(out, Effect.flatMap(CheckpointStore, (store) => store.marked("delegators")))).toEqual([{ slice: "broken", checkpoint: "broken" }])
    await backend.remove(out, s.dataset, s.id)
    expect(await use(out, Effect.flatMap(CheckpointStore, (store) => store.marked("delegators")))).toEqual([{ slice: "broken", checkpoint: "absent" }])
    await use(out, Effect.flatMap(CheckpointStore, (store) => store.unmark("delegators", "broken")))
    expect(await use(out, Effect.flatMap(CheckpointStore, (store) => store.marked("delegators")))).toEqual([])
  })

  it("given two slices saved and one of them marked broken, when the marked one is removed through the store, then it is neither listed nor loaded nor marked, and the other slice stays as it was", async () => {
    const out = await tempOut()
    const kept = slice("delegators", "kept")
    const gone = slice("delegators", "gone")
    await use(out, Effect.flatMap(CheckpointStore, (store) => Effect.all([store.save(midway(kept)), store.save(midway(gone))])))
    await backend.spoil(out, gone.dataset, gone.id)
    await useExit(out, Effect.flatMap(CheckpointStore, (store) => store.load(gone)))
    expect(await use(out, Effect.flatMap(CheckpointStore, (store) => store.marked("delegators")))).toEqual([{ slice: "gone", checkpoint: "broken" }])
    await use(out, Effect.flatMap(CheckpointStore, (store) => store.remove("delegators", "gone")))
    const after = await use(out, Effect.flatMap(CheckpointStore, (store) => Effect.all([store.list("delegators"), store.load(gone), store.load(kept), store.marked("delegators")])))
    expect([after[0].map((s) => s.slice), after[1], withoutTime(after[2]!), after[3]]).toEqual([["kept"], undefined, withoutTime(midway(kept)), []])
  })

  it("given a run holding the writer lock, when a second writer asks for the same output, then it is refused naming the holder; once released, the lock is free again", async () => {
    const out = await tempOut()
    const result = await use(out, Effect.gen(function* () {
      const lock = yield* WriterLock
      const scope = yield* Scope.make()
      yield* Scope.extend(lock.acquire(out, "20261125T010000Z-111111"), scope)
      const second = yield* Effect.exit(Effect.scoped(lock.acquire(out, "20261125T010001Z-222222")))
      yield* Scope.close(scope, Exit.void)
      const third = yield* Effect.exit(Effect.scoped(lock.acquire(out, "20261125T010002Z-333333")))
      return { second, third }
    }))
    expect(Exit.isFailure(result.second)).toBe(true)
    const refused = Exit.isFailure(result.second) ? (result.second.cause as { error?: { reason: string; message: string } }).error : undefined
    expect(refused?.reason).toBe("Locked")
    expect(refused?.message).toContain("in use by run 20261125T010000Z-111111")
    expect(refused?.message).toContain(`pid ${process.pid}`)
    expect(Exit.isSuccess(result.third)).toBe(true)
  })

  it("given a lock held through one path to a folder, when a writer comes through a symbolic link to it, then it is refused too", async () => {
    const out = await tempOut()
    const link = path.join(await tempOut(), "link")
    await fs.symlink(out, link)
    const second = await use(out, Effect.gen(function* () {
      const lock = yield* WriterLock
      const scope = yield* Scope.make()
      yield* Scope.extend(lock.acquire(out, "20261125T020000Z-aaaaaa"), scope)
      const viaLink = yield* Effect.exit(Effect.scoped(lock.acquire(link, "20261125T020001Z-bbbbbb")))
      yield* Scope.close(scope, Exit.void)
      return viaLink
    }))
    expect(Exit.isFailure(second)).toBe(true)
  })
})

describe("PostgreSQL store: what only it has", () => {
  it("given checkpoints in PostgreSQL, when a run saves them, then no checkpoint file is written under <out>/_state/checkpoints and the password appears in no error", async () => {
    const out = await tempOut()
    await Effect.runPromise(Effect.flatMap(CheckpointStore, (store) => store.save(midway(slice("delegators", "a")))).pipe(Effect.provide(stateLayerOf(out, pgUrl()))))
    await expect(fs.readdir(checkpointsRoot(out))).rejects.toMatchObject({ code: "ENOENT" })
    expect((await fs.readdir(path.join(out, "_state"))).sort()).toEqual(["output-id"])
  })

  it("given a folder whose checkpoints are files, when CHAINETL_STATE_URL is set for it, then it is refused naming the setting (its slices would be fetched again beside their parts)", async () => {
    const out = await tempOut()
    await Effect.runPromise(Effect.flatMap(CheckpointStore, (store) => store.save(midway(slice("delegators", "a")))).pipe(Effect.provide(stateLayerOf(out, Option.none()))))
    const exit = await Effect.runPromiseExit(Effect.flatMap(CheckpointStore, (store) => store.list()).pipe(Effect.provide(stateLayerOf(out, pgUrl()))))
    const error = Exit.isFailure(exit) ? (exit.cause as { error?: { _tag: string; message: string } }).error : undefined
    expect(error?._tag).toBe("ConfigError")
    expect(error?.message).toContain(`CHAINETL_STATE_URL: ${out} keeps its checkpoints in files`)
  })

  it("given a folder whose state is in PostgreSQL, when CHAINETL_STATE_URL is unset, then it is refused naming the setting rather than read as having no checkpoints", async () => {
    const out = await tempOut()
    await Effect.runPromise(Effect.flatMap(CheckpointStore, (store) => store.save(midway(slice("delegators", "a")))).pipe(Effect.provide(stateLayerOf(out, pgUrl()))))
    const exit = await Effect.runPromiseExit(Effect.flatMap(CheckpointStore, (store) => store.list()).pipe(Effect.provide(stateLayerOf(out, Option.none()))))
    const error = Exit.isFailure(exit) ? (exit.cause as { error?: { _tag: string; message: string } }).error : undefined
    expect(error?._tag).toBe("ConfigError")
    expect(error?.message).toContain(`CHAINETL_STATE_URL: ${out} keeps its checkpoints in PostgreSQL`)
  })

  it("given a URL whose server refuses the password, when the store is built, then a ConfigError names CHAINETL_STATE_URL and the fix, without the password", async () => {
    const wrong = postgres().url.replace(encodeURIComponent(PG_PASSWORD), "not-the-password")
    const exit = await Effect.runPromiseExit(Effect.flatMap(CheckpointStore, (store) => store.list()).pipe(Effect.provide(stateLayerOf(await tempOut(), Option.some(Redacted.make(wrong))))))
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? (exit.cause as { error?: { _tag: string; message: string } }).error : undefined
    expect(error?._tag).toBe("ConfigError")
    expect(error?.message).toMatch(/^CHAINETL_STATE_URL: PostgreSQL at postgres:\/\/chainetl@127\.0\.0\.1:\d+\/postgres could not be used \(.*password authentication failed.*\)\. Fix: /)
    expect(error?.message).not.toContain("not-the-password")
    expect(error?.message).not.toContain(PG_PASSWORD)
  })
})
