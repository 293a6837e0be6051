/**
 * Merges Parquet files of one schema by their row groups: each file's bytes are copied as they are
 * and one footer lists all their row groups, offsets moved by where each file landed. Nothing is
 * decoded or compressed again, so a merge costs its I/O: a `primary_blocks` month takes a small
 * fraction of the CPU that DuckDB's COPY (read, encode, zstd) spends on the same rows (measured:
 * docs/performance.md#compaction-row-groups; docs/compaction.md).
 *
 * It suits files whose row groups are already of a reader's size (the sink's 10,000-row parts);
 * smaller ones are merged by DuckDB into fuller row groups (Compactor.ts chooses).
 *
 * A Parquet file is `PAR1`, column chunks (and what a footer points into: dictionaries, bloom
 * filters, page indexes), the footer (Thrift FileMetaData), its length (u32 LE) and `PAR1`.
 * Every byte between the magic and the footer is copied, so whatever a footer points at comes
 * along; the offsets that point (format/src/main/thrift/parquet.thrift) are moved:
 * - ColumnChunk: file_offset (2), column_index_offset (6);
 * - ColumnMetaData: data_page_offset (9), index_page_offset (10), dictionary_page_offset (11),
 *   bloom_filter_offset (14);
 * - RowGroup: file_offset (5); its ordinal (7) becomes its place in the merged file.
 * A file with an offset index (ColumnChunk 4) is not moved: its page locations are absolute
 * offsets inside the copied bytes, which this merge does not rewrite (DuckDB 1.5 writes none).
 */
import * as fs from "node:fs/promises"
import { type FieldEdit, Reader, TType, Writer, copyStruct, copyStructList, editI64 } from "./ThriftCompact.ts"

const MAGIC = Buffer.from("PAR1")
const TAIL = 8

/** A file's footer, read and indexed: the byte ranges of what a merge copies or edits. */
export interface Footer {
  readonly file: string
  /** Where the footer starts: the file's column data is [4, dataEnd). */
  readonly dataEnd: number
  readonly meta: Uint8Array
  /** The schema's bytes as written (field 2 of FileMetaData): files merge only when these are equal. */
  readonly schema: Uint8Array
  /** Each row group's bytes in the footer, rows, and uncompressed size (its total_byte_size). */
  readonly rowGroups: ReadonlyArray<{ readonly start: number; readonly end: number; readonly rows: bigint; readonly bytes: bigint }>
  /** Why the file's row groups cannot be moved into another file, if they cannot. */
  readonly unmovable?: string
}

const FILE_META = { schema: 2, numRows: 3, rowGroups: 4, encryption: 8 } as const
const ROW_GROUP = { columns: 1, totalByteSize: 2, numRows: 3, fileOffset: 5, ordinal: 7 } as const
const COLUMN_CHUNK = { filePath: 1, fileOffset: 2, metaData: 3, offsetIndex: 4, columnIndex: 6, encrypted: 8 } as const
const COLUMN_META_OFFSETS: ReadonlySet<number> = new Set([9, 10, 11, 14])

export const readFooter = async (file: string): Promise<Footer> => {
  const handle = await fs.open(file, "r")
  try {
    const { size } = await handle.stat()
    if (size < MAGIC.length + TAIL) throw new Error(`${file}: ${size} bytes is no Parquet file`)
    const head = Buffer.alloc(MAGIC.length)
    const tail = Buffer.alloc(TAIL)
    await handle.read(head, 0, head.length, 0)
    await handle.read(tail, 0, TAIL, size - TAIL)
    if (!head.equals(MAGIC) || !tail.subarray(4).equals(MAGIC)) throw new Error(`${file}: no Parquet magic (an encrypted footer is PARE)`)
    const length = tail.readUInt32LE(0)
    const dataEnd = size - TAIL - length
    if (dataEnd < MAGIC.length) throw new Error(`${file}: footer of ${length} bytes does not fit in ${size}`)
    const meta = Buffer.alloc(length)
    await handle.read(meta, 0, length, dataEnd)
    try {
      return { file, dataEnd, ...indexFooter(meta) }
    } catch (e) {
      throw new Error(`${file}: footer not read: ${e instanceof Error ? e.message : String(e)}`)
    }
  } finally {
    await handle.close()
  }
}

const indexFooter = (meta: Uint8Array): Omit<Footer, "file" | "dataEnd"> => {
  const r = new Reader(meta)
  let schema: Uint8Array | undefined
  const rowGroups: Array<{ start: number; end: number; rows: bigint; bytes: bigint }> = []
  let unmovable: string | undefined
  r.eachField((id, type) => {
    const from = r.pos
    if (id === FILE_META.rowGroups && type === TType.LIST) {
      const { size } = r.listHeader()
      for (let i = 0; i < size; i++) {
        const start = r.pos
        const { rows, bytes, why } = inspectRowGroup(r)
        unmovable ??= why
        rowGroups.push({ start, end: r.pos, rows, bytes })
      }
    } else {
      r.skip(type)
      if (id === FILE_META.schema) schema = meta.subarray(from, r.pos)
      if (id === FILE_META.encryption) unmovable ??= "its footer names an encryption algorithm"
    }
  })
  if (schema === undefined) throw new Error("footer without a schema")
  return { meta, schema, rowGroups, ...(unmovable === undefined ? {} : { unmovable }) }
}

