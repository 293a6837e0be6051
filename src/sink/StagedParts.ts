/**
 * The parts being filled, one per (dataset, slice): their rows wait in DuckDB (PartWriter.ts's
 * OpenPart), their partition groups here (PartGroups.ts), until the part is written or dropped.
 * A schema's row writer is compiled once (RowEncoder.ts) for every part of that schema and
 * partitioning.
 */
import type * as arrow from "../ArrowTypes.ts"
import * as path from "node:path"
import { PartGroups } from "./PartGroups.ts"
import type { StageInput } from "./PartInput.ts"
import type { OpenPart, PartWriter } from "./PartWriter.ts"
import { type CompiledRows, compileRows } from "./RowEncoder.ts"
import { invalid } from "./SinkFailure.ts"

/** A (dataset, slice)'s part being filled: its rows are in DuckDB, its groups here. */
export interface StagedPart {
  readonly compiled: CompiledRows
  readonly groups: PartGroups
  /** Opened on the first rows; every append goes through it in call order. */
  readonly part: Promise<OpenPart>
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
  /** Ends a part without writing it (never fails). */
  readonly drop: (target: StagedPart) => Promise<void>
  /** Drops the (dataset, slice)'s part; none staged: nothing. */
  readonly discard: (dataset: string, slice: string) => Promise<void>
  /** Forgets every part (the sink closes: their connections go with the writer). */
  readonly clear: () => void
}

export const makeStagedParts = (outDir: string, writer: PartWriter): StagedParts => {
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

  /** A part for `input`'s schema and partitions; its connection is being taken. */
  const open = (input: StageInput): StagedPart => {
    const rows = compile(input.schema, input.partitionBy.map((p) => p.key))
    const part = writer.open(rows)
    part.catch(() => undefined) // awaited by whoever appends, writes or drops
    return { compiled: rows, groups: new PartGroups(input.partitionBy), part, rows: 0, bytes: 0 }
  }

  const groupInto = (target: StagedPart, input: StageInput): Int32Array => {
    if (compile(input.schema, input.partitionBy.map((p) => p.key)) !== target.compiled) {
      throw invalid(path.join(outDir, input.dataset), "rows of another schema or partitioning than the rows staged before them")
    }
    const groupOf = target.groups.add(input.rows)
    target.rows += input.rows.length
    return groupOf
  }

  const drop = (target: StagedPart): Promise<void> => target.part.then((p) => p.discard(), () => undefined)

  const stage = async (input: StageInput): Promise<number> => {
    const key = keyOf(input.dataset, input.slice)
    let target = staged.get(key)
    if (target === undefined) staged.set(key, (target = open(input)))
    try {
      const groupOf = groupInto(target, input)
      target.bytes = await (await target.part).append(input.rows, groupOf)
      return target.bytes
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
    drop,
    discard,
    clear: () => staged.clear()
  }
}
