/** A plain text table for terminals and logs: left-aligned text, right-aligned numbers. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number | bigint>>): string => {
  const cells = [header, ...rows.map((r) => r.map(String))]
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] !== "string"))
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)))
  const line = (r: ReadonlyArray<string>) =>
    r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd()
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.slice(1).map(line)].join("\n")
}
