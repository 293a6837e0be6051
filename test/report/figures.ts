/** Small report figures for the report's unit tests (real shapes, made-up values). */
import type { DatasetFigures, ExampleResult, Report, RunFigures } from "../../src/report/model.ts"

export const blocks: DatasetFigures = {
  dataset: "primary_blocks",
  listingKeys: ["network", "blockchain"],
  rows: "6",
  dayColumn: "date",
  rowsPerDay: [
    { listing: "mainnet/p-chain", day: "2025-01-01", rows: "2" },
    { listing: "mainnet/p-chain", day: "2025-01-04", rows: "1" },
    { listing: "fuji/p-chain", day: "2025-01-02", rows: "3" }
  ],
  firstDay: "2025-01-01",
  lastDay: "2025-01-04",
  newestIngest: "2025-01-05T02:15:00Z",
  dayGaps: [
    {
      listing: "mainnet/p-chain",
      ranges: [
        { from: "2025-01-02", to: "2025-01-02", days: 1, crawled: true },
        { from: "2025-01-03", to: "2025-01-03", days: 1, crawled: false }
      ]
    }
  ],
  heightGaps: [{ listing: "mainnet/p-chain", from: "9007199254740993", to: "9007199254740999", count: "7" }],
  heightColumn: "block_number",
  partitions: [
    { path: "network=fuji/blockchain=p-chain/month=2025-01", listing: "fuji/p-chain", time: "2025-01", files: 1, rows: "3", bytes: "2048" },
    { path: "network=mainnet/blockchain=p-chain/month=2025-01", listing: "mainnet/p-chain", time: "2025-01", files: 2, rows: "3", bytes: "18446744073709551617" }
  ],
  windowed: true
}

export const metrics: DatasetFigures = {
  dataset: "chain_metrics",
  listingKeys: ["chain_id", "metric", "time_interval"],
  rows: "12",
  dayColumn: "ingested_at",
  // more listings than are coloured: drawn as one total
  rowsPerDay: Array.from({ length: 12 }, (_, i) => ({ listing: `43114/m${i}/day`, day: "2025-01-05", rows: "1" })),
  firstDay: "2025-01-05",
  lastDay: "2025-01-05",
  newestIngest: "2025-01-05T02:15:00Z",
  dayGaps: null,
  heightGaps: null,
  heightColumn: null,
  partitions: [{ path: "chain_id=43114/metric=m0/time_interval=day/month=2025-01", listing: "43114/m0/day", time: "2025-01", files: 1, rows: "12", bytes: "900" }],
  windowed: false
}

export const runs: ReadonlyArray<RunFigures> = [
  {
    runId: "20250105T021500Z-aaaaaa",
    mode: "run",
    status: "failed",
    startedAt: "2025-01-05T02:15:00.000Z",
    finishedAt: "2025-01-05T02:20:00.000Z",
    slices: 3,
    failed: 1,
    rows: 9,
    requests: 12,
    rateLimited: 0,
    waitMs: 0,
    outcomes: { done: 2, failed: 1, skipped: 0, not_run: 0 },
    failures: [{ runId: "20250105T021500Z-aaaaaa", dataset: "chain_metrics", slice: "43114-<m>-2025-01", error: "Transport on GET <metrics> & co: ECONNREFUSED" }]
  },
  {
    runId: "20250104T021500Z-bbbbbb",
    mode: "backfill",
    status: "succeeded",
    startedAt: "2025-01-04T02:15:00.000Z",
    finishedAt: "2025-01-04T02:16:00.000Z",
    slices: 4,
    failed: 0,
    rows: 30,
    requests: 4,
    rateLimited: 0,
    waitMs: 0,
    outcomes: { done: 3, failed: 0, skipped: 1, not_run: 0 },
    failures: []
  }
]

export const staked: ExampleResult = {
  name: "avax_staked_per_day",
  title: "AVAX staked per day",
  columns: ["network", "date", "staking_txs", "staked_navax", "staked_avax"],
  rows: [
    ["mainnet", "2025-01-01", "2", "123456789012345678901234567890", 1.2345678901234568e20],
    ["mainnet", "2025-01-03", "1", "2000000000000", 2000]
  ],
  error: null
}

export const report: Report = {
  out: "/data/<out>",
  generatedAt: "2025-01-05T08:00:00.000Z",
  now: Date.parse("2025-01-05T08:00:00Z") / 1000,
  catalogBuiltAt: "2025-01-05T02:20:00.000Z",
  datasets: [blocks, metrics],
  empty: ["tx_fees"],
  listings: [
    {
      dataset: "primary_blocks",
      listing: { network: "mainnet", blockchain: "p-chain" },
      windows: 4,
      done: 3,
      since: Date.parse("2025-01-01T00:00:00Z") / 1000,
      watermark: Date.parse("2025-01-03T00:00:00Z") / 1000,
      holes: 2,
      pending: [
        { from: Date.parse("2025-01-03T00:00:00Z") / 1000, to: Date.parse("2025-01-04T00:00:00Z") / 1000, status: "failed", holes: 0, error: "HTTP 503" },
        { from: Date.parse("2025-01-04T00:00:00Z") / 1000, to: Date.parse("2025-01-05T00:00:00Z") / 1000, status: "done", holes: 2, error: null }
      ],
      lastRun: "20250105T021500Z-aaaaaa"
    }
  ],
  slices: [{ dataset: "chain_metrics", slices: 2, done: 1, failed: 1, running: 0, holes: 0, rows: 12, rowsWritten: 12, lastRun: "20250105T021500Z-aaaaaa", updatedAt: "2025-01-05T02:19:00.000Z" }],
  heights: [
    { dataset: "evm_blocks", listing: "43114", height: "18446744073709551616", completeThrough: "18446744073709551616", holes: 0, holeKeys: [] },
    // heights 1 and 3 of [1, 5) rejected: the lowest height asked for is a hole, so none is complete
    { dataset: "node_p_blocks", listing: "mainnet", height: "4", completeThrough: null, holes: 2, holeKeys: ["1", "3"] }
  ],
  runs,
  failing: [{ dataset: "chain_metrics", slice: "43114-<m>-2025-01", runId: "20250105T021500Z-aaaaaa", error: "Transport on GET <metrics> & co: ECONNREFUSED" }],
  examples: [staked, { name: "mine", title: "A user's own analysis", columns: ["n"], rows: [["1"]], error: null }, { name: "broken", title: "Broken", columns: [], rows: [], error: "Catalog Error: Table with name nope does not exist!" }]
}
