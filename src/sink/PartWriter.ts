/**
 * Writes a part's rows as Parquet through DuckDB in ONE bulk operation, however many partitions
 * the part spans: the rows are appended (2,048-row data chunks) into a table typed from the Arrow
 * schema plus a small integer partition-group column, then one
 * `COPY … (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (group))` writes one file per group into
 * a staging folder (a part of one group: a plain COPY to one file). The caller maps each group
 * back to its Hive folder (HivePath's encoding, not DuckDB's) and commits the files.
 *
 * Why this shape: with a CREATE TABLE, appender, flush, COPY and DROP per partition, the CPU
 * followed files, not rows, and a file cost many times what it costs now (measured:
 * docs/performance.md#sink-and-parquet-writer). Here a connection lives as long as the sink, a
 * part's table is created for the part and dropped after it, and it can be filled as its pages
 * arrive (OpenPart: the crawler holds no part's rows in JavaScript) (DuckDB keeps a temporary
 * table's storage after a DELETE: reused and emptied, it grew by every row ever written), and
 * COPY's partitioned writer splits the rows.
 * The group column is a PARTITION_BY column, which DuckDB keeps out of the files by default
 * (WRITE_PARTITION_COLUMNS false). DuckDB has no Arrow ingestion in @duckdb/node-api, hence the
 * row encoder.
 */
import {
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBInstance,
  type DuckDBType,
  INTEGER,
  quotedIdentifier,
  quotedString
} from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { Row } from "../../schemas/common.ts"
import type { CompiledRows } from "./RowEncoder.ts"
import { PARQUET_OPTIONS } from "../files/ParquetOptions.ts"

/** DuckDB's vector size: the most a data chunk holds. */
export const CHUNK_ROWS = 2048

/** Not snake_case (schemas/common.ts), so no schema field can take this name. */
export const GROUP_COLUMN = "__group"

/**
 * A part whose files hold fewer rows than this on average is written with snappy instead: zstd
 * costs a fixed amount of CPU more per file than snappy, whatever the rows, while a file this
 * small is mostly its footer, so zstd saves few bytes there; at thousands of rows a file both
 * codecs cost the same CPU and zstd writes far fewer bytes (measured:
 * docs/performance.md#per-file). Such files are what compaction merges, and its files are zstd.
 */
export const SMALL_FILE_ROWS = 32
const SMALL_FILES_PARQUET_OPTIONS = "FORMAT parquet, COMPRESSION snappy"

/** The options of a part of `rows` rows in `files` files. */
const parquetOptionsFor = (rows: number, files: number): string =>
  rows < SMALL_FILE_ROWS * files ? SMALL_FILES_PARQUET_OPTIONS : PARQUET_OPTIONS

/** A temporary table: it belongs to its connection alone and goes with it. */
export const createTableSql = (table: string, compiled: CompiledRows): string =>
  `CREATE TEMP TABLE ${quotedIdentifier(table)} (${[
    ...compiled.fields.map(
      (f, i) => `${quotedIdentifier(f.name)} ${compiled.wires[i]!.type.toString()}${f.nullable ? "" : " NOT NULL"}`
    ),
    `${quotedIdentifier(GROUP_COLUMN)} INTEGER NOT NULL`
  ].join(", ")})`

interface Session {
  readonly connection: DuckDBConnection
  readonly id: number
  /** Parts this connection has opened: names its tables. */
  parts: number
  /**
   * The data chunk of its last part's schema, reset for each batch of each part of that schema: a
   * session fills one part at a time, and a chunk made per part (its native vectors allocated for
   * 2,048 rows of every column, freed only when the collector finalizes its wrapper) was a fixed
   * cost of every small part. One, not one per schema: a session keeps no more than one part held.
   */
  chunk: { readonly compiled: CompiledRows; readonly chunk: DuckDBDataChunk } | undefined
}

export interface GroupedRows {
  /** `groupOf[r]` is row r's group, 0 … groupCount-1. */
  readonly groupOf: Int32Array
  readonly groupCount: number
}

/**
 * A part being filled: its rows live in a DuckDB temporary table (behind an appender) from the
 * moment they are appended, not in JavaScript. It holds a connection of the pool until it is
 * written or discarded, whichever comes first; its operations run one after the other in call
 * order, so a discard waits for an append or write still running.
 */
