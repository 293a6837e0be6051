/**
 * The report's charts as Vega-Lite specs (pure: figures in, spec out). Values are inlined, so a
 * spec loads nothing. Counts and sizes are converted to numbers here for drawing only: the page
 * prints the exact figures beside each chart.
 */
import type { TopLevelSpec } from "vega-lite"
import type { DatasetFigures, RunFigures } from "./model.ts"

/** More listings than this are drawn as one total: a legend of 40 colours tells nothing. */
export const MAX_COLOURED = 10
export const WIDTH = 720

export const FONT = "DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif"

/** Look shared by every chart: white background, no frame, one font. */
export const CONFIG = {
  background: "white",
  config: {
    font: FONT,
    view: { stroke: null },
    axis: { labelFontSize: 10, titleFontSize: 11, gridColor: "#eee" },
    legend: { labelFontSize: 10, titleFontSize: 11, labelLimit: 260 },
    title: { fontSize: 13, anchor: "start" as const }
  }
}

export const NOT_CRAWLED = "#d62728"
export const CRAWLED_EMPTY = "#f2b134"

const GAP_KINDS: ReadonlyArray<readonly [string, string]> = [
  ["not crawled", NOT_CRAWLED],
  ["crawled, none listed", CRAWLED_EMPTY],
  ["no rows", NOT_CRAWLED]
]

/** Ticks of an axis of counts: whole numbers only. */
export const COUNT_AXIS = { tickMinStep: 1, format: ",d" }

/** A drawing value of an exact decimal string (the page shows the string itself). */
const drawn = (exact: string): number => Number(exact)

const colourBy = (listings: ReadonlyArray<string>, title: string) =>
  listings.length > 1 && listings.length <= MAX_COLOURED ? { color: { field: "listing", type: "nominal" as const, title } } : {}

/** The day after `day` (the end of a run of days drawn as a half-open band). */
const nextDay = (day: string): string => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10)

const dayLabel: Record<DatasetFigures["dayColumn"], string> = {
  date: "day (UTC, of the record)",
  snapshot_date: "snapshot day",
  ingested_at: "day ingested (UTC)"
}

/** Rows per day (bars, one colour per listing), days without rows between a listing's first and last as bands. */
export const rowsPerDaySpec = (f: DatasetFigures, listingTitle: string): TopLevelSpec => {
  const listings = [...new Set(f.rowsPerDay.map((r) => r.listing))]
  const coloured = listings.length > 1 && listings.length <= MAX_COLOURED
  const bars = f.rowsPerDay.map((r) => ({ listing: r.listing, day: r.day, rows: drawn(r.rows) }))
  const gaps = (f.dayGaps ?? []).flatMap((g) =>
    g.ranges.map((r) => ({ listing: g.listing, from: r.from, to: nextDay(r.to), kind: "crawled" in r ? (r.crawled ? "crawled, none listed" : "not crawled") : "no rows" }))
  )
  const kinds = GAP_KINDS.filter(([k]) => gaps.some((g) => g.kind === k))
  const x = { field: "day", type: "temporal" as const, timeUnit: "utcyearmonthdate" as const, title: dayLabel[f.dayColumn], scale: { type: "utc" as const } }
  const barLayer = {
    data: { values: bars },
    mark: { type: "bar" as const, ...(coloured ? {} : { color: "#4c78a8" }) },
    encoding: {
      x,
      y: { field: "rows", type: "quantitative" as const, aggregate: "sum" as const, title: "rows", axis: COUNT_AXIS },
      ...colourBy(listings, listingTitle)
    }
  }
  const gapLayer = {
    data: { values: gaps },
    mark: { type: "rect" as const, opacity: 0.35 },
    encoding: {
      x: { field: "from", type: "temporal" as const, scale: { type: "utc" as const } },
      x2: { field: "to" },
      color: {
        field: "kind",
        type: "nominal" as const,
        title: "days without rows",
        // only the kinds drawn: a legend entry for nothing would read as a finding
        scale: { domain: kinds.map(([k]) => k), range: kinds.map(([, c]) => c) }
      }
    }
  }
  return {
    ...CONFIG,
    width: WIDTH,
    height: 140,
    // a colour legend per layer: listings for the bars, kinds for the bands
    resolve: { scale: { color: "independent" } },
    layer: gaps.length === 0 ? [barLayer] : [gapLayer, barLayer]
  } as TopLevelSpec
}

