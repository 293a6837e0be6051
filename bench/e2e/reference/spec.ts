/** What the harness hands a reference script (as a JSON file): where to fetch, what, and where to write. */
import * as fs from "node:fs"
import type { Listing } from "../datasets.ts"

export interface ReferenceSpec {
  readonly baseUrl: string
  readonly dataset: string
  readonly pageSize: number
  readonly listings: ReadonlyArray<Listing>
  readonly select: string
  readonly readJson: string
  readonly partitionBy: ReadonlyArray<string>
  /** Saved records (written by `plain`, read by `duckdb-only`). */
  readonly ndjson: string
  /** Output folder. */
  readonly out: string
}

export const readSpec = (file: string | undefined): ReferenceSpec => {
  if (file === undefined) throw new Error("usage: <reference script> <spec.json>")
  return JSON.parse(fs.readFileSync(file, "utf8")) as ReferenceSpec
}

/** First page URL of a listing; the next ones add `pageToken`. */
export const pageUrl = (spec: ReferenceSpec, listing: Listing, token: string | undefined): string => {
  const query = new URLSearchParams({ ...listing.query, pageSize: String(spec.pageSize), ...(token === undefined ? {} : { pageToken: token }) })
  return `${spec.baseUrl}${listing.path}?${query}`
}
