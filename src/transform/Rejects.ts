/**
 * The `_rejects` dataset: every record that could not become a row, with the dataset, slice,
 * page, the raw record and the reason, so nothing a service sent is silently lost.
 */
import type { DatasetDef, Row } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { schema } from "../../schemas/_rejects.ts"
import { writtenText } from "./RawText.ts"
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

/**
 * `rawText` gives the record's text as the service sent it (RawText.ts); without it (a record
 * no answer holds) the record is written from its parsed value.
 */
export const rejectRow = (
  dataset: string,
  slice: Slice,
  lineage: Lineage,
  record: unknown,
  reason: string,
  rawText: (record: unknown) => string = writtenText
): Row => ({
  dataset,
  slice: slice.id,
  page: lineage.page,
  raw: rawText(record),
  reason,
  run_id: lineage.runId,
  ingested_at: lineage.ingestedAt
})
