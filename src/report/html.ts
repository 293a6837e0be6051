/**
 * The report page: one HTML file with its charts inlined as SVG and its style in the page, no
 * script and nothing to load (its Content-Security-Policy forbids every fetch, so a stray URL
 * could not phone home either). Every figure printed sits in a cell with `data-figure` and its
 * exact `data-value`, so a test (or a script) reads the page as data.
 */
import { AS_OF_AHEAD, behind, span } from "../status/lag.ts"
import { bytesText, cell, esc, figure, grouped, instant } from "./format.ts"
import { exampleCaptions } from "./examples.ts"
import type { DatasetFigures, Report } from "./model.ts"

/** Chart ids, shared with the builder (report.ts) that draws them. */
export const chartId = {
  span: "freshness/span",
  runs: "runs/slices",
  rows: (dataset: string) => `rows/${dataset}`,
  files: (dataset: string) => `files/${dataset}`,
  example: (name: string) => `example/${name}`
} as const

const STYLE = `
:root { --fg: #1d2330; --muted: #5b6475; --line: #dde1e8; --bg: #f6f7f9; --bad: #b3261e; --warn: #8a5a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 "DejaVu Sans", "Liberation Sans", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
header { background: #1d2330; color: #fff; padding: 16px 28px; }
header h1 { margin: 0 0 4px; font-size: 20px; }
header p { margin: 0; color: #c9cfdb; }
header code { color: #fff; }
nav { margin-top: 8px; }
nav a { color: #9ecae9; margin-right: 14px; text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1200px; }
section { margin-top: 28px; }
h2 { font-size: 17px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 22px 0 6px; }
article { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 12px; margin: 14px 0; }
table { border-collapse: collapse; margin: 8px 0; background: #fff; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 10px; text-align: left; vertical-align: top; white-space: nowrap; }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.err { color: var(--bad); max-width: 640px; white-space: normal; word-break: break-word; }
.bad { color: var(--bad); font-weight: 600; }
.warn { color: var(--warn); }
.note, figcaption { color: var(--muted); font-size: 12px; }
figure.chart { margin: 8px 0; overflow-x: auto; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
details summary { cursor: pointer; color: var(--muted); font-size: 12px; }
code { font-size: 12px; }
`

const chart = (svgs: ReadonlyMap<string, string>, id: string, caption: string): string => {
  const svg = svgs.get(id)
  return svg === undefined ? "" : `<figure class="chart" data-chart="${esc(id)}">${svg}<figcaption>${esc(caption)}</figcaption></figure>`
}

const table = (name: string, head: ReadonlyArray<string | [string, string]>, rows: ReadonlyArray<string>, attrs = ""): string =>
  `<table data-table="${esc(name)}"${attrs}><thead><tr>${head
    .map((h) => (typeof h === "string" ? `<th>${esc(h)}</th>` : `<th class="${h[1]}">${esc(h[0])}</th>`))
    .join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`

/** A list open on the page while short, folded when long (it stays in the page either way). */
const OPEN_UP_TO = 12
const collapsible = (rows: number, summary: string, body: string): string =>
  `<details${rows <= OPEN_UP_TO ? " open" : ""}><summary>${esc(summary)}</summary>${body}</details>`

const sum = (xs: ReadonlyArray<string>): string => xs.reduce((a, b) => a + BigInt(b), 0n).toString()

const gapDays = (d: DatasetFigures): string | null => (d.dayGaps === null ? null : String(d.dayGaps.flatMap((g) => g.ranges).reduce((n, r) => n + r.days, 0)))
const missing = (d: DatasetFigures): string | null => (d.heightGaps === null ? null : sum(d.heightGaps.map((g) => g.count)))

/** A count of holes: warned when there are any, "?" when an older checkpoint did not count them. */
const holesFigure = (holes: number | null): string =>
  figure("holes", holes === null ? "" : String(holes), holes === null ? "?" : String(holes), holes === 0 ? "num" : "num warn")