export interface OpenPart {
  /**
   * Appends rows; `groupOf[r]` is row r's partition group. Returns the bytes the part holds so
   * far, as its chunks were handed to DuckDB (RowEncoder's `fill`): its table's size follows them
   * (a multiple of them, with DuckDB's segments and string heaps:
   * docs/performance.md#sink-and-parquet-writer).
   */
  readonly append: (rows: ReadonlyArray<Row>, groupOf: Int32Array) => Promise<number>
  /**
   * Writes every row appended into `stagingDir`, a folder that exists (outside every table folder;
   * it may hold the partition folders of this writer's earlier parts) and returns, per group 0 … groupCount-1,
   * the one Parquet file holding its rows, named after the part. Ends the part, failed or not.
   */
  readonly write: (groupCount: number, stagingDir: string) => Promise<ReadonlyArray<string>>
  /** Ends the part without writing it (never fails; a part already ended: nothing). */
  readonly discard: () => Promise<void>
}

export interface PartWriter {
  /** Opens a part of the compiled schema's rows. */
  readonly open: (compiled: CompiledRows) => Promise<OpenPart>
  /** Opens, appends `rows` and writes: a part whose rows are all at hand. */
  readonly write: (
    compiled: CompiledRows,
    rows: ReadonlyArray<Row>,
    groups: GroupedRows,
    stagingDir: string
  ) => Promise<ReadonlyArray<string>>
  /** Writes a file of no rows of the compiled schema: DuckDB's Parquet schema of it (ParquetTemplate.ts). */
  readonly template: (compiled: CompiledRows, file: string) => Promise<void>
  /** Connections lent to parts not yet written or discarded (a leak shows here). */
  readonly inUse: () => number
  readonly close: () => void
}

/**
 * A writer over `db`. Slices fill parts concurrently, so each part takes a connection of its own
 * from a small pool (a connection runs one statement at a time, and its tables are only its own).
 */