/** Files and size per partition folder: by its time key when it has one, by folder otherwise. */
export const partitionsSpec = (f: DatasetFigures, listingTitle: string): TopLevelSpec => {
  const listings = [...new Set(f.partitions.map((p) => p.listing))]
  const timed = f.partitions.every((p) => p.time !== null)
  const monthly = timed && f.partitions.some((p) => /^\d{4}-\d{2}$/.test(p.time ?? ""))
  // the unit the biggest folder reads well in
  const biggest = Math.max(...f.partitions.map((p) => drawn(p.bytes)))
  const [unit, scale] = biggest >= 2 ** 30 ? ["GB", 2 ** 30] : biggest >= 2 ** 20 ? ["MB", 2 ** 20] : ["KB", 2 ** 10]
  const values = f.partitions.map((p) => ({ path: p.path, listing: p.listing, time: p.time, files: p.files, size: drawn(p.bytes) / scale }))
  const x = timed
    ? { field: "time", type: "temporal" as const, timeUnit: monthly ? ("utcyearmonth" as const) : ("utcyearmonthdate" as const), title: monthly ? "month" : "day", scale: { type: "utc" as const } }
    : { field: "path", type: "nominal" as const, title: "partition", axis: { labelLimit: 160, labelAngle: -30 } }
  const panel = (field: "files" | "size", title: string, height: number) => ({
    height,
    width: WIDTH,
    mark: { type: "bar" as const, ...(listings.length > 1 && listings.length <= MAX_COLOURED ? {} : { color: field === "files" ? "#4c78a8" : "#72b7b2" }) },
    encoding: { x, y: { field, type: "quantitative" as const, aggregate: "sum" as const, title, ...(field === "files" ? { axis: COUNT_AXIS } : {}) }, ...colourBy(listings, listingTitle) }
  })
  return { ...CONFIG, data: { values }, vconcat: [panel("files", "files", 90), panel("size", `${unit} (2^${Math.log2(scale)} bytes)`, 90)] } as TopLevelSpec
}

/** Per dataset the span of days it holds, first to newest, the newest marked. */
export const spanSpec = (datasets: ReadonlyArray<DatasetFigures>): TopLevelSpec => {
  // an ingestion day is when a run happened, not a day of the data: those datasets are left out
  const values = datasets
    .filter((d) => d.firstDay !== null && d.lastDay !== null && d.dayColumn !== "ingested_at")
    .map((d) => ({ dataset: d.dataset, first: d.firstDay, last: d.lastDay, by: dayLabel[d.dayColumn] }))
  // in the datasets table's order, whichever layer draws a dataset first
  const y = { field: "dataset", type: "nominal" as const, title: null, sort: values.map((v) => v.dataset) }
  const x = { field: "first", type: "temporal" as const, title: "days held, first to newest", scale: { type: "utc" as const } }
  return {
    ...CONFIG,
    width: WIDTH - 120,
    data: { values },
    layer: [
      // a dataset of one day is its dot alone: a rule from a day to itself would be a mark of no size
      { transform: [{ filter: "datum.first !== datum.last" }], mark: { type: "rule" as const, strokeWidth: 3, color: "#9ecae9" }, encoding: { y, x, x2: { field: "last" } } },
      {
        mark: { type: "point" as const, filled: true, size: 50 },
        encoding: { y, x: { ...x, field: "last" }, color: { field: "by", type: "nominal" as const, title: "counted by" } }
      }
    ]
  } as TopLevelSpec
}

export const OUTCOMES = ["done", "skipped", "failed", "not_run"] as const
const OUTCOME_COLOURS = ["#54a24b", "#bab0ac", NOT_CRAWLED, "#f58518"]

/** Slices of each of the last runs by outcome, oldest run left. */
export const runsSpec = (runs: ReadonlyArray<RunFigures>): TopLevelSpec => {
  const ordered = [...runs].sort((a, b) => a.startedAt.localeCompare(b.startedAt))
  // the run id: unique, and the runs table's first column
  const label = (r: RunFigures) => r.runId
  const values = ordered.flatMap((r) => OUTCOMES.filter((o) => (r.outcomes[o] ?? 0) > 0).map((o) => ({ run: label(r), outcome: o, slices: r.outcomes[o] ?? 0 })))
  return {
    ...CONFIG,
    width: Math.min(WIDTH, 80 + 60 * ordered.length),
    height: 160,
    data: { values },
    mark: { type: "bar" as const },
    encoding: {
      x: { field: "run", type: "ordinal" as const, sort: ordered.map(label), title: "run", axis: { labelAngle: -30, labelLimit: 220 } },
      y: { field: "slices", type: "quantitative" as const, title: "slices", axis: COUNT_AXIS },
      color: { field: "outcome", type: "nominal" as const, scale: { domain: [...OUTCOMES], range: OUTCOME_COLOURS } }
    }
  } as TopLevelSpec
}
