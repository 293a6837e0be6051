import { Effect, Either } from "effect"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { EMULATOR_JOB } from "../../src/cli/runCommand.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { loadJobFile } from "../../src/Job.ts"
import type { RunReport } from "../../src/Runner.ts"
import { sqlTypeOf } from "../../src/sink/DuckTypes.ts"
import { decodeAudit, resetDecodeAudit } from "../../src/transform/DecodeAudit.ts"
import { tempFolders } from "../support/fixtures.ts"
import { openCatalog, runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("catalogue")

/**
 * What `npm start` promises: the default job against the default emulator world fills every
 * dataset of the registry, and DuckDB reads each column with the type its Arrow schema declares.
 */
describe("the whole catalogue against the emulator's default world", () => {
  let emu: RunningEmulator
  let out: string
  let report: RunReport
  /** The run's catalog, opened once for every query below (nothing writes it after the run). */
  let catalog: Awaited<ReturnType<typeof openCatalog>>

  beforeAll(async () => {
    emu = await startEmulator()
    out = await tempOut()
    const job = Either.getOrThrow(await loadJobFile(EMULATOR_JOB))
    // every record also meets Effect's own parser: the compiled decoders must answer the same
    resetDecodeAudit(true)
    try {
      report = await Effect.runPromise(runSpine(out, emu, { job: { ...job, legacy: { ...job.legacy, enabled: true } }, partRows: 25_000 }))
    } finally {
      decodeAudit.enabled = false
    }
    catalog = await openCatalog(path.join(out, "catalog.duckdb"))
  }, 600_000)
  afterAll(async () => {
    catalog?.close()
    await emu.close()
  })

  it("given every dataset's records and damaged copies of them, when the compiled decoders and Effect's parser both decode them, then they agree on every one", () => {
    // ~30 schemas met (each dataset's record decoders), many thousands of inputs
    expect(decodeAudit.schemas.size).toBeGreaterThanOrEqual(20)
    expect(decodeAudit.compared).toBeGreaterThan(10_000)
    expect(decodeAudit.mismatches.slice(0, 3)).toEqual([])
  })

  it("given the default job with legacy datasets enabled, when it runs, then every slice succeeds", () => {
    expect(report.slices.filter((s) => s.status === "failed")).toEqual([])
    expect(report.status).toBe("succeeded")
  })

  it("given the run, when each view of the catalog is counted, then every dataset but _rejects holds rows", async () => {
    const empty: string[] = []
    for (const d of catalogEntries()) {
      if (d.name === "_rejects") continue
      const [row] = await catalog.query(`SELECT count(*)::INTEGER AS n FROM "${d.name}"`)
      if (row?.["n"] === 0) empty.push(d.name)
    }
    expect(empty).toEqual([])
  })

  it("given the run, when DuckDB describes each view, then every schema column has its declared type", async () => {
    const wrong: string[] = []
    for (const d of catalogEntries()) {
      const described = new Map((await catalog.query(`DESCRIBE "${d.name}"`)).map((r) => [String(r["column_name"]), String(r["column_type"])]))
      for (const f of d.schema.fields) {
        // DESCRIBE quotes only keyword field names inside structs; the type's own spelling quotes all
        const unquoted = (t: string | undefined) => t?.replaceAll('"', "")
        const want = sqlTypeOf(f.type, `${d.name}.${f.name}`)
        if (unquoted(described.get(f.name)) !== unquoted(want)) wrong.push(`${d.name}.${f.name}: ${described.get(f.name)} ≠ ${want}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it("given one run (nothing fetched twice), when each _latest view is counted, then it holds every row of its raw view: its entity key names one row", async () => {
    const collapsed: string[] = []
    const withLatest = catalogEntries().filter((d) => d.latest !== undefined)
    expect(withLatest.length).toBeGreaterThan(30)
    for (const d of withLatest) {
      const [row] = await catalog.query(`SELECT (SELECT count(*) FROM "${d.name}")::INTEGER AS raw, (SELECT count(*) FROM "${d.name}_latest")::INTEGER AS latest`)
      if (row?.["raw"] !== row?.["latest"]) collapsed.push(`${d.name}: ${row?.["raw"]} rows, ${row?.["latest"]} latest`)
    }
    expect(collapsed).toEqual([])
  })
})