export const makePartWriter = (db: DuckDBInstance): PartWriter => {
  const idle: Session[] = []
  const all: Session[] = []
  let sessions = 0

  const acquire = async (): Promise<Session> => {
    const free = idle.pop()
    if (free !== undefined) return free
    const connection = await db.connect()
    // one file per group: past this many open files DuckDB closes some and starts a second file
    // for their partition later (a part rarely spans more than a few hundred partitions)
    await connection.run("SET partitioned_write_max_open_files = 100000")
    // a partitioned COPY buffers its input per partition until this many rows, then hands them to
    // the files' writers, which buffer them again until their row group is complete: at DuckDB's
    // 524,288 a part was held twice during its COPY besides its table. One data chunk's worth
    // writes the same files (same rows, order and row groups) and lowered primary_blocks' peak
    // RSS for no CPU that showed (docs/performance.md#sink-and-parquet-writer)
    await connection.run(`SET partitioned_write_flush_threshold = ${CHUNK_ROWS}`)
    const session: Session = { connection, id: ++sessions, parts: 0, chunk: undefined }
    all.push(session)
    return session
  }

  const release = (session: Session, healthy: boolean) => {
    if (!all.includes(session)) return // the writer was closed meanwhile
    if (healthy) idle.push(session)
    else {
      // a statement that failed may leave the connection's transaction aborted: start afresh
      all.splice(all.indexOf(session), 1)
      session.connection.closeSync()
    }
  }

  const open = async (compiled: CompiledRows): Promise<OpenPart> => {
    const session = await acquire()
    const name = `part_${session.id}_${++session.parts}`
    const types: ReadonlyArray<DuckDBType> = [...compiled.wires.map((w) => w.type), INTEGER]
    let appender: DuckDBAppender
    try {
      await session.connection.run(createTableSql(name, compiled))
      appender = await session.connection.createAppender(name, "main", "temp")
    } catch (e) {
      await session.connection.run(`DROP TABLE IF EXISTS ${quotedIdentifier(name)}`).catch(() => undefined)
      release(session, false)
      throw e
    }
    const t = quotedIdentifier(name)
    const g = quotedIdentifier(GROUP_COLUMN)
    let rowsAppended = 0
    let bytesAppended = 0
    let appending = true
    let ended = false
    let queue: Promise<unknown> = Promise.resolve()
    const inTurn = <A>(step: () => Promise<A>): Promise<A> => {
      const done = queue.then(step)
      queue = done.catch(() => undefined)
      return done
    }

    /** Closes the appender, drops the table, gives the connection back: once. */
    const end = async () => {
      if (ended) return
      ended = true
      let healthy = true
      try {
        if (appending) appender.closeSync()
      } catch {
        healthy = false
      }
      // dropped, not emptied: DuckDB keeps a temporary table's storage after DELETE (it grew by
      // every row ever written), and a CREATE per part is cheap
      // (docs/performance.md#sink-and-parquet-writer)
      await session.connection.run(`DROP TABLE ${t}`).catch(() => {
        healthy = false
      })
      release(session, healthy)
    }

    const append: OpenPart["append"] = (rows, groupOf) =>
      inTurn(async () => {
        if (ended) throw new Error(`part ${name} was already written or discarded`)
        for (let from = 0; from < rows.length; from += CHUNK_ROWS) {
          const to = Math.min(rows.length, from + CHUNK_ROWS)
          // the session's chunk when it is of this schema, reset between batches: a chunk's native
          // vectors are freed only when the collector finalizes its wrapper, so a chunk per batch
          // (or per part) piled them up
          let chunk: DuckDBDataChunk
          if (session.chunk?.compiled === compiled) (chunk = session.chunk.chunk).reset()
          else session.chunk = { compiled, chunk: (chunk = DuckDBDataChunk.create(types, CHUNK_ROWS)) }
          bytesAppended += compiled.fill(chunk, rows, from, to, groupOf)
          appender.appendDataChunk(chunk)
        }
        rowsAppended += rows.length
        return bytesAppended
      })

    const write: OpenPart["write"] = (groupCount, stagingDir) =>
      inTurn(async () => {
        if (ended) throw new Error(`part ${name} was already written or discarded`)
        try {
          // closing flushes the appender's last rows into the table
          appending = false
          appender.closeSync()
          const options = parquetOptionsFor(rowsAppended, groupCount)
          if (groupCount === 1) {
            // one partition (a small slice's part mostly is): a plain COPY writes the same file
            // without the partitioned writer's fixed cost per statement
            // (docs/performance.md#cheap-slices)
            const single = path.join(stagingDir, `${name}.parquet`)
            await session.connection.run(`COPY (SELECT ${compiled.selectList} FROM ${t}) TO ${quotedString(single)} (${options})`)
            return [single]
          }
          const result = await session.connection.runAndReadAll(
            `COPY (SELECT ${compiled.selectList}, ${g} FROM ${t}) TO ${quotedString(stagingDir)} (${options}, PARTITION_BY (${g}), ` +
              // the folder may hold earlier parts' empty partition folders: no check for files
              // in it (a recursive listing); the part's table names its files, so no two parts
              // of this writer share a file name
              `OVERWRITE_OR_IGNORE true, FILENAME_PATTERN '${name}_{i}', RETURN_FILES true)`
          )
          const files: string[][] = Array.from({ length: groupCount }, () => [])
          for (const file of (result.getRowsJS()[0]?.[1] ?? []) as string[]) {
            const m = /=(\d+)$/.exec(path.basename(path.dirname(file)))
            if (m === null || Number(m[1]) >= groupCount) throw new Error(`COPY wrote an unexpected file ${file}`)
            files[Number(m[1])]!.push(file)
          }
          const out: string[] = []
          for (let k = 0; k < groupCount; k++) {
            const mine = files[k]!
            if (mine.length === 1) {
              out.push(mine[0]!)
              continue
            }
            // DuckDB split a group over several files (it does past its open-file limit): write
            // that group alone, which yields one file
            for (const f of mine) await fs.rm(f, { force: true })
            const single = path.join(stagingDir, `${name}_group_${k}.parquet`)
            await session.connection.run(
              `COPY (SELECT ${compiled.selectList} FROM ${t} WHERE ${g} = ${k}) TO ${quotedString(single)} (${options})`
            )
            out.push(single)
          }
          return out
        } finally {
          await end()
        }
      })

    const discard: OpenPart["discard"] = () => inTurn(end).catch(() => undefined)

    return { append, write, discard }
  }

  const write: PartWriter["write"] = async (compiled, rows, groups, stagingDir) => {
    const part = await open(compiled)
    try {
      await part.append(rows, groups.groupOf)
    } catch (e) {
      await part.discard()
      throw e
    }
    return part.write(groups.groupCount, stagingDir)
  }

  const template: PartWriter["template"] = async (compiled, file) => {
    const session = await acquire()
    const name = `template_${session.id}_${++session.parts}`
    const t = quotedIdentifier(name)
    let healthy = true
    try {
      await session.connection.run(createTableSql(name, compiled))
      await session.connection.run(`COPY (SELECT ${compiled.selectList} FROM ${t}) TO ${quotedString(file)} (${SMALL_FILES_PARQUET_OPTIONS})`)
    } catch (e) {
      healthy = false
      throw e
    } finally {
      await session.connection.run(`DROP TABLE IF EXISTS ${t}`).catch(() => {
        healthy = false
      })
      release(session, healthy)
    }
  }

  const close = () => {
    for (const s of all) s.connection.closeSync()
    all.length = 0
    idle.length = 0
  }

  return { open, write, template, inUse: () => all.length - idle.length, close }
}
