/**
 * The `_rejects` dataset: every record that could not become a row, with the dataset, slice,
 * page, the raw record and the reason, so nothing a service sent is silently lost.
 */
import type { DatasetDef, Row } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { schema } from "../../schemas/_rejects.ts"
import { jsonText } from "./JsonText.ts"
import type { Lineage } from "./ToRows.ts"

/** Written by the crawler beside each dataset's parts; listed in the catalog like a dataset. */
export const rejectsDataset: Pick<DatasetDef<never>, "name" | "schema" | "partitionBy" | "description"> = {
  name: "_rejects",
  description: "Records a service sent that could not be mapped to their dataset's schema, with the reason.",
  schema,
  partitionBy: [{ key: "dataset", type: "VARCHAR", value: (r) => String(r["dataset"]) }]
}

/** Rejects are identified by their raw text within a slice: a restarted listing skips them. */
export const rejectsKey: ReadonlyArray<string> = ["raw"]

const stringify = (record: unknown): string => {
  try {
    return JSON.stringify(record, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "undefined"
  } catch {
    // too deep for JSON.stringify's recursion (or a getter that throws): the same text, iteratively
    try {
      return jsonText(record)
    } catch {
      return String(record)
    }
  }
}

export const rejectRow = (dataset: string, slice: Slice, lineage: Lineage, record: unknown, reason: string): Row => ({
  dataset,
  slice: slice.id,
  page: lineage.page,
  raw: stringify(record),
  reason,
  run_id: lineage.runId,
  ingested_at: lineage.ingestedAt
})
