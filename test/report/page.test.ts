/**
 * The report page as text: every figure in a cell with its exact value, text escaped, nothing
 * that loads or runs. (test/e2e/report.test.ts opens a real one in a browser.)
 */
import { describe, expect, it } from "vitest"
import { bytesText, grouped } from "../../src/report/format.ts"
import { chartId, page } from "../../src/report/html.ts"
import { report } from "./figures.ts"

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
const html = page(report, new Map([[chartId.rows("primary_blocks"), SVG], [chartId.runs, SVG]]))

/** [figure, exact value, text shown] of the cells inside the element whose tag starts with `open`. */
const figuresIn = (open: string): Array<[string, string, string]> => {
  const start = html.indexOf(open)
  const row = html.slice(start, html.indexOf("</tr>", start))
  return [...row.matchAll(/data-figure="([^"]+)" data-value="([^"]*)">([^<]*)</g)].map((m) => [m[1]!, m[2]!, m[3]!])
}

describe("the report page", () => {
  it("given a dataset's figures, when the page is made, then its summary row holds each exact value beside what it shows", () => {
    expect(figuresIn('<tr data-dataset="primary_blocks"><th><a')).toEqual([
      ["rows", "6", "6"],
      ["first-day", "2025-01-01", "2025-01-01"],
      ["last-day", "2025-01-04", "2025-01-04"],
      ["gap-days", "2", "2"],
      ["missing-heights", "7", "7"],
      ["partitions", "2", "2"],
      ["files", "3", "3"],
      ["bytes", "18446744073709553665", "16,777,216.0 TB"],
      ["newest-ingest", "2025-01-05T02:15:00Z", "2025-01-05T02:15:00Z"]
    ])
    // a dataset counted by the day ingested has no days without rows to look for
    expect(figuresIn('<tr data-dataset="chain_metrics"><th><a').find(([f]) => f === "gap-days")).toEqual(["gap-days", "", "—"])
  })

  it("given heights and sizes past 2^53, when the page is made, then every digit is in the page", () => {
    expect(html).toContain('data-figure="height" data-value="18446744073709551616">18,446,744,073,709,551,616<')
    expect(html).toContain('data-figure="from" data-value="9007199254740993"')
    expect(html).toContain('data-partition="network=mainnet/blockchain=p-chain/month=2025-01"')
    expect(bytesText("1023")).toBe("1023 B")
    expect(bytesText("1536")).toBe("1.5 KB")
    expect(grouped("-1234567")).toBe("-1,234,567")
  })

  it("given a failed run, a failing slice and a pending window, when the page is made, then each shows with its error", () => {
    expect(figuresIn('<tr data-run="20250105T021500Z-aaaaaa"><th>')).toContainEqual(["failed", "1", "1"])
    expect(html).toContain('data-figure="status" data-value="failed"')
    expect(html).toContain("Transport on GET &lt;metrics&gt; &amp; co: ECONNREFUSED")
    expect(html).toContain("[2025-01-03 00:00:00Z, 2025-01-04 00:00:00Z) failed")
    // age of the watermark at the page's own clock: 2 days 8 hours
    expect(figuresIn('<tr data-dataset="primary_blocks" data-listing="mainnet/p-chain">')).toContainEqual(["age", String(2 * 86_400 + 8 * 3_600), "2d 8h"])
  })

  it("given a height listing and a window with rejected records, when the page is made, then their holes are counted and nothing over a hole reads as complete", () => {
    expect(figuresIn('<tr data-dataset="node_p_blocks" data-listing="mainnet">')).toEqual([
      ["height", "4", "4"],
      ["complete-through", "", "—"],
      ["holes", "2", "2"]
    ])
    expect(html).toContain('<td class="num warn" data-figure="holes" data-value="2">2</td><td>1, 3</td>')
    expect(figuresIn('<tr data-dataset="evm_blocks" data-listing="43114">')).toContainEqual(["holes", "0", "0"])
    expect(figuresIn('<tr data-dataset="primary_blocks" data-listing="mainnet/p-chain">')).toContainEqual(["holes", "2", "2"])
    expect(html).toContain("[2025-01-04 00:00:00Z, 2025-01-05 00:00:00Z) done with 2 holes")
    expect(html).toContain("Holes: records a service sent that could not be mapped")
  })

  it("given text from the output and the services, when the page is made, then it is escaped, and the page has no script and loads nothing", () => {
    expect(html).toContain("/data/&lt;out&gt;")
    expect(html).not.toContain("<out>")
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|href="(?!#)/i)
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`)
  })

  it("given drawn charts, when the page is made, then each sits in its figure and no figure is left empty", () => {
    expect([...html.matchAll(/<figure class="chart" data-chart="([^"]+)">/g)].map((m) => m[1])).toEqual(["rows/primary_blocks", "runs/slices"])
  })

  it("given analyses that answered, one without a chart and one that failed, when the page is made, then answers are tables and the failure is named", () => {
    expect(html).toContain('data-figure="example-rows" data-value="2"')
    expect(html).toContain("<td>123456789012345678901234567890</td>")
    expect(html).toContain('data-example="mine"')
    expect(html).toContain("Could not run here: Catalog Error: Table with name nope does not exist!")
  })
})
