/**
 * The first half of the script a pragmatic engineer would write: page through each listing
 * following nextPageToken and save every record as one NDJSON line, with the values its path
 * stands for (chain, network) as fields. Returns the rows saved per listing.
 */
import { once } from "node:events"
import { createWriteStream } from "node:fs"
import { pageUrl, type ReferenceSpec } from "./spec.ts"

export const savePages = async (spec: ReferenceSpec, file: string): Promise<number[]> => {
  const out = createWriteStream(file)
  const rows: number[] = []
  for (const listing of spec.listings) {
    let token: string | undefined
    let n = 0
    do {
      const response = await fetch(pageUrl(spec, listing, token))
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`)
      const page = (await response.json()) as Record<string, unknown> & { nextPageToken?: string }
      const records = page[listing.items] as Array<Record<string, unknown>>
      const lines = records.map((r) => JSON.stringify({ ...listing.context, ...r })).join("\n")
      if (records.length > 0 && !out.write(`${lines}\n`)) await once(out, "drain")
      n += records.length
      token = page.nextPageToken || undefined
    } while (token !== undefined)
    rows.push(n)
  }
  out.end()
  await once(out, "finish")
  return rows
}
