/**
 * The report's chart specs drawn by the real renderer (vega in Node): each compiles and draws
 * without a warning (the renderer fails on one), with one mark per figure it is given.
 */
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { ChartRenderer } from "../../src/report/ChartRenderer.ts"
import { exampleSpec } from "../../src/report/examples.ts"
import { reportSpecs } from "../../src/report/render.ts"
import { rowsPerDaySpec, spanSpec } from "../../src/report/specs.ts"
import { blocks, report, staked } from "./figures.ts"

/** Marks per mark group of an SVG vega drew: [type, shapes (paths; lines for rules)] in drawing order. */
const marks = (svg: string): Array<[string, number]> =>
  [...svg.matchAll(/<g class="mark-(\w+) role-mark[^"]*"[^>]*>(.*?)<\/g>/g)].map((m) => [m[1]!, (m[2]!.match(/<(?:path|line) /g) ?? []).length])

/** The labels of a legend titled `title`, from its aria-label. */
const legend = (svg: string, title: string): string | undefined => new RegExp(`aria-label="Symbol legend titled '${title.replace(/[/()]/g, "\\$&")}' for [^"]*?values?: ([^"]*)"`).exec(svg)?.[1]

describe("the report's charts", () => {
  const svgs = new Map<string, string>()
  beforeAll(async () => {
    const drawn = await Effect.runPromise(
      Effect.flatMap(ChartRenderer, (r) => Effect.forEach(reportSpecs(report), ([id, spec]) => Effect.map(r.svg(id, spec), (svg) => [id, svg] as const))).pipe(
        Effect.provide(ChartRenderer.vega)
      )
    )
    for (const [id, svg] of drawn) svgs.set(id, svg)
  }, 30_000)

  it("given the figures, when every chart is drawn, then each has its id and none was refused for a warning; an analysis without a chart of its own has none", () => {
    expect([...svgs.keys()]).toEqual([
      "freshness/span",
      "rows/primary_blocks",
      "files/primary_blocks",
      "rows/chain_metrics",
      "files/chain_metrics",
      "runs/slices",
      "example/avax_staked_per_day"
    ])
  })

  it("given rows on three listing-days and two missing days of one listing, when rows per day are drawn, then three bars, two bands, a legend of the two listings and one of only the kinds drawn", () => {
    const svg = svgs.get("rows/primary_blocks")!
    expect(marks(svg)).toEqual([
      ["rect", 2],
      ["rect", 3]
    ])
    expect(legend(svg, "network/blockchain")).toBe("fuji/p-chain, mainnet/p-chain")
    expect(legend(svg, "days without rows")).toBe("not crawled, crawled, none listed")
  })

  it("given more listings than are coloured, when rows per day are drawn, then one bar per day and no legend of listings", () => {
    const svg = svgs.get("rows/chain_metrics")!
    expect(marks(svg)).toEqual([["rect", 1]])
    expect(svg).not.toContain("43114/m0/day")
  })

  it("given a dataset without missing days, when rows per day are built, then there is no band layer", () => {
    const spec = rowsPerDaySpec({ ...blocks, dayGaps: [] }, "network/blockchain") as { layer: ReadonlyArray<unknown> }
    expect(spec.layer).toHaveLength(1)
  })

  it("given two partitions of one month, when files per partition are drawn, then each panel has a bar per partition", () => {
    expect(marks(svgs.get("files/primary_blocks")!)).toEqual([
      ["rect", 2],
      ["rect", 2]
    ])
  })

  it("given a failed run and a backfill, when the runs are drawn, then a bar per outcome each run had, and the outcome legend", () => {
    const svg = svgs.get("runs/slices")!
    expect(marks(svg)).toEqual([["rect", 4]])
    expect(legend(svg, "outcome")).toBe("done, skipped, failed, not_run")
  })

  it("given the span of each dataset, when drawn, then the datasets counted by the day ingested are left out", () => {
    const svg = svgs.get("freshness/span")!
    expect(marks(svg)).toEqual([
      ["rule", 1],
      ["symbol", 1]
    ])
    expect(svg).toContain("primary_blocks")
    expect(svg).not.toContain("chain_metrics")
  })

  it("given a dataset of a single day, when the spans are drawn, then it is a dot without a rule (a rule of no length would be a mark of no size)", async () => {
    const oneDay = { ...blocks, dataset: "delegators", dayColumn: "snapshot_date" as const, firstDay: "2025-01-04" }
    const svg = await Effect.runPromise(Effect.flatMap(ChartRenderer, (r) => r.svg("span", spanSpec([blocks, oneDay]))).pipe(Effect.provide(ChartRenderer.vega)))
    expect(marks(svg)).toEqual([
      ["rule", 1],
      ["symbol", 2]
    ])
  })

  it("given an analysis's answer, when its chart is built, then it draws its rows and nothing without rows", () => {
    expect(marks(svgs.get("example/avax_staked_per_day")!)).toEqual([["rect", 2]])
    expect(exampleSpec({ ...staked, rows: [] })).toBeUndefined()
  })

  it("given a spec naming a field the data lacks, when drawn, then the renderer refuses it with the warning instead of printing it", async () => {
    const spec = { data: { values: [{ a: 1 }] }, mark: "bar", encoding: { x: { field: "a", type: "quantitative" }, y: { field: "b", type: "nonsense" } } } as never
    const e = await Effect.runPromise(Effect.flip(Effect.flatMap(ChartRenderer, (r) => r.svg("bad", spec)).pipe(Effect.provide(ChartRenderer.vega))))
    expect(e).toMatchObject({ _tag: "ReportError", reason: "Render", what: "chart bad" })
  })
})
