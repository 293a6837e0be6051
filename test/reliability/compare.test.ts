/**
 * The oracle of every "loses nothing" test (compare.ts) must see a difference wherever one is:
 * a row missing, a row doubled, a nested value changed, NULL against the string 'NULL', a digit
 * of a DECIMAL(38,0). Lineage columns alone do not count.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { compareCatalogs } from "./compare.ts"
import { tempFolders } from "../support/fixtures.ts"

const compareDir = tempFolders("compare")

/** A catalog whose view `t` holds `rows` (SQL tuples: id, nested list of structs, note, amount, run_id). */
const catalogOf = async (rows: ReadonlyArray<string>): Promise<string> => {
  const out = await compareDir()
  const db = await DuckDBInstance.create(path.join(out, "catalog.duckdb"))
  const conn = await db.connect()
  await conn.run(
    `CREATE VIEW t AS SELECT id, legs, note, amount::DECIMAL(38,0) AS amount, run_id FROM (VALUES ${rows.join(", ")}) v(id, legs, note, amount, run_id)`
  )
  conn.closeSync()
  db.closeSync()
  return out
}

const BASE = [
  `(1, [{'k': 'a', 'v': 1}], 'x', '123456789012345678901234567890123456', 'run-1')`,
  `(2, [{'k': 'b', 'v': 2}, {'k': 'c', 'v': 3}], NULL, '7', 'run-1')`,
  `(3, [], 'z', '0', 'run-1')`
]

describe("compareCatalogs", () => {
  it("given the same rows under other run ids, when compared, then no difference is counted", async () => {
    const [a, b] = await Promise.all([catalogOf(BASE), catalogOf(BASE.map((r) => r.replace("run-1", "run-2")))])
    expect(await compareCatalogs(a, b)).toEqual([{ dataset: "t", rowsA: 3, rowsB: 3, onlyA: 0, onlyB: 0 }])
  })

  it("given a row doubled, a nested value changed, NULL against 'NULL' and one digit of a 36-digit amount, when compared, then each is counted on its side", async () => {
    const changed = [
      BASE[0]!.replace("123456789012345678901234567890123456", "123456789012345678901234567890123457"),
      BASE[1]!.replace("'v': 3", "'v': 4").replace("NULL", "'NULL'"),
      BASE[2]!,
      BASE[2]!
    ]
    const [a, b] = await Promise.all([catalogOf(BASE), catalogOf(changed)])
    expect(await compareCatalogs(a, b)).toEqual([{ dataset: "t", rowsA: 3, rowsB: 4, onlyA: 2, onlyB: 3 }])
  })
})