const COUNTED_BY: Record<DatasetFigures["dayColumn"], string> = { date: "date", snapshot_date: "snapshot_date", ingested_at: "day ingested" }

const datasetsSection = (r: Report): string => {
  const rows = r.datasets.map((d) => {
    const gaps = gapDays(d)
    const heights = missing(d)
    return `<tr data-dataset="${esc(d.dataset)}"><th><a href="#rows-${esc(d.dataset)}">${esc(d.dataset)}</a></th>${[
      figure("rows", d.rows),
      cell(COUNTED_BY[d.dayColumn]),
      figure("first-day", d.firstDay ?? "", d.firstDay ?? "—", ""),
      figure("last-day", d.lastDay ?? "", d.lastDay ?? "—", ""),
      figure("gap-days", gaps ?? "", gaps ?? "—", gaps !== null && gaps !== "0" ? "num warn" : "num"),
      figure("missing-heights", heights ?? "", heights === null ? "—" : grouped(heights), heights !== null && heights !== "0" ? "num warn" : "num"),
      figure("partitions", String(d.partitions.length)),
      figure("files", String(d.partitions.reduce((n, p) => n + p.files, 0))),
      figure("bytes", sum(d.partitions.map((p) => p.bytes)), bytesText(sum(d.partitions.map((p) => p.bytes)))),
      figure("newest-ingest", d.newestIngest ?? "", d.newestIngest ?? "—", "")
    ].join("")}</tr>`
  })
  return `<section id="datasets"><h2>Datasets</h2>
${table("datasets", ["dataset", ["rows", "num"], "counted by", "first day", "newest day", ["days without rows", "num"], ["missing heights", "num"], ["partitions", "num"], ["files", "num"], ["size", "num"], "newest ingestion (UTC)"], rows)}
<p class="note">Rows: what the dataset's view returns (<code>SELECT count(*)</code>). Days: a dataset's <code>date</code> (the record's own day), else its <code>snapshot_date</code>, else the day its rows were ingested.
Days without rows: days between a listing's first and newest day that have none (record days and snapshot days only).
Missing heights: block heights between a listing's lowest and highest that are absent (block datasets only). Files and size: the Parquet files the view reads.</p>
${r.empty.length === 0 ? "" : `<p class="note">No rows yet: ${r.empty.map(esc).join(", ")}.</p>`}
</section>`
}

