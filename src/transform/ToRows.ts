/**
 * Raw records of one page → rows with lineage, and rejects for the records that cannot be rows.
 * One bad record never costs the rest of its page.
 */
import type { DatasetDef, Row } from "../crawl/Dataset.ts"
import { RecordError } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { rejectRow } from "./Rejects.ts"

export interface Lineage {
  readonly runId: string
  readonly ingestedAt: Date
  /** Page number within the slice's listing, for rejects. */
  readonly page: number
}

export const toRows = (
  dataset: DatasetDef<any>,
  slice: Slice,
  records: ReadonlyArray<unknown>,
  lineage: Lineage
): { readonly rows: Row[]; readonly rejects: Row[] } => {
  const rows: Row[] = []
  const rejects: Row[] = []
  for (const record of records) {
    try {
      rows.push({ ...dataset.toRow(record, slice), run_id: lineage.runId, ingested_at: lineage.ingestedAt })
    } catch (e) {
      // anything a mapper throws is the record's fault, not the run's: keep the page going
      const reason = e instanceof RecordError ? e.reason : `unexpected: ${e instanceof Error ? e.message : String(e)}`
      rejects.push(rejectRow(dataset.name, slice, lineage, record, reason))
    }
  }
  return { rows, rejects }
}
