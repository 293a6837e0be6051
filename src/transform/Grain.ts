/**
 * Partition grain: how much time one Hive folder of a time-ordered dataset holds. Chosen per
 * dataset from its real volume (declared with the reasoning in its pipeline file), overridable in
 * the job (`partitionGrain`), and independent of the crawl unit: a day window writes into its
 * month's folder, a 90-day backfill window into three or four of them.
 *
 * - `day`: Hive key `date` (DATE), the UTC day of the row, as before.
 * - `month`: Hive key `month` (`YYYY-MM`), and the UTC day kept inside the file as the `date`
 *   column, so `WHERE date = …` still works (Parquet min/max statistics skip the other days'
 *   row groups) and the view has the same `date` column whatever the grain.
 */
import * as arrow from "../ArrowTypes.ts"
import { date as dateField } from "../../schemas/common.ts"
import type { ChildDataset, DatasetDef, PartitionKey, Row } from "../crawl/Dataset.ts"

export const GRAINS = ["day", "month"] as const
export type Grain = (typeof GRAINS)[number]

export interface TimePartition {
  /** The UTC day of a finished row (lineage included), "YYYY-MM-DD". */
  readonly day: (row: Row) => string
  /** The dataset's default grain. */
  readonly grain: Grain
}

/** The Hive key a grain writes: `date` by day, `month` by month. */
export const grainKey = (grain: Grain): string => (grain === "day" ? "date" : "month")

const DATE_COMMENT = "UTC day of the row's own timestamp"

export const timeKey = (time: TimePartition, grain: Grain): PartitionKey =>
  grain === "day"
    ? { key: "date", type: "DATE", value: time.day }
    : { key: "month", type: "VARCHAR", value: (row) => time.day(row).slice(0, 7) }

/** The schema a grain writes: by month, the `date` column joins the file (before the lineage columns). */
export const schemaFor = (schema: arrow.Schema, grain: Grain): arrow.Schema => {
  if (grain === "day" || schema.fields.some((f) => f.name === "date")) return schema
  const at = schema.fields.findIndex((f) => f.name === "run_id")
  const fields = [...schema.fields]
  fields.splice(at < 0 ? fields.length : at, 0, dateField("date", DATE_COMMENT, { nullable: false }))
  return new arrow.Schema(fields, new Map(schema.metadata))
}

type Partitioned = { readonly schema: arrow.Schema; readonly partitionBy: ReadonlyArray<PartitionKey> }

const layout = <T extends Partitioned>(d: T, time: TimePartition, grain: Grain): T => ({
  ...d,
  schema: schemaFor(d.schema, grain),
  partitionBy: [...d.partitionBy, timeKey(time, grain)],
  ...(grain === "month" ? { derive: (row: Row) => void (row["date"] = time.day(row)) } : {})
})

/**
 * The dataset as written at `grain` (its own default when undefined): partition keys, schema and
 * derived `date` column of that grain, for it and its child tables. Datasets without a time
 * partition come back as they are.
 */
export const withGrain = <R>(dataset: DatasetDef<R>, grain?: Grain): DatasetDef<R> => {
  const base = bases.get(dataset) ?? dataset
  const time = base.timePartition
  if (time === undefined) return dataset
  const g = grain ?? time.grain
  if (g === dataset.grain) return dataset
  const children = base.children?.map((c: ChildDataset) => layout(c, time, g))
  const made: DatasetDef<R> = { ...layout(base, time, g), ...(children === undefined ? {} : { children }), grain: g }
  bases.set(made, base)
  return made
}

/** The declaration a grained definition was made from, so another grain starts from it again. */
const bases = new WeakMap<object, DatasetDef<any>>()

/** The comment of the `month` key in the catalog. */
export const MONTH_COMMENT = "Hive partition key: UTC month (YYYY-MM) of the row's own timestamp"