/** A row group's rows and uncompressed bytes, and why its chunks could not move, if so (read past it). */
const inspectRowGroup = (r: Reader): { rows: bigint; bytes: bigint; why?: string } => {
  let rows = -1n
  let bytes = 0n
  let why: string | undefined
  r.eachField((id, type) => {
    if (id === ROW_GROUP.numRows && type === TType.I64) rows = r.zigzag()
    else if (id === ROW_GROUP.totalByteSize && type === TType.I64) bytes = r.zigzag()
    else if (id === ROW_GROUP.columns && type === TType.LIST) {
      const { size } = r.listHeader()
      for (let i = 0; i < size; i++) {
        r.eachField((cid, ctype) => {
          if (cid === COLUMN_CHUNK.filePath) why ??= "a column chunk lives in another file"
          if (cid === COLUMN_CHUNK.offsetIndex) why ??= "an offset index holds absolute page offsets"
          if (cid === COLUMN_CHUNK.encrypted) why ??= "a column chunk is encrypted"
          r.skip(ctype)
        })
      }
    } else r.skip(type)
  })
  if (rows < 0n) why ??= "a row group without its row count"
  return { rows, bytes, ...(why === undefined ? {} : { why }) }
}

/** Row groups a file can number: a row group's ordinal is an i16. */
const MAX_ROW_GROUPS = 32_767

/** Whether `footers` can merge by row groups: one schema, every file's chunks movable, row groups an i16 can number. */
export const concatenable = (footers: ReadonlyArray<Footer>): boolean => {
  const first = footers[0]
  if (first === undefined || footers.reduce((n, f) => n + f.rowGroups.length, 0) > MAX_ROW_GROUPS) return false
  // Buffer.compare reads the Uint8Arrays in place (Buffer.from would copy each schema first)
  return footers.every((f) => f.unmovable === undefined && Buffer.compare(f.schema, first.schema) === 0)
}

const moved = (shift: bigint) => editI64((v) => (v > 0n ? v + shift : v))

const columnChunkEdit = (shift: bigint): FieldEdit => (id, type) => {
  if (type === TType.I64 && (id === COLUMN_CHUNK.fileOffset || id === COLUMN_CHUNK.columnIndex)) return moved(shift)
  if (id === COLUMN_CHUNK.metaData && type === TType.STRUCT) {
    return (r, w) => copyStruct(r, w, (mid, mtype) => (mtype === TType.I64 && COLUMN_META_OFFSETS.has(mid) ? moved(shift) : undefined))
  }
  return undefined
}

const rowGroupEdit = (shift: bigint, ordinal: number): FieldEdit => (id, type) => {
  if (id === ROW_GROUP.columns && type === TType.LIST) return (r, w) => copyStructList(r, w, () => columnChunkEdit(shift))
  if (id === ROW_GROUP.fileOffset && type === TType.I64) return moved(shift)
  if (id === ROW_GROUP.ordinal && type === TType.I16) {
    return (r, w) => {
      r.zigzag()
      w.zigzag(BigInt(ordinal))
    }
  }
  return undefined
}

/** Copies [from, to) of `src` to the end of `out`, in pieces (a file may be larger than a buffer should be). */
const copyRange = async (src: fs.FileHandle, from: number, to: number, out: fs.FileHandle, at: number, buffer: Buffer): Promise<void> => {
  for (let pos = from; pos < to; ) {
    const { bytesRead } = await src.read(buffer, 0, Math.min(buffer.length, to - pos), pos)
    if (bytesRead === 0) throw new Error(`file ended at byte ${pos}, before ${to}`)
    await out.write(buffer, 0, bytesRead, at + (pos - from))
    pos += bytesRead
  }
}

/**
 * Writes `footers`' files to `dest` as one file, their row groups in the order given; returns its
 * rows. The caller checked `concatenable`, and syncs `dest`.
 */
export const concatParquet = async (footers: ReadonlyArray<Footer>, dest: string): Promise<bigint> => {
  if (!concatenable(footers)) throw new Error(`files of different schemas, with chunks that cannot move, or with more row groups than a file can number: ${footers.map((f) => f.file).join(", ")}`)
  const out = await fs.open(dest, "w")
  const buffer = Buffer.allocUnsafe(4 * 2 ** 20)
  try {
    await out.write(MAGIC, 0, MAGIC.length, 0)
    let at = MAGIC.length
    let rows = 0n
    let ordinal = 0
    const groups = new Writer()
    for (const footer of footers) {
      const src = await fs.open(footer.file, "r")
      try {
        await copyRange(src, MAGIC.length, footer.dataEnd, out, at, buffer)
      } finally {
        await src.close()
      }
      const shift = BigInt(at - MAGIC.length)
      for (const g of footer.rowGroups) {
        copyStruct(new Reader(footer.meta, g.start), groups, rowGroupEdit(shift, ordinal++))
        rows += g.rows
      }
      at += footer.dataEnd - MAGIC.length
    }
    const groupBytes = groups.bytes()
    const meta = new Writer()
    copyStruct(new Reader(footers[0]!.meta), meta, (id, type) => {
      if (id === FILE_META.numRows && type === TType.I64) return editI64(() => rows)
      if (id === FILE_META.rowGroups && type === TType.LIST) {
        return (r, w) => {
          r.skip(type)
          w.listHeader(ordinal, TType.STRUCT)
          w.raw(groupBytes)
        }
      }
      return undefined
    })
    const metaBytes = meta.bytes()
    const tail = Buffer.alloc(TAIL)
    tail.writeUInt32LE(metaBytes.length, 0)
    MAGIC.copy(tail, 4)
    await out.write(metaBytes, 0, metaBytes.length, at)
    await out.write(tail, 0, TAIL, at + metaBytes.length)
    return rows
  } finally {
    await out.close()
  }
}