const freshnessSection = (r: Report, svgs: ReadonlyMap<string, string>): string => {
  const notes = new Set<string>()
  const listings = r.listings.map((l) => {
    const age = l.watermark === null ? undefined : behind(r.now, l.watermark, AS_OF_AHEAD)
    if (age?.note !== undefined) notes.add(age.note)
    const pending = l.pending.map((p) => `[${instant(p.from)}, ${instant(p.to)}) ${p.status}${p.status === "done" ? ` with ${p.holes ?? "uncounted"} holes` : ""}`).join("; ")
    return `<tr data-dataset="${esc(l.dataset)}" data-listing="${esc(Object.values(l.listing).join("/"))}"><th>${esc(l.dataset)}</th>${[
      cell(Object.values(l.listing).join("/")),
      figure("windows", String(l.windows)),
      figure("done", String(l.done)),
      cell(l.since === null ? "" : instant(l.since)),
      figure("watermark", l.watermark === null ? "" : String(l.watermark), l.watermark === null ? "—" : instant(l.watermark), ""),
      figure("age", age === undefined ? "" : String(age.seconds), age === undefined ? "—" : `${span(age.seconds)}${age.note === undefined ? "" : " *"}`),
      holesFigure(l.holes),
      `<td class="${pending === "" ? "" : "bad"}">${esc(pending === "" ? "none" : pending)}</td>`
    ].join("")}</tr>`
  })
  const heights = r.heights.map(
    (h) =>
      `<tr data-dataset="${esc(h.dataset)}" data-listing="${esc(h.listing)}"><th>${esc(h.dataset)}</th>${cell(h.listing)}${figure("height", h.height)}${figure(
        "complete-through",
        h.completeThrough ?? "",
        h.completeThrough === null ? "—" : grouped(h.completeThrough),
        h.completeThrough === h.height ? "num" : "num warn"
      )}${holesFigure(h.holes)}${cell(h.holeKeys.length === 0 ? "" : `${h.holeKeys.slice(0, 10).join(", ")}${h.holeKeys.length > 10 ? ", …" : ""}`)}</tr>`
  )
  const slices = r.slices.map(
    (s) =>
      `<tr data-dataset="${esc(s.dataset)}"><th>${esc(s.dataset)}</th>${[
        figure("slices", String(s.slices)),
        figure("done", String(s.done)),
        figure("failed", String(s.failed), String(s.failed), s.failed > 0 ? "num bad" : "num"),
        figure("running", String(s.running)),
        holesFigure(s.holes),
        cell(s.lastRun ?? ""),
        cell(s.updatedAt === null ? "" : `${s.updatedAt.slice(0, 19).replace("T", " ")}Z`)
      ].join("")}</tr>`
  )
  return `<section id="freshness"><h2>Freshness and lag</h2>
${chart(svgs, chartId.span, "Each dataset's days, from its first to its newest (the dot), by the day it is counted by (datasets counted by the day ingested are left out: see their newest ingestion above).")}
${listings.length === 0 ? "" : `<h3>Windowed listings: how far the history is complete</h3>
${table("watermarks", ["dataset", "listing", ["windows", "num"], ["done", "num"], "since", "complete through (watermark)", ["age", "num"], ["holes", "num"], "pending windows"], listings)}`}
<p class="note">Age: how far the watermark is behind this page's clock (${esc(r.generatedAt)}), as <code>chainetl status</code> computes it. <code>chainetl status --live</code> measures the lag behind the services' newest blocks.</p>
${[...notes].map((n) => `<p class="note">* ${esc(n)}</p>`).join("")}
${heights.length === 0 ? "" : `<h3>Height-ordered listings: how far the crawl has scanned</h3>${table("heights", ["dataset", "listing", ["scanned through", "num"], ["complete through", "num"], ["holes", "num"], "hole heights"], heights)}
<p class="note">Complete through: every height from the listing's lowest up to there is written, stopping below the first gap or hole.</p>`}
${slices.length === 0 ? "" : `<h3>Other datasets: slices and their last update</h3>${table("slices", ["dataset", ["slices", "num"], ["done", "num"], ["failed", "num"], ["running", "num"], ["holes", "num"], "last run", "updated (UTC)"], slices)}`}
${[...r.listings.map((l) => l.holes), ...r.heights.map((h) => h.holes), ...r.slices.map((s) => s.holes)].some((h) => h !== 0) ? `<p class="warn">Holes: records a service sent that could not be mapped (each in <code>_rejects</code> with its reason) and that are not written since. Their keys, heights or windows are not complete, and the next run asks for them again.</p>` : ""}
</section>`
}

const rowsArticle = (d: DatasetFigures, svgs: ReadonlyMap<string, string>): string => {
  const keys = d.listingKeys.join("/") || "listing"
  const gapRows = (d.dayGaps ?? []).flatMap((g) =>
    g.ranges.map(
      (range) =>
        `<tr data-listing="${esc(g.listing)}">${cell(g.listing)}${cell(range.from)}${cell(range.to)}${figure("gap-days", String(range.days))}${
          "crawled" in range ? `<td class="${range.crawled ? "" : "bad"}" data-figure="crawled" data-value="${range.crawled}">${range.crawled ? "yes: the service listed none" : "no: not crawled"}</td>` : ""
        }</tr>`
    )
  )
  const heightRows = (d.heightGaps ?? []).map(
    (g) => `<tr data-listing="${esc(g.listing)}">${cell(g.listing)}${figure("from", g.from)}${figure("to", g.to)}${figure("missing-heights", g.count)}</tr>`
  )
  const dayRows = d.rowsPerDay.map((c) => `<tr data-listing="${esc(c.listing)}" data-day="${esc(c.day)}">${cell(c.listing)}${cell(c.day)}${figure("day-rows", c.rows)}</tr>`)
  const gapTotal = gapDays(d)
  const heightTotal = missing(d)
  return `<article id="rows-${esc(d.dataset)}" data-dataset="${esc(d.dataset)}"><h3>${esc(d.dataset)}</h3>
${chart(svgs, chartId.rows(d.dataset), `Rows per ${d.dayColumn === "ingested_at" ? "day ingested" : d.dayColumn === "date" ? "day" : "snapshot day"}${d.listingKeys.length > 0 ? `, by ${keys}` : ""}${gapRows.length > 0 ? "; bands: days without rows" : ""}.`)}
${gapTotal === null ? `<p class="note">Days without rows are not looked for: the day is when rows were ingested.</p>` : gapRows.length === 0 ? `<p class="note">No day without rows between each listing's first and newest day.</p>` : `<p class="warn">${esc(gapTotal)} day${gapTotal === "1" ? "" : "s"} without rows between a listing's first and newest day${d.windowed ? " (crawled: a finished window asked for them and the service listed none; not crawled: no finished window covers them, see the pending windows above)" : ""}:</p>
${collapsible(gapRows.length, `ranges of days without rows (${gapRows.length})`, table("day-gaps", [keys, "from", "to", ["days", "num"], ...(d.windowed ? ["crawled"] : [])], gapRows))}`}
${heightTotal === null ? "" : heightRows.length === 0 ? `<p class="note">No missing ${esc(d.heightColumn)} between each listing's lowest and highest.</p>` : `<p class="warn">${esc(grouped(heightTotal))} missing ${esc(d.heightColumn)} value${heightTotal === "1" ? "" : "s"} between a listing's lowest and highest:</p>
${collapsible(heightRows.length, `ranges of missing heights (${heightRows.length})`, table("height-gaps", [keys, ["from", "num"], ["to", "num"], ["missing", "num"]], heightRows))}`}
<details><summary>rows per ${esc(keys)} and day (${d.rowsPerDay.length})</summary>${table("rows-per-day", [keys, "day", ["rows", "num"]], dayRows)}</details>
</article>`
}

const filesArticle = (d: DatasetFigures, svgs: ReadonlyMap<string, string>): string => {
  const rows = d.partitions.map(
    (p) => `<tr data-partition="${esc(p.path)}">${cell(p.path)}${figure("files", String(p.files))}${figure("rows", p.rows)}${figure("bytes", p.bytes, bytesText(p.bytes))}</tr>`
  )
  return `<article id="files-${esc(d.dataset)}" data-dataset="${esc(d.dataset)}"><h3>${esc(d.dataset)}</h3>
${chart(svgs, chartId.files(d.dataset), `Files and size per partition folder${d.partitions.some((p) => p.time !== null) ? ", by its time key" : ""}.`)}
<details><summary>per partition (${d.partitions.length})</summary>${table("partitions", ["partition", ["files", "num"], ["rows", "num"], ["size", "num"]], rows)}</details>
</article>`
}

const runsSection = (r: Report, svgs: ReadonlyMap<string, string>): string => {
  const runs = r.runs.map(
    (run) =>
      `<tr data-run="${esc(run.runId)}"><th>${esc(run.runId)}</th>${[
        cell(run.mode),
        `<td class="${run.status === "failed" || run.status === "interrupted" ? "bad" : ""}" data-figure="status" data-value="${esc(run.status)}">${esc(run.status)}</td>`,
        cell(`${run.startedAt.slice(0, 19).replace("T", " ")}Z`),
        cell(run.finishedAt === null ? "" : `${run.finishedAt.slice(0, 19).replace("T", " ")}Z`),
        figure("slices", String(run.slices)),
        figure("failed", String(run.failed), String(run.failed), run.failed > 0 ? "num bad" : "num"),
        figure("rows", String(run.rows)),
        figure("requests", String(run.requests)),
        figure("rate-limited", String(run.rateLimited))
      ].join("")}</tr>`
  )
  const failures = r.runs.flatMap((run) =>
    run.failures.map((f) => `<tr data-run="${esc(f.runId)}" data-dataset="${esc(f.dataset)}" data-slice="${esc(f.slice)}">${cell(f.runId)}${cell(f.dataset)}${cell(f.slice)}${cell(f.error, "err")}</tr>`)
  )
  const failing = r.failing.map((f) => `<tr data-dataset="${esc(f.dataset)}" data-slice="${esc(f.slice)}">${cell(f.dataset)}${cell(f.slice)}${cell(f.runId)}${cell(f.error, "err")}</tr>`)
  return `<section id="runs"><h2>Last runs</h2>
${chart(svgs, chartId.runs, "Slices of each run by outcome (skipped: final, nothing to fetch; not run: the run stopped first).")}
${table("runs", ["run", "mode", "status", "started (UTC)", "finished (UTC)", ["slices", "num"], ["failed", "num"], ["rows", "num"], ["requests", "num"], ["429s", "num"]], runs)}
${failures.length === 0 ? `<p class="note">No failed slice in these runs.</p>` : `<h3 class="bad">Failures in these runs (${failures.length})</h3>${table("run-failures", ["run", "dataset", "slice", "error"], failures)}`}
${failing.length === 0 ? `<p class="note">No slice is failing now.</p>` : `<h3 class="bad">Failing now (${failing.length}): rerun the same command to resume them</h3>${table("failing", ["dataset", "slice", "last run", "error"], failing)}`}
</section>`
}

const examplesSection = (r: Report, svgs: ReadonlyMap<string, string>): string => {
  const articles = r.examples.map((e) => {
    const rows = e.rows.map((values) => `<tr>${values.map((v) => cell(v === null ? "NULL" : typeof v === "object" ? JSON.stringify(v) : v)).join("")}</tr>`)
    return `<article id="example-${esc(e.name)}" data-example="${esc(e.name)}"><h3>${esc(e.title)}</h3>
<p class="note"><code>chainetl query --file examples/${esc(e.name)}.sql</code></p>
${e.error !== null ? `<p class="bad">Could not run here: ${esc(e.error)}</p>` : e.rows.length === 0 ? `<p class="note">No rows: the views it reads hold nothing to answer with yet.</p>` : ""}
${chart(svgs, chartId.example(e.name), exampleCaptions[e.name] ?? "")}
${e.error !== null ? "" : `<details><summary>answer (<span data-figure="example-rows" data-value="${e.rows.length}">${e.rows.length}</span> rows)</summary>${table("example", e.columns, rows, ` data-example="${esc(e.name)}"`)}</details>`}
</article>`
  })
  return `<section id="analyses"><h2>Example analyses</h2>
<p class="note">The analyses shipped in <code>examples/</code>, run over this catalog. Charts draw counts and the analyses' own doubles; the tables hold the exact answers.</p>
${articles.join("\n")}
</section>`
}

/** The whole page; `svgs` holds each drawn chart by its id (chartId). */
export const page = (r: Report, svgs: ReadonlyMap<string, string>): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="chainetl report">
<title>chainetl report: ${esc(r.out)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>chainetl report</h1>
<p>Output <code>${esc(r.out)}</code> · catalog built ${esc(r.catalogBuiltAt)} · page made ${esc(r.generatedAt)}</p>
<nav><a href="#datasets">Datasets</a><a href="#freshness">Freshness and lag</a><a href="#rows">Rows per day and gaps</a><a href="#files">Files per partition</a><a href="#runs">Last runs</a><a href="#analyses">Example analyses</a></nav>
</header>
<main>
${datasetsSection(r)}
${freshnessSection(r, svgs)}
<section id="rows"><h2>Rows per day and gaps</h2>
${r.datasets.map((d) => rowsArticle(d, svgs)).join("\n")}
</section>
<section id="files"><h2>Files and size per partition</h2>
${r.datasets.map((d) => filesArticle(d, svgs)).join("\n")}
</section>
${runsSection(r, svgs)}
${examplesSection(r, svgs)}
</main>
</body>
</html>
`
