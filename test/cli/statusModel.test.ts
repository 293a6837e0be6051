import { describe, expect, it } from "vitest"
import { type CheckpointState, initialState } from "../../src/crawl/Checkpoint.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { statusOf } from "../../src/status/model.ts"

const at = (iso: string) => Date.parse(iso) / 1000
const state = (dataset: string, params: Record<string, string>, status: CheckpointState["status"], completedAsOf: number | null, extra: Partial<CheckpointState> = {}): CheckpointState => ({
  ...initialState(makeSlice(dataset, params), "r1"),
  status,
  completedAsOf,
  ...extra
})
const day = (d: string, status: CheckpointState["status"], completedAsOf: number | null) =>
  state("primary_blocks", { network: "mainnet", blockchain: "p-chain", from: `2025-01-${d}T00:00:00Z`, to: `2025-01-${String(Number(d) + 1).padStart(2, "0")}T00:00:00Z` }, status, completedAsOf)

describe("statusOf", () => {
  it("given done days up to a head day completed at 02:00, when status is computed, then the watermark is that 02:00", () => {
    const night = at("2025-01-03T02:00:00Z")
    const s = statusOf([day("03", "done", night), day("01", "done", night), day("02", "done", night)], [], ["primary_blocks"])
    expect(s.listings).toHaveLength(1)
    expect(s.listings[0]).toMatchObject({ windows: 3, done: 3, since: at("2025-01-01T00:00:00Z"), watermark: night, pending: [] })
  })

  it("given a failed day between done ones, when status is computed, then the watermark stops before it and it is pending with its error", () => {
    const later = at("2025-02-01T00:00:00Z")
    const failed = { ...day("02", "failed", null), error: "HttpStatus on GET … (HTTP 503)" }
    const s = statusOf([day("01", "done", later), failed, day("03", "done", later)], [], ["primary_blocks"])
    expect(s.listings[0]).toMatchObject({
      watermark: at("2025-01-02T00:00:00Z"),
      pending: [{ from: at("2025-01-02T00:00:00Z"), to: at("2025-01-03T00:00:00Z"), status: "failed", error: "HttpStatus on GET … (HTTP 503)" }]
    })
    expect(s.failures.map((f) => f.dataset)).toEqual(["primary_blocks"])
  })

  it("given slices of a dataset without windows, when status is computed, then they are counted per dataset, not as listings", () => {
    const s = statusOf(
      [
        state("delegators", { network: "mainnet", snapshot_date: "2025-01-01" }, "done", 1, { rowsCommitted: 330 }),
        state("delegators", { network: "fuji", snapshot_date: "2025-01-01" }, "failed", null, { rowsCommitted: 100 })
      ],
      [],
      ["primary_blocks"]
    )
    expect(s.listings).toEqual([])
    expect(s.datasets).toEqual([{ dataset: "delegators", slices: 2, done: 1, failed: 1, running: 0, holes: 0, rows: null, rowsWritten: 430, lastRun: "r1", updatedAt: expect.any(String) }])
  })

  it("given a day done with a rejected record between done days, when status is computed, then the watermark stops before it and it is pending with its hole", () => {
    const later = at("2025-02-01T00:00:00Z")
    const holed = { ...day("02", "done", later), rejectsCommitted: 1, holes: 1 }
    const s = statusOf([day("01", "done", later), holed, day("03", "done", later)], [], ["primary_blocks"])
    expect(s.listings[0]).toMatchObject({
      done: 3,
      holes: 1,
      watermark: at("2025-01-02T00:00:00Z"),
      pending: [{ from: at("2025-01-02T00:00:00Z"), to: at("2025-01-03T00:00:00Z"), status: "done", holes: 1, error: null }]
    })
  })

  it("given fan-out slices with holes, one from before holes were counted, when status is computed, then the dataset's holes are unknown; counted ones add up", () => {
    const fanOut = (chain: string, extra: Partial<CheckpointState>) => state("evm_transactions", { chain_id: chain }, "done", 1, extra)
    const counted = statusOf([fanOut("43114", { rejectsCommitted: 3, holes: 2 }), fanOut("43113", { rejectsCommitted: 1, holes: 1 })], [], [])
    expect(counted.datasets[0]).toMatchObject({ dataset: "evm_transactions", done: 2, holes: 3 })
    const { holes: _h, ...older } = fanOut("43113", { rejectsCommitted: 1 })
    expect(statusOf([fanOut("43114", { rejectsCommitted: 3, holes: 2 }), older], [], []).datasets[0]?.holes).toBeNull()
  })

  it("given a replacing slice written three times and the rows its view returns, when status is computed, then rows are the view's, not every version's", () => {
    const tps = state("avg_tps", { chain_id: "43114" }, "done", 1, { rowsCommitted: 3 * 52, keepFromSeq: 2, lastSeq: 2 })
    const s = statusOf([tps], [], ["primary_blocks"], 5, new Map([["avg_tps", 52]]))
    expect(s.datasets[0]).toMatchObject({ dataset: "avg_tps", rows: 52, rowsWritten: 156 })
  })
})
