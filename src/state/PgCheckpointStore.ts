/**
 * Checkpoints in PostgreSQL: one row of `chainetl_checkpoints` per (output, dataset, slice), the
 * state as JSONB, the same JSON the file store writes. `save` is one upsert statement, so it is
 * atomic (the old state or the new one, never a torn one) and durable when it returns (a commit
 * with the server's default synchronous_commit): the crawler calls it only after the parts it
 * records are fsynced and renamed, so a checkpoint never points past durable data.
 *
 * Rows are keyed by the output folder's id (OutputId.ts), so one database can hold the state of
 * many outputs and the state follows its folder. A folder with no id has no state: `load` and
 * `list` find nothing and create nothing (status and report stay read-only); the first `save`
 * creates the id.
 *
 * A row that does not hold its slice's checkpoint (edited by hand, written by another program)
 * is handled like a broken file: CheckpointError "Corrupt" naming the row, a marker row in
 * `chainetl_refetch`, the row left as it is.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { CheckpointError, type SinkError } from "../Errors.ts"
import { type CheckpointState, CheckpointStore, type CursorCheck, type MarkedSlice, checkpointProblem } from "../crawl/Checkpoint.ts"
import { ensureOutputId, readOutputId } from "./OutputId.ts"

interface Row {
  readonly dataset: string
  readonly slice: string
  readonly state: unknown
}

/** How a broken row is named in its error: the statement that removes it is the fix. */
export const rowName = (outputId: string, dataset: string, slice: string): string =>
  `PostgreSQL row chainetl_checkpoints (output_id '${outputId}', dataset '${dataset}', slice '${slice}')`

/**
 * The statement that saves a checkpoint, with its values: a distributed worker runs it on its
 * slice lock's own session (distributed/Worker.ts), so it lands only while the lock is held.
 */
