/**
 * Draws a Vega-Lite spec to SVG text, in Node, when the page is built: compiled to Vega, run in a
 * headless View (renderer "none": no DOM, no canvas) and serialized. The page then needs no
 * script and loads nothing to show its charts.
 */
import { Context, Effect, Layer } from "effect"
import type { TopLevelSpec } from "vega-lite"
import { ReportError } from "../Errors.ts"

export class ChartRenderer extends Context.Tag("chainetl/ChartRenderer")<
  ChartRenderer,
  {
    /** `id` names the chart in an error. */
    readonly svg: (id: string, spec: TopLevelSpec) => Effect.Effect<string, ReportError>
  }
>() {
  static readonly vega = Layer.effect(
    ChartRenderer,
    Effect.gen(function* () {
      // vega and vega-lite load with `report` only: many modules no other command needs
      // (docs/performance.md#start-up-costs)
      const [vega, vl] = yield* Effect.promise(() => Promise.all([import("vega"), import("vega-lite")]))
      return {
        svg: (id, spec) =>
          Effect.tryPromise({
            try: async () => {
              // warnings (a field the data lacks, an empty scale) would print on the console
              // mid-report: they fail the chart instead, so a broken spec cannot pass unseen
              const warnings: string[] = []
              const logger = vega.logger(vega.Warn, undefined, (method: string, level: string, input: ReadonlyArray<unknown>) => {
                if (level === "WARN" || level === "ERROR") warnings.push(input.map(String).join(" "))
              })
              const compiled = vl.compile(spec, { logger }).spec
              const view = new vega.View(vega.parse(compiled), { renderer: "none", logger })
              try {
                const svg = await view.toSVG()
                if (warnings.length > 0) throw new Error(warnings.join("; "))
                return svg
              } finally {
                view.finalize()
              }
            },
            catch: (e) => new ReportError({ reason: "Render", what: `chart ${id}`, detail: e instanceof Error ? e.message : String(e) })
          })
      }
    })
  )
}
