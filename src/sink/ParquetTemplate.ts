/**
 * DuckDB's Parquet schema of a table, for the files SmallParquet.ts writes without it: the bytes of
 * the schema (FileMetaData field 2) of a file DuckDB wrote with no rows, copied into every small
 * file as they are, and the same read into a tree, which says how each column is stored (its
 * physical type, its repetition, a list's groups). One such file per table schema and process.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { readFooter } from "../compact/ParquetConcat.ts"
import { Reader, TType } from "../compact/ThriftCompact.ts"

/** A schema element (parquet.thrift SchemaElement): a group has children, a column a physical type. */
export interface SchemaNode {
  readonly name: string
  /** 0 REQUIRED, 1 OPTIONAL, 2 REPEATED. */
  readonly repetition: number
  readonly physical?: number
  readonly typeLength?: number
  readonly children: ReadonlyArray<SchemaNode>
}

export interface ParquetTemplate {
  readonly root: SchemaNode
  /** The schema's bytes as DuckDB wrote them: a list header and its elements. */
  readonly schemaBytes: Uint8Array
}

interface Element {
  name: string
  repetition: number
  physical?: number
  typeLength?: number
  children: number
}

const readElement = (r: Reader): Element => {
  const e: Element = { name: "", repetition: 0, children: 0 }
  r.eachField((id, type) => {
    if (type === TType.I32 && id === 1) e.physical = Number(r.zigzag())
    else if (type === TType.I32 && id === 2) e.typeLength = Number(r.zigzag())
    else if (type === TType.I32 && id === 3) e.repetition = Number(r.zigzag())
    else if (type === TType.BINARY && id === 4) {
      const n = Number(r.varint())
      e.name = Buffer.from(r.bytes.subarray(r.pos, r.pos + n)).toString("utf8")
      r.pos += n
    } else if (type === TType.I32 && id === 5) e.children = Number(r.zigzag())
    else r.skip(type)
  })
  return e
}

/** The schema's elements (depth first, as Parquet lists them) as a tree. */
const parseSchema = (schemaBytes: Uint8Array): SchemaNode => {
  const r = new Reader(schemaBytes)
  const { size, type } = r.listHeader()
  if (type !== TType.STRUCT) throw new Error(`a Parquet schema is a list of structs, not of type ${type}`)
  const elements = Array.from({ length: size }, () => readElement(r))
  let at = 0
  const node = (): SchemaNode => {
    const e = elements[at++]
    if (e === undefined) throw new Error("the Parquet schema ends inside a group")
    const children = Array.from({ length: e.children }, node)
    return {
      name: e.name,
      repetition: e.repetition,
      ...(e.physical === undefined ? {} : { physical: e.physical }),
      ...(e.typeLength === undefined ? {} : { typeLength: e.typeLength }),
      children
    }
  }
  const root = node()
  if (at !== elements.length) throw new Error(`the Parquet schema lists ${elements.length} elements, its tree ${at}`)
  return root
}

/** The template in `file` (a Parquet file DuckDB wrote); the file is left as it is. */
const readTemplate = async (file: string): Promise<ParquetTemplate> => {
  const footer = await readFooter(file)
  return { root: parseSchema(footer.schema), schemaBytes: footer.schema }
}

/** Has DuckDB write `write(file)` an empty file of the table into `dir`, reads its schema and deletes it. */
export const makeTemplate = async (dir: string, name: string, write: (file: string) => Promise<void>): Promise<ParquetTemplate> => {
  const file = path.join(dir, `${name}.parquet`)
  await fs.mkdir(dir, { recursive: true })
  try {
    await write(file)
    return await readTemplate(file)
  } finally {
    await fs.rm(file, { force: true })
  }
}
