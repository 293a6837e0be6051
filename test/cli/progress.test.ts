import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { emit, type ProgressEvent } from "../../src/crawl/Progress.ts"
import { progressLayer } from "../../src/cli/progress/index.ts"
import { jsonReporter } from "../../src/cli/progress/json.ts"
import { linesReporter } from "../../src/cli/progress/lines.ts"
import { ttyReporter } from "../../src/cli/progress/tty.ts"

const T0 = Date.UTC(2026, 10, 22, 18, 3, 0)
const LONG = "mainnet/p-chain/2026-11-01T00:00:00Z/2026-11-02T00:00:00Z/extra"
const SHORT = `${LONG.slice(0, 47)}…`

/** Two slices of primary_blocks, one done with two parts, one failed, in a three-slice run. */
const script: ReadonlyArray<ProgressEvent> = [
  { type: "run_started", at: T0, runId: "r1", mode: "run", datasets: ["primary_blocks"], slices: 3 },
  { type: "slice_started", at: T0 + 10, dataset: "primary_blocks", slice: LONG, params: { network: "mainnet" } },
  { type: "slice_started", at: T0 + 20, dataset: "primary_blocks", slice: "fuji/c-chain", params: { network: "fuji" } },
  { type: "page", at: T0 + 500, dataset: "primary_blocks", slice: LONG, pages: 1, rows: 600 },
  { type: "page", at: T0 + 1_000, dataset: "primary_blocks", slice: LONG, pages: 2, rows: 1_200 },
  { type: "part_committed", at: T0 + 1_100, dataset: "primary_blocks", slice: LONG, seq: 0, rows: 600, rejects: 0, pages: 1 },
  { type: "part_committed", at: T0 + 1_200, dataset: "primary_blocks", slice: LONG, seq: 1, rows: 600, rejects: 2, pages: 1 },
  {
    type: "slice_finished", at: T0 + 2_110, dataset: "primary_blocks", slice: LONG, status: "done",
    pages: 2, rows: 1_200, rejects: 2, requests: 3, durationMs: 2_100
  },
  {
    type: "slice_finished", at: T0 + 3_000, dataset: "primary_blocks", slice: "fuji/c-chain", status: "failed",
    pages: 0, rows: 0, rejects: 0, requests: 4, durationMs: 2_980, error: "HTTP 503 from api\nafter 4 attempts"
  },
  { type: "run_finished", at: T0 + 3_100, runId: "r1", status: "failed", durationMs: 3_100 }
]

const collect = () => {
  const out: string[] = []
  return { out, write: (text: string) => void out.push(text) }
}

