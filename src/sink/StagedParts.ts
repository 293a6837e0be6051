/**
 * The parts being filled, one per (dataset, slice): their rows wait in DuckDB (PartWriter.ts's
 * OpenPart), their partition groups here (PartGroups.ts), until the part is written or dropped.
 * A schema's row writer is compiled once (RowEncoder.ts) for every part of that schema and
 * partitioning.
 *
 * A part's first rows, while there are fewer than SMALL_FILE_ROWS, are held here instead, and
 * DuckDB's table is opened only when the part outgrows them: a part that stays this small is
 * written without DuckDB (SmallParquet.ts), which spares a one-page slice the table, its appender
 * and its COPY. Held rows count no bytes towards the part's bound (`--part-mb`): there are too few.
 */
import type * as arrow from "../ArrowTypes.ts"
import * as path from "node:path"
import { PartGroups } from "./PartGroups.ts"
import type { StageInput } from "./PartInput.ts"
import { type OpenPart, type PartWriter, SMALL_FILE_ROWS } from "./PartWriter.ts"
import type { Row } from "../../schemas/common.ts"
import type { SmallFile } from "./SmallParquet.ts"
import type { SmallParts } from "./SmallParts.ts"
import { type CompiledRows, compileRows } from "./RowEncoder.ts"
import { invalid } from "./SinkFailure.ts"

/** A (dataset, slice)'s part being filled: its rows are in DuckDB (or held, while few), its groups here. */
export interface StagedPart {
  readonly compiled: CompiledRows
  readonly groups: PartGroups
  /** Opened once the part outgrows the rows held; every append goes through it in call order. */
  part: Promise<OpenPart> | undefined
  /** The part's rows while it is small (no DuckDB part yet), each batch with its rows' groups. */
  held: Array<{ readonly rows: ReadonlyArray<Row>; readonly groupOf: Int32Array }>
  /** Meanwhile the same rows shredded into one small file per group (SmallParts.ts). */
  files: SmallFile[]
  rows: number
  /** What its appends handed to DuckDB so far (OpenPart's `append`). */
  bytes: number
}

export interface StagedParts {
  /**
   * Appends `input`'s rows to its (dataset, slice)'s part, opening one; returns the bytes the part
   * holds. A part that fails to take them is dropped whole: a part missing rows is never written.
   */
  readonly stage: (input: StageInput) => Promise<number>
  /** The bytes staged for (dataset, slice) so far; 0 for none. */
  readonly bytes: (dataset: string, slice: string) => number
  /**
   * Takes the (dataset, slice)'s part out to be written: the one staged, else a new one for
   * `input`'s rows, else (no rows anywhere) undefined.
   */
  readonly take: (input: StageInput) => StagedPart | undefined
  /** Counts `input`'s rows into `target`'s groups (synchronously, so calls keep their order). */
  readonly groupInto: (target: StagedPart, input: StageInput) => Int32Array
  /**
   * Adds rows counted by `groupInto` to the part: held while the part is small, else appended to
   * its DuckDB part (opened now if need be, with the rows held so far). Returns the part's bytes.
   */
  readonly place: (target: StagedPart, rows: ReadonlyArray<Row>, groupOf: Int32Array) => Promise<number>
  /** Ends a part without writing it (never fails). */
  readonly drop: (target: StagedPart) => Promise<void>
  /** Drops the (dataset, slice)'s part; none staged: nothing. */
  readonly discard: (dataset: string, slice: string) => Promise<void>
  /** Forgets every part (the sink closes: their connections go with the writer). */
  readonly clear: () => void
}

export const makeStagedParts = (outDir: string, writer: PartWriter, small: SmallParts): StagedParts => {
  const compiled = new WeakMap<arrow.Schema, Map<string, CompiledRows>>()
  const staged = new Map<string, StagedPart>()
  const keyOf = (dataset: string, slice: string) => `${dataset}/${slice}`

  const compile = (schema: arrow.Schema, omit: ReadonlyArray<string>): CompiledRows => {
    const bySchema = compiled.get(schema) ?? new Map<string, CompiledRows>()
    compiled.set(schema, bySchema)
    const id = omit.join("/")
    const hit = bySchema.get(id)
    if (hit !== undefined) return hit
    const made = compileRows(schema, new Set(omit))
    bySchema.set(id, made)
    return made
  }

  /** A part for `input`'s schema and partitions, holding no rows yet. */
  const open = (input: StageInput): StagedPart => {
    const rows = compile(input.schema, input.partitionBy.map((p) => p.key))
    return { compiled: rows, groups: new PartGroups(input.partitionBy), part: undefined, held: [], files: [], rows: 0, bytes: 0 }
  }

  const place = async (target: StagedPart, rows: ReadonlyArray<Row>, groupOf: Int32Array): Promise<number> => {
    if (target.part === undefined && target.rows < SMALL_FILE_ROWS) {
      // checked and shredded now, as DuckDB's appender would check them
      const writer = await small.writerOf(target.compiled)
      for (let r = 0; r < rows.length; r++) (target.files[groupOf[r]!] ??= writer.open()).add(rows[r]!, r)
      target.held.push({ rows, groupOf })
      return target.bytes
    }
    if (target.part === undefined) {
      // the part outgrew its held rows: its DuckDB table takes them first, in order
      const part = writer.open(target.compiled)
      part.catch(() => undefined) // awaited by whoever appends, writes or drops
      target.part = part
      const held = target.held
      target.held = []
      target.files = []
      for (const h of held) target.bytes = await (await part).append(h.rows, h.groupOf)
    }
    target.bytes = await (await target.part).append(rows, groupOf)
    return target.bytes
  }

  const groupInto = (target: StagedPart, input: StageInput): Int32Array => {
    if (compile(input.schema, input.partitionBy.map((p) => p.key)) !== target.compiled) {
      throw invalid(path.join(outDir, input.dataset), "rows of another schema or partitioning than the rows staged before them")
    }
    const groupOf = target.groups.add(input.rows)
    target.rows += input.rows.length
    return groupOf
  }

  const drop = (target: StagedPart): Promise<void> => {
    target.held = []
    target.files = []
    return target.part === undefined ? Promise.resolve() : target.part.then((p) => p.discard(), () => undefined)
  }

  const stage = async (input: StageInput): Promise<number> => {
    const key = keyOf(input.dataset, input.slice)
    let target = staged.get(key)
    if (target === undefined) staged.set(key, (target = open(input)))
    try {
      return await place(target, input.rows, groupInto(target, input))
    } catch (e) {
      if (staged.get(key) === target) staged.delete(key)
      await drop(target)
      throw e
    }
  }

  const take = (input: StageInput): StagedPart | undefined => {
    const key = keyOf(input.dataset, input.slice)
    const target = staged.get(key)
    staged.delete(key)
    if (target !== undefined) return target
    return input.rows.length === 0 ? undefined : open(input)
  }

  const discard = (dataset: string, slice: string): Promise<void> => {
    const key = keyOf(dataset, slice)
    const target = staged.get(key)
    if (target === undefined) return Promise.resolve()
    staged.delete(key)
    return drop(target)
  }

  return {
    stage,
    bytes: (dataset, slice) => staged.get(keyOf(dataset, slice))?.bytes ?? 0,
    take,
    groupInto,
    place,
    drop,
    discard,
    clear: () => staged.clear()
  }
}
