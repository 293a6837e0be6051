import { DuckDBInstance } from "@duckdb/node-api"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const SCRIPT = path.resolve(import.meta.dirname, "../../scripts/sameRows.ts")

const made: string[] = []
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

/** An output folder whose catalog holds `views` (name → SELECT). */
const output = async (views: Record<string, string>): Promise<string> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-same-rows-"))
  made.push(dir)
  const db = await DuckDBInstance.create(path.join(dir, "catalog.duckdb"))
  const conn = await db.connect()
  for (const [name, select] of Object.entries(views)) await conn.run(`CREATE VIEW ${name} AS ${select}`)
  conn.closeSync()
  db.closeSync()
  return dir
}

const sameRows = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", SCRIPT, ...args], { encoding: "utf8" })

describe("scripts/sameRows.ts", () => {
  it("given two outputs, when one row differs and a column is on one side only, then it counts the rows each way, names the column and exits 1", async () => {
    // given: equal but for one amount; B has a new column and a lineage column that differs
    const a = await output({
      blocks: "SELECT * FROM (VALUES (1, '10', 'run-a'), (2, '20', 'run-a'), (2, '20', 'run-a')) v(n, amount, run_id)",
      chains: "SELECT * FROM (VALUES ('c1')) v(id)"
    })
    const b = await output({
      blocks: "SELECT * FROM (VALUES (1, '10', 'x', 'run-b'), (2, '20', 'y', 'run-b'), (2, '21', 'z', 'run-b')) v(n, amount, month, run_id)",
      chains: "SELECT * FROM (VALUES ('c1')) v(id)",
      extra: "SELECT 1 AS one"
    })
    // when
    const r = sameRows(a, b)
    // then: a duplicate counts (EXCEPT ALL), run_id does not
    expect(r.status).toBe(1)
    expect(r.stdout).toContain("views of B only: extra")
    expect(r.stdout).toMatch(/blocks +rows 3 \/ 3, only in A 1, only in B 1 \(B only: month\)/)
    expect(r.stdout).toMatch(/chains +rows 1 \/ 1, only in A 0, only in B 0\n/)
    expect(r.stdout).toContain("2 views in both, 4 rows in A, 1 differ")
  })

  it("given a column B holds as text and A as a double, when --as reads B's through an expression, then the rows are equal and it exits 0", async () => {
    const a = await output({ holders: "SELECT * FROM (VALUES ('0xa', 1.5::DOUBLE)) v(address, sort_key)" })
    const b = await output({ holders: "SELECT * FROM (VALUES ('0xa', '1.5', 1.5::DOUBLE)) v(address, sort_key, sort_key_double)" })
    expect(sameRows(a, b).status).toBe(1)
    const r = sameRows(a, b, "--as", "holders.sort_key=sort_key_double")
    expect(r.stdout).toContain("1 views in both, 1 rows in A, 0 differ")
    expect(r.status).toBe(0)
    expect(sameRows(a, b, "--as", "holders").stderr).toContain("--as: expected view.column=expression")
    const typo = sameRows(a, b, "--as", "holder.sort_key=sort_key_double")
    expect(typo.stderr).toContain("--as holder.sort_key: no such column in a view of both outputs")
    expect(typo.status).toBe(2)
  })
})
