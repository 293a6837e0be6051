/**
 * Arrow vectors built directly with `makeData` (Arrow JS builders cannot take bigint timestamps or
 * bigint decimals), streamed as IPC into parquet-wasm, written with ZSTD.
 */
import * as arrow from "apache-arrow"
import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from "parquet-wasm/node"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { Row } from "../../schemas/common.ts"
import type { Writer } from "./types.ts"

const BATCH_ROWS = 65_536

const validity = (values: ReadonlyArray<unknown>): { nullBitmap: Uint8Array; nullCount: number } => {
  const nullBitmap = new Uint8Array(Math.ceil(values.length / 8))
  let nullCount = 0
  values.forEach((v, i) => {
    if (v === null || v === undefined) nullCount++
    else nullBitmap[i >> 3]! |= 1 << (i & 7)
  })
  return { nullBitmap, nullCount }
}

const micros = (v: unknown): bigint => (v instanceof Date ? BigInt(v.getTime()) * 1000n : (v as bigint))

const dataOf = (type: arrow.DataType, values: ReadonlyArray<unknown>): arrow.Data<any> => {
  const length = values.length
  const { nullBitmap, nullCount } = validity(values)
  const base = { length, nullCount, nullBitmap }
  if (arrow.DataType.isUtf8(type)) {
    const encoded = values.map((v) => Buffer.from(typeof v === "string" ? v : ""))
    const valueOffsets = new Int32Array(length + 1)
    encoded.forEach((b, i) => (valueOffsets[i + 1] = valueOffsets[i]! + b.length))
    return arrow.makeData({ ...base, type, valueOffsets, data: Buffer.concat(encoded) })
  }
  if (arrow.DataType.isInt(type)) {
    const data = type.bitWidth === 64 ? BigInt64Array.from(values, (v) => (v as bigint | null) ?? 0n) : Int32Array.from(values, (v) => (v as number | null) ?? 0)
    return arrow.makeData({ ...base, type, data })
  }
  if (arrow.DataType.isFloat(type)) return arrow.makeData({ ...base, type, data: Float64Array.from(values, (v) => (v as number | null) ?? 0) })
  if (arrow.DataType.isBool(type)) {
    const data = new Uint8Array(Math.ceil(length / 8))
    values.forEach((v, i) => v === true && (data[i >> 3]! |= 1 << (i & 7)))
    return arrow.makeData({ ...base, type, data })
  }
  if (arrow.DataType.isTimestamp(type)) {
    return arrow.makeData({ ...base, type, data: BigInt64Array.from(values, (v) => (v === null || v === undefined ? 0n : micros(v))) })
  }
  if (arrow.DataType.isDecimal(type)) {
    const data = new Uint32Array(length * 4)
    values.forEach((v, i) => {
      let x = BigInt.asUintN(128, (v as bigint | null) ?? 0n)
      for (let w = 0; w < 4; w++, x >>= 32n) data[i * 4 + w] = Number(x & 0xffffffffn)
    })
    return arrow.makeData({ ...base, type, data })
  }
  if (arrow.DataType.isList(type)) {
    const valueOffsets = new Int32Array(length + 1)
    const items: unknown[] = []
    values.forEach((v, i) => {
      const list = (v as unknown[] | null) ?? []
      for (const item of list) items.push(item)
      valueOffsets[i + 1] = valueOffsets[i]! + list.length
    })
    return arrow.makeData({ ...base, type, valueOffsets, child: dataOf(type.children[0]!.type, items) })
  }
  if (arrow.DataType.isStruct(type)) {
    const children = type.children.map((c) => dataOf(c.type, values.map((v) => (v as Row | null)?.[c.name] ?? null)))
    return arrow.makeData({ ...base, type, children })
  }
  throw new Error(`parquet-wasm bench: no mapping for ${String(type)}`)
}

export const parquetWasm: Writer = {
  name: "Arrow makeData + parquet-wasm",
  write: async (schema, rows, dir) => {
    await fs.mkdir(dir, { recursive: true })
    const batches: arrow.RecordBatch[] = []
    for (let from = 0; from < rows.length; from += BATCH_ROWS) {
      const slice = rows.slice(from, from + BATCH_ROWS)
      const children = schema.fields.map((f) => dataOf(f.type, slice.map((r) => r[f.name] ?? null)))
      const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length: slice.length, nullCount: 0, children })
      batches.push(new arrow.RecordBatch(schema, data))
    }
    const table = WasmTable.fromIPCStream(arrow.tableToIPC(new arrow.Table(batches), "stream"))
    const bytes = writeParquet(table, new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build())
    const file = path.join(dir, "part.parquet")
    await fs.writeFile(file, bytes)
    return [file]
  }
}
