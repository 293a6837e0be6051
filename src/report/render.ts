/**
 * Figures to page: each chart's spec (specs.ts, examples.ts) drawn to SVG by the ChartRenderer,
 * then the HTML around them (html.ts). A chart is drawn only where it has something to show.
 */
import { Effect } from "effect"
import type { TopLevelSpec } from "vega-lite"
import { ChartRenderer } from "./ChartRenderer.ts"
import { exampleSpec } from "./examples.ts"
import { chartId, page } from "./html.ts"
import type { Report } from "./model.ts"
import { partitionsSpec, rowsPerDaySpec, runsSpec, spanSpec } from "./specs.ts"

/** Every chart of the report by id, in page order. */
export const reportSpecs = (r: Report): ReadonlyArray<readonly [string, TopLevelSpec]> => {
  const specs: Array<readonly [string, TopLevelSpec]> = []
  if (r.datasets.some((d) => d.firstDay !== null && d.dayColumn !== "ingested_at")) specs.push([chartId.span, spanSpec(r.datasets)])
  for (const d of r.datasets) {
    const keys = d.listingKeys.join("/") || "listing"
    if (d.rowsPerDay.length > 0) specs.push([chartId.rows(d.dataset), rowsPerDaySpec(d, keys)])
    if (d.partitions.length > 0) specs.push([chartId.files(d.dataset), partitionsSpec(d, keys)])
  }
  if (r.runs.length > 0) specs.push([chartId.runs, runsSpec(r.runs)])
  for (const e of r.examples) {
    const spec = exampleSpec(e)
    if (spec !== undefined) specs.push([chartId.example(e.name), spec])
  }
  return specs
}

/** The page's HTML and how many charts it draws. */
export const renderReport = (r: Report) =>
  Effect.gen(function* () {
    const renderer = yield* ChartRenderer
    const svgs = yield* Effect.forEach(reportSpecs(r), ([id, spec]) => Effect.map(renderer.svg(id, spec), (svg) => [id, svg] as const))
    return { html: page(r, new Map(svgs)), charts: svgs.length }
  })
