/**
 * Are two chainetl outputs the same rows? Every view of both catalogs (`catalog.duckdb`) is compared
 * EXCEPT ALL both ways over the columns both sides have, lineage (`run_id`, `ingested_at`) aside;
 * a view or column on one side only is named, not compared. Used to show that a change of the write path
 * changed no row (docs/performance.md#same-rows): two builds crawl one emulator, then
 *
 *   node --import tsx scripts/sameRows.ts OUT_A OUT_B [--as view.column=expression-over-B]
 *
 * `--as` reads a column of B through an expression, for a column whose type a later change made
 * exact on purpose (e.g. `--as token_holders.sort_key=sort_key_double`); one that names no column
 * both sides have is refused. Exits 1 when a view differs, 2 on a wrong argument.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { attachOutputs, columnsOf, diffRows, ident, LINEAGE, viewsOf } from "./rowDiff.ts"

const lineage = new Set<string>(LINEAGE)

const args = process.argv.slice(2)
const outs = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--as")
const as = new Map<string, string>()
args.forEach((a, i) => {
  if (a !== "--as") return
  const m = /^([^.=]+)\.([^=]+)=(.+)$/.exec(args[i + 1] ?? "")
  if (m === null) throw new Error(`--as: expected view.column=expression, got '${args[i + 1] ?? ""}'`)
  as.set(`${m[1]}.${m[2]}`, m[3]!)
})
if (outs.length !== 2) {
  console.error("usage: node --import tsx scripts/sameRows.ts OUT_A OUT_B [--as view.column=expression-over-B]")
  process.exit(2)
}

const db = await DuckDBInstance.create(":memory:")
const conn = await db.connect()
await attachOutputs(conn, outs[0]!, outs[1]!)
const inA = await viewsOf(conn, "a")
const inB = await viewsOf(conn, "b")

const used = new Set<string>()
let differing = 0
let rowsA = 0
if (inA.some((v) => !inB.includes(v))) console.log(`views of A only: ${inA.filter((v) => !inB.includes(v)).join(", ")}`)
if (inB.some((v) => !inA.includes(v))) console.log(`views of B only: ${inB.filter((v) => !inA.includes(v)).join(", ")}`)
for (const view of inA.filter((v) => inB.includes(v))) {
  const colsA = (await columnsOf(conn, "a", view)).filter((c) => !lineage.has(c))
  const colsB = (await columnsOf(conn, "b", view)).filter((c) => !lineage.has(c))
  const shared = colsA.filter((c) => colsB.includes(c))
  const listA = shared.map(ident).join(", ")
  const listB = shared.map((c) => (as.has(`${view}.${c}`) ? `${as.get(`${view}.${c}`)} AS ${ident(c)}` : ident(c))).join(", ")
  for (const c of shared) if (as.has(`${view}.${c}`)) used.add(`${view}.${c}`)
  const { rowsA: nA, rowsB: nB, onlyA, onlyB } = await diffRows(conn, view, listA, listB)
  rowsA += nA
  const oneSide = [...colsA.filter((c) => !colsB.includes(c)).map((c) => `A only: ${c}`), ...colsB.filter((c) => !colsA.includes(c)).map((c) => `B only: ${c}`)]
  if (onlyA + onlyB > 0) differing++
  console.log(`${view.padEnd(28)} rows ${nA} / ${nB}, only in A ${onlyA}, only in B ${onlyB}${oneSide.length === 0 ? "" : ` (${oneSide.join(", ")})`}`)
}
const unused = [...as.keys()].filter((k) => !used.has(k))
if (unused.length > 0) {
  console.error(`--as ${unused.join(", ")}: no such column in a view of both outputs`)
  process.exit(2)
}
console.log(`${inA.filter((v) => inB.includes(v)).length} views in both, ${rowsA} rows in A, ${differing} differ`)
process.exit(differing === 0 ? 0 : 1)
