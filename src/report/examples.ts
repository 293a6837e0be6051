/**
 * How each shipped analysis (examples/*.sql) is drawn: which of its columns go where. An analysis
 * without an entry here (one a user added) is shown as its table only. Drawn values are counts
 * and the analyses' own doubles (`staked_avax`, `net_reward_avax`): exact amounts stay in the table.
 */
import type { TopLevelSpec } from "vega-lite"
import type { ExampleResult } from "./model.ts"
import { CONFIG, COUNT_AXIS, WIDTH } from "./specs.ts"

type Row = Readonly<Record<string, unknown>>

const objects = (r: ExampleResult): ReadonlyArray<Row> => r.rows.map((values) => Object.fromEntries(r.columns.map((c, i) => [c, values[i]])))

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

/** Long ids (addresses, node ids) cut to what a bar label can hold; the table has them whole. */
const short = (s: unknown, keep = 18): string => {
  const t = String(s)
  return t.length <= keep ? t : `${t.slice(0, keep - 1)}…`
}

/** A drawn quantity: its field, axis title, and whether it counts things (whole-number ticks). */
interface Measure {
  readonly field: string
  readonly title: string
  readonly counts: boolean
}

const axisOf = (m: Measure) => ({ field: m.field, type: "quantitative", title: m.title, ...(m.counts ? { axis: COUNT_AXIS } : {}) })

/** Bars per UTC day, stacked by `colour`. */
const daily = (values: ReadonlyArray<Row>, y: Measure, colour: string): TopLevelSpec =>
  ({
    ...CONFIG,
    width: WIDTH,
    height: 160,
    data: { values },
    mark: { type: "bar" },
    encoding: {
      x: { field: "date", type: "temporal", timeUnit: "utcyearmonthdate", title: "day (UTC)", scale: { type: "utc" } },
      y: { ...axisOf(y), aggregate: "sum" },
      color: { field: colour, type: "nominal", title: colour }
    }
  }) as TopLevelSpec

/** Horizontal bars in the analysis's own order (its ranking), one per `label`. */
const ranked = (values: ReadonlyArray<Row>, x: Measure, colour: string): TopLevelSpec =>
  ({
    ...CONFIG,
    width: WIDTH - 220,
    data: { values },
    mark: { type: "bar" },
    encoding: {
      // no axis title: the labels say what they are, and a long rotated title pushes the chart down
      y: { field: "label", type: "nominal", title: null, sort: null, axis: { labelLimit: 220 } },
      x: axisOf(x),
      color: { field: colour, type: "nominal", title: colour }
    }
  }) as TopLevelSpec

const charts: Readonly<Record<string, (rows: ReadonlyArray<Row>) => TopLevelSpec>> = {
  avax_staked_per_day: (rows) =>
    daily(rows.map((r) => ({ date: r["date"], network: r["network"], staked_avax: num(r["staked_avax"]) })), { field: "staked_avax", title: "AVAX staked", counts: false }, "network"),
  top_delegators_by_net_reward: (rows) =>
    ranked(
      rows.map((r) => ({ label: `${String(r["network"])} ${short(r["delegator"])}`, network: r["network"], net_reward_avax: num(r["net_reward_avax"]) })),
      { field: "net_reward_avax", title: "net reward (AVAX)", counts: false },
      "network"
    ),
  validators_most_delegations: (rows) =>
    ranked(
      rows.map((r) => ({ label: `${String(r["network"])} ${short(r["node_id"], 24)}`, network: r["network"], delegations: num(r["delegations"]) })),
      { field: "delegations", title: "delegations (every status)", counts: true },
      "network"
    ),
  // bars from the blocks, the metric as a dashed line over them: where they agree the line runs on the bars' tops
  evm_daily_tx_count: (rows) =>
    ({
      ...CONFIG,
      width: WIDTH,
      height: 160,
      data: { values: rows.map((r) => ({ date: r["date"], chain: String(r["chain_id"]), blocks: num(r["txs_from_blocks"]), metric: num(r["tx_count_metric"]) })) },
      encoding: { x: { field: "date", type: "temporal", timeUnit: "utcyearmonthdate", title: "day (UTC)", scale: { type: "utc" } } },
      layer: [
        {
          mark: { type: "bar", opacity: 0.7 },
          encoding: {
            y: { ...axisOf({ field: "blocks", title: "transactions", counts: true }), aggregate: "sum" },
            color: { field: "chain", type: "nominal", title: "chain" }
          }
        },
        {
          transform: [{ filter: "datum.metric !== null" }],
          mark: { type: "line", point: true, color: "#1d2330", strokeDash: [4, 2] },
          encoding: { y: { field: "metric", type: "quantitative", aggregate: "sum" }, detail: { field: "chain", type: "nominal" } }
        }
      ]
    }) as TopLevelSpec,
  utxo_balance_per_address: (rows) =>
    ranked(
      rows.map((r) => ({ label: `${String(r["blockchain"])} ${short(r["address"], 22)}`, asset: String(r["asset_symbol"] ?? r["asset_id"]), utxos: num(r["utxos"]) })),
      { field: "utxos", title: "unspent outputs", counts: true },
      "asset"
    ),
  token_transfer_volume_per_day: (rows) =>
    daily(
      rows.map((r) => ({ date: r["date"], token: `${String(r["token_symbol"] ?? "?")} ${short(r["token_address"], 10)}`, transfers: num(r["transfers"]) })),
      { field: "transfers", title: "transfers", counts: true },
      "token"
    )
}

/** What a chart shows that its axes do not say. */
export const exampleCaptions: Readonly<Record<string, string>> = {
  top_delegators_by_net_reward: "Per network, the delegators (their reward addresses, cut short) by net reward.",
  validators_most_delegations: "Per network, the most delegated nodes (ids cut short) by their delegations.",
  evm_daily_tx_count: "Bars: the transactions of the crawled blocks per day. Dashed line: the metrics service's daily txCount.",
  utxo_balance_per_address: "Unspent outputs per owner address (cut short) and asset; the exact balances are in the answer.",
  token_transfer_volume_per_day: "Transfers per day and token (symbol and contract, cut short); the exact volumes are in the answer."
}

/** The chart of an analysis's answer; undefined when it has no rows or no chart of its own. */
export const exampleSpec = (r: ExampleResult): TopLevelSpec | undefined => {
  const chart = charts[r.name]
  return chart === undefined || r.rows.length === 0 ? undefined : chart(objects(r))
}