export const checkpointUpsert = (outputId: string, state: CheckpointState): readonly [string, ReadonlyArray<unknown>] => [
  `INSERT INTO chainetl_checkpoints (output_id, dataset, slice, state, updated_at)
   VALUES ($1, $2, $3, $4::jsonb, now())
   ON CONFLICT (output_id, dataset, slice) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
  [outputId, state.dataset, state.slice, JSON.stringify({ ...state, updatedAt: new Date().toISOString() })]
]

const io = (slice: string) => (e: SqlError | SinkError) =>
  new CheckpointError({ reason: "Io", slice, detail: e._tag === "SqlError" ? `PostgreSQL: ${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}` : e.message })

export const makePgCheckpointStore = (out: string): Effect.Effect<CheckpointStore["Type"], never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // the id never changes while a run holds the folder; read once it exists
    let known: string | undefined
    const idIfAny = Effect.suspend(() => (known !== undefined ? Effect.succeed(known) : Effect.tap(readOutputId(out), (id) => void (known = id))))
    const idOrCreate = Effect.suspend(() => (known !== undefined ? Effect.succeed(known) : Effect.tap(ensureOutputId(out), (id) => void (known = id))))

    /** The row's state, or the Corrupt error naming it (and its marker written). */
    const parse = (id: string, row: Row, cursor?: CursorCheck): Effect.Effect<CheckpointState, CheckpointError | SqlError> => {
      const problem = checkpointProblem(row.state, row.dataset, row.slice, cursor)
      if (problem === undefined) return Effect.succeed(row.state as CheckpointState)
      return sql`INSERT INTO chainetl_refetch (output_id, dataset, slice) VALUES (${id}, ${row.dataset}, ${row.slice}) ON CONFLICT DO NOTHING`.pipe(
        Effect.andThen(Effect.fail(new CheckpointError({ reason: "Corrupt", slice: row.slice, file: rowName(id, row.dataset, row.slice), detail: problem })))
      )
    }

    const load: CheckpointStore["Type"]["load"] = (slice, cursor) =>
      Effect.gen(function* () {
        const id = yield* idIfAny
        if (id === undefined) return undefined
        const rows = yield* sql<Row>`SELECT dataset, slice, state FROM chainetl_checkpoints WHERE output_id = ${id} AND dataset = ${slice.dataset} AND slice = ${slice.id}`
        const row = rows[0]
        return row === undefined ? undefined : yield* parse(id, row, cursor)
      }).pipe(Effect.catchTags({ SqlError: (e) => Effect.fail(io(slice.id)(e)), SinkError: (e) => Effect.fail(io(slice.id)(e)) }))

    const save: CheckpointStore["Type"]["save"] = (state) =>
      Effect.gen(function* () {
        const id = yield* idOrCreate
        const [text, values] = checkpointUpsert(id, state)
        yield* sql.unsafe(text, values)
      }).pipe(Effect.catchTags({ SqlError: (e) => Effect.fail(io(state.slice)(e)), SinkError: (e) => Effect.fail(io(state.slice)(e)) }))

    const list: CheckpointStore["Type"]["list"] = (only) =>
      Effect.gen(function* () {
        const id = yield* idIfAny
        if (id === undefined) return []
        const rows =
          only === undefined
            ? yield* sql<Row>`SELECT dataset, slice, state FROM chainetl_checkpoints WHERE output_id = ${id} ORDER BY dataset, slice`
            : yield* sql<Row>`SELECT dataset, slice, state FROM chainetl_checkpoints WHERE output_id = ${id} AND dataset = ${only} ORDER BY slice`
        return yield* Effect.forEach(rows, (row) => parse(id, row))
      }).pipe(Effect.catchTags({ SqlError: (e) => Effect.fail(io("*")(e)), SinkError: (e) => Effect.fail(io("*")(e)) }))

    const marked: CheckpointStore["Type"]["marked"] = (dataset, cursor) =>
      Effect.gen(function* () {
        const id = yield* idIfAny
        if (id === undefined) return []
        const rows = yield* sql<Row & { readonly present: boolean }>`
          SELECT r.dataset, r.slice, c.state, c.output_id IS NOT NULL AS present
          FROM chainetl_refetch r
          LEFT JOIN chainetl_checkpoints c ON c.output_id = r.output_id AND c.dataset = r.dataset AND c.slice = r.slice
          WHERE r.output_id = ${id} AND r.dataset = ${dataset}
          ORDER BY r.slice`
        return rows.map(
          (r): MarkedSlice => ({
            slice: r.slice,
            checkpoint: !r.present ? "absent" : checkpointProblem(r.state, r.dataset, r.slice, cursor) === undefined ? "readable" : "broken"
          })
        )
      }).pipe(Effect.catchTags({ SqlError: (e) => Effect.fail(io("*")(e)), SinkError: (e) => Effect.fail(io("*")(e)) }))

    const unmark: CheckpointStore["Type"]["unmark"] = (dataset, slice) =>
      Effect.gen(function* () {
        const id = yield* idIfAny
        if (id === undefined) return
        yield* sql`DELETE FROM chainetl_refetch WHERE output_id = ${id} AND dataset = ${dataset} AND slice = ${slice}`
      }).pipe(Effect.catchTags({ SqlError: (e) => Effect.fail(io(slice)(e)), SinkError: (e) => Effect.fail(io(slice)(e)) }))

    const remove: CheckpointStore["Type"]["remove"] = (dataset, slice) =>
      Effect.gen(function* () {
        const id = yield* idIfAny
        if (id === undefined) return
        // one transaction: the slice is forgotten whole or not at all
        yield* sql.withTransaction(
          Effect.all([
            sql`DELETE FROM chainetl_checkpoints WHERE output_id = ${id} AND dataset = ${dataset} AND slice = ${slice}`,
            sql`DELETE FROM chainetl_refetch WHERE output_id = ${id} AND dataset = ${dataset} AND slice = ${slice}`
          ])
        )
      }).pipe(Effect.catchTags({ SqlError: (e) => Effect.fail(io(slice)(e)), SinkError: (e) => Effect.fail(io(slice)(e)) }))

    // one upsert a slice is cheap enough: each slice's running state is saved as it starts
    return { load, save, list, marked, unmark, remove, open: () => Effect.void, settle: Effect.void }
  })

/** The store of `out` on the database the layer below provides (PgDatabase.ts). */
export const pgCheckpointStoreLayer = (out: string): Layer.Layer<CheckpointStore, never, SqlClient.SqlClient> =>
  Layer.effect(CheckpointStore, makePgCheckpointStore(out))
