/**
 * The parts that stay small (StagedParts.ts holds their rows; no DuckDB table is opened): their
 * rows are checked and shredded as they are staged, into one file per partition group
 * (SmallParquet.ts), over DuckDB's schema of their table (ParquetTemplate.ts), made once per table
 * schema the first time a small part of it is staged.
 */
import * as path from "node:path"
import { writeSynced } from "../files/Durable.ts"
import { makeTemplate } from "./ParquetTemplate.ts"
import type { PartWriter } from "./PartWriter.ts"
import type { CompiledRows } from "./RowEncoder.ts"
import { type SmallParquetWriter, smallParquetWriter } from "./SmallParquet.ts"
import type { StagingAreas } from "./StagingAreas.ts"

/**
 * An I/O error's words as the system says them ("No space left on device", "File too large"), the
 * way DuckDB's errors for its own files read: Node's message is "ENOSPC: no space left on device, write".
 */
const systemText = (e: unknown): string => {
  const m = e instanceof Error ? /^[A-Z0-9]+: ([^,]+)/.exec(e.message) : null
  return m === null ? String(e) : m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1)
}

export interface SmallParts {
  /** The writer of the compiled schema's small files. */
  readonly writerOf: (compiled: CompiledRows) => Promise<SmallParquetWriter>
  /**
   * Writes `files` (one per group, in group order) into `staged`, a folder that exists, each
   * fsynced on the descriptor that wrote it; returns their paths and sizes.
   */
  readonly write: (files: ReadonlyArray<{ readonly bytes: () => Uint8Array }>, staged: string) => Promise<{ readonly files: string[]; readonly sizes: number[] }>
}

export const makeSmallParts = (writer: PartWriter, areas: StagingAreas): SmallParts => {
  const writers = new WeakMap<CompiledRows, Promise<SmallParquetWriter>>()
  let written = 0

  const make = async (compiled: CompiledRows): Promise<SmallParquetWriter> => {
    const dir = areas.take()
    let clean = false
    try {
      const t = await makeTemplate(dir, "template", (file) => writer.template(compiled, file))
      clean = true
      return smallParquetWriter(compiled.fields, t.root, t.schemaBytes, compiled.omitted)
    } finally {
      if (clean) areas.give(dir)
      else await areas.spoiled(dir)
    }
  }

  return {
    writerOf: (compiled) => {
      let made = writers.get(compiled)
      if (made === undefined) {
        made = make(compiled)
        // a template that failed is made again by the next small part of its schema
        made.catch(() => writers.delete(compiled))
        writers.set(compiled, made)
      }
      return made
    },
    write: async (files, staged) => {
      const out: string[] = []
      const sizes: number[] = []
      for (const f of files) {
        const file = path.join(staged, `small-${++written}.parquet`)
        const bytes = f.bytes()
        await writeSynced(file, bytes).catch((e: unknown) => {
          throw new Error(`Could not write file "${file}": ${systemText(e)}`)
        })
        out.push(file)
        sizes.push(bytes.length)
      }
      return { files: out, sizes }
    }
  }
}
