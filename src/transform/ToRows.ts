/**
 * Raw records of one page → rows with lineage (and their child-table rows), and rejects for the
 * records that cannot be rows. One bad record never costs the rest of its page; a record whose
 * child rows fail is rejected whole, so parent and children always agree. A row with a value its
 * column cannot hold (ColumnRange.ts) is such a failure too: found here, not when it is written.
 */
import type { DatasetDef, Row } from "../crawl/Dataset.ts"
import { NotFoundRecord, RecordError } from "./RecordError.ts"
import type { Slice } from "../crawl/Slice.ts"
import { unknownFieldsOf } from "./Decode.ts"
import { hasInvalidText } from "../source/InvalidText.ts"
import { OutOfRange } from "../../schemas/common.ts"
import { rangeCheckOf } from "./ColumnRange.ts"
import { rawTexts } from "./RawText.ts"
import { rejectRow } from "./Rejects.ts"

export interface Lineage {
  readonly runId: string
  readonly ingestedAt: Date
  /** Page number within the slice's listing, for rejects. */
  readonly page: number
}

/** One record's rows: the dataset's row and, per child dataset, its rows. */
export interface Mapped {
  readonly row: Row
  readonly children: ReadonlyArray<readonly [string, ReadonlyArray<Row>]>
}

const NO_CHILDREN: Mapped["children"] = []

/**
 * `sources`: the answers the page was made from (PageSources.ts), so a reject's raw text is the
 * record's own text as the service sent it; without them it is the record written again.
 */
export const toRows = (
  dataset: DatasetDef<any>,
  slice: Slice,
  records: ReadonlyArray<unknown>,
  lineage: Lineage,
  sources: ReadonlyArray<unknown> = []
): {
  readonly mapped: Mapped[]
  readonly rejects: Row[]
  /** Indices in `records` of the rejected records that leave a hole: all but the settled answers (a 404, RecordError.settled). */
  readonly holes: number[]
  readonly unknownFields: ReadonlyMap<string, number>
} => {
  const stamp = { run_id: lineage.runId, ingested_at: lineage.ingestedAt }
  const inRange = rangeCheckOf(dataset.schema)
  const childInRange = dataset.children?.map((c) => rangeCheckOf(c.schema))
  const mapped: Mapped[] = []
  const rejects: Row[] = []
  const holes: number[] = []
  // made on the page's first reject only: a page without rejects never scans its text
  let texts: ((record: unknown) => string) | undefined
  const reject = (at: number, record: unknown, reason: string, settled = false) => {
    rejects.push(rejectRow(dataset.name, slice, lineage, record, reason, (texts ??= rawTexts(sources))))
    if (!settled) holes.push(at)
  }
  // fields the service sent that the dataset's decoder does not know: ignored, but counted
  const unknownFields = new Map<string, number>()
  const countUnknown = (record: unknown) => {
    for (const f of unknownFieldsOf(record)) unknownFields.set(f, (unknownFields.get(f) ?? 0) + 1)
  }
  for (let at = 0; at < records.length; at++) {
    const record = records[at]
    if (hasInvalidText(record)) {
      reject(at, record, "text that is not valid UTF-8: the service's bytes were replaced by U+FFFD in raw, the record is not written altered")
      continue
    }
    if (record instanceof NotFoundRecord) {
      reject(at, { key: record.key }, `not found: ${record.request} answered 404`, true)
      continue
    }
    try {
      // a mapper returns a fresh object: stamping it in place saves a copy per record
      const row = dataset.toRow(record, slice)
      const outOfRange = inRange(row)
      if (outOfRange !== undefined) throw outOfRange
      row["run_id"] = stamp.run_id
      row["ingested_at"] = stamp.ingested_at
      dataset.derive?.(row)
      const children =
        dataset.children === undefined
          ? NO_CHILDREN
          : dataset.children.map((c, i) => {
              const own = c.toRows(record, slice, row)
              for (const r of own) {
                const outOfRange = childInRange![i]!(r)
                if (outOfRange !== undefined) throw new OutOfRange(`${c.name}.${outOfRange.column}`, outOfRange.detail)
              }
              const rows = own.map((r) => ({ ...r, ...stamp }))
              if (c.derive !== undefined) for (const r of rows) c.derive(r)
              return [c.name, rows] as const
            })
      mapped.push({ row, children })
      countUnknown(record)
    } catch (e) {
      // anything a mapper throws is the record's fault, not the run's: keep the page going
      const reason =
        e instanceof RecordError ? e.reason : e instanceof OutOfRange ? e.message : `unexpected: ${e instanceof Error ? e.message : String(e)}`
      reject(at, record, reason, e instanceof RecordError && e.settled)
    }
  }
  return { mapped, rejects, holes, unknownFields }
}
