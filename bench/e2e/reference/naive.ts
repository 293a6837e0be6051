/**
 * Reference "naive": fetch pages, parse, and hand every record to parquetjs-lite's appendRow, one
 * file per dataset (no partitions). The schema is inferred from the first page of each listing.
 */
import { createRequire } from "node:module"
import * as fs from "node:fs"
import * as path from "node:path"
import { coerce, type LiteField, liteSchema, merge, type Shape } from "./naiveSchema.ts"
import { pageUrl, readSpec } from "./spec.ts"

interface LiteWriter {
  appendRow(row: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}
const parquet = createRequire(import.meta.url)("parquetjs-lite") as {
  ParquetSchema: new (fields: Record<string, LiteField>) => unknown
  ParquetWriter: { openFile(schema: unknown, file: string, options?: Record<string, unknown>): Promise<LiteWriter> }
}

const spec = readSpec(process.argv[2])
const getPage = async (url: string) => {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, unknown> & { nextPageToken?: string }
}

const shape: Extract<Shape, { kind: "group" }> = { kind: "group", fields: new Map() }
const firstPages = []
for (const listing of spec.listings) {
  const page = await getPage(pageUrl(spec, listing, undefined))
  for (const r of page[listing.items] as unknown[]) merge(shape, { ...listing.context, ...(r as object) })
  firstPages.push(page)
}
fs.mkdirSync(spec.out, { recursive: true })
const writer = await parquet.ParquetWriter.openFile(new parquet.ParquetSchema(liteSchema(shape)), path.join(spec.out, `${spec.dataset}.parquet`))
for (const [i, listing] of spec.listings.entries()) {
  let page = firstPages[i]!
  for (;;) {
    for (const r of page[listing.items] as unknown[]) await writer.appendRow(coerce(shape, { ...listing.context, ...(r as object) }) as Record<string, unknown>)
    if (!page.nextPageToken) break
    page = await getPage(pageUrl(spec, listing, page.nextPageToken))
  }
}
await writer.close()
