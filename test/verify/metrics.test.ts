/**
 * verify's metrics file as Prometheus reads it (parse-prometheus-text-format, a port of the Python
 * client's parser): every family typed and described once, a sample per dataset, figures exact,
 * label values escaped so any dataset name reads back as written.
 */
import parsePrometheus from "parse-prometheus-text-format"
import { describe, expect, it } from "vitest"
import { metricsText } from "../../src/verify/Metrics.ts"

describe("the metrics file", () => {
  it("given figures of two datasets and a failure, when written, then the parser reads each metric back per dataset, exact, with its HELP and gauge type", () => {
    const text = metricsText(
      [
        { dataset: "node_p_blocks", rows: 2n ** 64n, holes: 3n, lagSeconds: 120, lastSuccess: 1_765_000_000, failedSlices: 1, rejects: 2n },
        { dataset: 'odd"name\\with\nbreak', rows: 0n, holes: 0n, failedSlices: 0, rejects: 0n }
      ],
      [{ dataset: "node_p_blocks", check: "heights", listing: {}, what: "heights 5 are missing" }],
      1_765_000_100
    )
    const families = parsePrometheus(text)
    const samples = (name: string) => families.find((f) => f.name === name)?.metrics.map((m) => [m.labels?.["dataset"], m.labels?.["check"], m.value].filter((x) => x !== undefined))
    expect(families.map((f) => f.type)).toEqual(families.map(() => "GAUGE"))
    expect(families.every((f) => f.help.length > 10)).toBe(true)
    expect(samples("chainetl_dataset_rows")).toEqual([
      ["node_p_blocks", "18446744073709551616"],
      ['odd"name\\with\nbreak', "0"]
    ])
    expect(samples("chainetl_verify_ok")).toEqual([
      ["node_p_blocks", "0"],
      ['odd"name\\with\nbreak', "1"]
    ])
    // figures a dataset has none of are left out, not written as 0
    expect(samples("chainetl_dataset_lag_seconds")).toEqual([["node_p_blocks", "120"]])
    expect(samples("chainetl_verify_failures")?.filter((s) => s[2] !== "0")).toEqual([["node_p_blocks", "heights", "1"]])
    expect(samples("chainetl_verify_timestamp_seconds")).toEqual([["1765000100"]])
    // the format's rules the parser does not enforce: a trailing newline, one TYPE per family, no blank lines
    expect(text.endsWith("\n")).toBe(true)
    expect(text.split("\n").filter((l) => l.startsWith("# TYPE ")).length).toBe(families.length)
    expect(text.slice(0, -1).split("\n")).not.toContain("")
  })
})