/** What a terminal would show after `text`: applies cursor-up and clear-line the way a terminal does. */
const screen = (text: string): string[] => {
  const rows: string[] = [""]
  let row = 0
  for (const token of text.split(/(\x1b\[1A|\x1b\[2K|\r|\n)/)) {
    if (token === "\x1b[1A") row = Math.max(0, row - 1)
    else if (token === "\x1b[2K") rows[row] = ""
    else if (token === "\r") continue
    else if (token === "\n") {
      row += 1
      rows[row] ??= ""
    } else rows[row] += token
  }
  return rows.slice(0, row + 1).filter((_, i) => i < row || rows[row] !== "")
}

describe("lines progress reporter", () => {
  it("given a scripted run, when reported as lines, then it prints one line per part and per finished slice plus start and end, and no page lines", () => {
    const { out, write } = collect()
    const report = linesReporter(write)
    script.forEach(report)
    expect(out.every((l) => l.endsWith("\n") && l.indexOf("\n") === l.length - 1)).toBe(true)
    expect(out.join("").split("\n").slice(0, -1)).toEqual([
      "2026-11-22T18:03:00Z run   r1 run 3 slices: primary_blocks",
      `2026-11-22T18:03:01Z part  primary_blocks ${SHORT} #0 600 rows 0 rejects`,
      `2026-11-22T18:03:01Z part  primary_blocks ${SHORT} #1 600 rows 2 rejects`,
      `2026-11-22T18:03:02Z done  primary_blocks ${SHORT} 2 pages 1200 rows 2 rejects 3 requests 2.1s`,
      "2026-11-22T18:03:03Z FAIL  primary_blocks fuji/c-chain 0 pages 0 rows 0 rejects 4 requests 3.0s: HTTP 503 from api | after 4 attempts",
      "2026-11-22T18:03:03Z end   r1 failed in 3.1s"
    ])
  })
})

describe("lines progress reporter and final slices", () => {
  it("given slices skipped as final, when reported as lines, then they print nothing and the end line counts them", () => {
    const { out, write } = collect()
    const report = linesReporter(write)
    const skipped = (slice: string): ProgressEvent => ({ type: "slice_finished", at: T0 + 100, dataset: "chain_metrics", slice, status: "skipped", pages: 0, rows: 0, rejects: 0, requests: 0, durationMs: 0 })
    ;[skipped("a"), skipped("b"), { type: "run_finished", at: T0 + 200, runId: "r2", status: "succeeded", durationMs: 200 } as ProgressEvent].forEach(report)
    expect(out).toEqual(["2026-11-22T18:03:00Z end   r2 succeeded in 0.2s (2 final slices skipped)\n"])
  })
})

describe("json progress reporter", () => {
  it("given a scripted run, when reported as JSON, then each event is one parseable line equal to the event, pages included", () => {
    const { out, write } = collect()
    const report = jsonReporter(write)
    script.forEach(report)
    const lines = out.join("").split("\n")
    expect(lines.pop()).toBe("")
    expect(lines.map((l) => JSON.parse(l))).toEqual(script)
  })
})

describe("tty progress reporter", () => {
  const run = (events: ReadonlyArray<ProgressEvent>) => {
    const { out, write } = collect()
    const report = ttyReporter(write)
    events.forEach(report)
    return { out, text: out.join("") }
  }

  it("given two slices fetching, when the view draws, then it lists both active slices with pages, rows and rate, and the overall line without an ETA", () => {
    const { text } = run(script.slice(0, 5))
    expect(screen(text)).toEqual([
      `  primary_blocks  ${SHORT}  2 pages  1,200 rows  1,212 rows/s`,
      "  primary_blocks  fuji/c-chain                                      0 pages      0 rows      0 rows/s",
      "0/3 slices  0 failed  1,200 rows  elapsed 1s"
    ])
  })

  it("given events closer together than 250 ms, when reported, then the view redraws only once per window", () => {
    const { out } = run(script.slice(0, 4))
    // run_started draws at T0; the slice starts at +10 and +20 ms wait; the page at +500 draws.
    expect(out).toHaveLength(2)
    expect(screen(out.join(""))).toContain("0/3 slices  0 failed  600 rows  elapsed 1s")
  })

  it("given a slice finished, when the view redraws, then the slice leaves the block and the overall line shows an ETA", () => {
    const { text } = run(script.slice(0, 8))
    expect(screen(text)).toEqual([
      "  primary_blocks  fuji/c-chain  0 pages  0 rows  0 rows/s",
      // elapsed 2.11 s for one of three slices: 2 remaining take about 4.2 s.
      "1/3 slices  0 failed  1,200 rows  elapsed 2s  ETA 4s"
    ])
  })

  it("given a slice failed, when reported, then a permanent line with the error stays above the block", () => {
    const { text } = run(script.slice(0, 9))
    expect(screen(text)).toEqual([
      "FAILED primary_blocks fuji/c-chain after 0 pages 0 rows: HTTP 503 from api | after 4 attempts",
      "2/3 slices  1 failed  1,200 rows  elapsed 3s  ETA 2s"
    ])
  })

  it("given the run finished, when reported, then the live block is cleared and only the failure line remains", () => {
    const { text } = run(script)
    expect(screen(text)).toEqual(["FAILED primary_blocks fuji/c-chain after 0 pages 0 rows: HTTP 503 from api | after 4 attempts"])
    expect(text).toContain("\x1b[1A\x1b[2K")
  })

  it("given only skipped slices finished, when the view draws, then it shows no ETA since skipped slices say nothing about speed", () => {
    const { text } = run([
      { type: "run_started", at: T0, runId: "r2", mode: "run", datasets: ["d"], slices: 2 },
      { type: "slice_finished", at: T0 + 300, dataset: "d", slice: "a", status: "skipped", pages: 0, rows: 0, rejects: 0, requests: 0, durationMs: 0 }
    ])
    expect(screen(text)).toEqual(["1/2 slices  0 failed  0 rows  elapsed 0s"])
  })
})

describe("progressLayer", () => {
  const emitAll = (layer: ReturnType<typeof progressLayer>) =>
    Effect.runSync(Effect.forEach(script, emit, { discard: true }).pipe(Effect.provide(layer)))

  it("given quiet mode, when a run emits events, then nothing is written", () => {
    const { out, write } = collect()
    emitAll(progressLayer("quiet", { write }))
    expect(out).toEqual([])
  })

  it("given auto mode without a terminal, when a run emits events, then it writes log lines", () => {
    const { out, write } = collect()
    emitAll(progressLayer("auto", { write, isTTY: false }))
    expect(out).toHaveLength(6)
    expect(out[1]).toMatch(/^2026-11-22T18:03:01Z part {2}primary_blocks /)
  })

  it("given auto mode on a terminal, when a run emits events, then it draws the live view with escape codes", () => {
    const { out, write } = collect()
    emitAll(progressLayer("auto", { write, isTTY: true }))
    expect(out.join("")).toContain("\x1b[1A\x1b[2K")
    expect(screen(out.join(""))).toEqual(["FAILED primary_blocks fuji/c-chain after 0 pages 0 rows: HTTP 503 from api | after 4 attempts"])
  })

  it("given json mode, when a run emits events, then every event comes out as a JSON line", () => {
    const { out, write } = collect()
    emitAll(progressLayer("json", { write }))
    expect(out.map((l) => JSON.parse(l))).toEqual(script)
  })
})
