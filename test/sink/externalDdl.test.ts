/**
 * `chainetl catalog --ddl`: the external-table DDL of every dataset parses in its engine's own
 * grammar (dt-sql-parser's ANTLR grammars of Spark SQL, Trino and Hive, Athena's DDL dialect), and
 * every column of every Arrow schema is declared once, with the type its Arrow type asks for.
 */
import * as arrow from "apache-arrow"
import { HiveSQL, SparkSQL, TrinoSQL } from "dt-sql-parser"
import { describe, expect, it } from "vitest"
import { catalogEntries } from "../../src/catalogEntries.ts"
import type { CatalogDataset } from "../../src/sink/Catalog.ts"
import { datasetDdl, ddlScript, ENGINES, type Engine } from "../../src/sink/ExternalDdl.ts"

const parsers = { spark: new SparkSQL(), trino: new TrinoSQL(), athena: new HiveSQL() }
const options = { location: "s3://bucket/chainetl", database: "chainetl" }
// every grain a dataset can be written at
const tables: ReadonlyArray<CatalogDataset> = catalogEntries().flatMap((d) => (d.byGrain === undefined ? [d] : [d.byGrain.day, d.byGrain.month]))

/** `name type [COMMENT '…']` lines of a CREATE statement's column lists, as name → type. */
const declared = (statement: string): Map<string, string> => {
  const out = new Map<string, string>()
  for (const line of statement.split("\n")) {
    const m = /^ {2}[`"]([a-z0-9_]+)[`"] (.+?)(?: COMMENT '(?:[^'\\]|\\.|'')*')?,?$/.exec(line)
    if (m !== null) {
      expect(out.has(m[1]!), `${m[1]} declared twice`).toBe(false)
      out.set(m[1]!, m[2]!)
    }
  }
  return out
}

/** What an Arrow type must look like in each engine, checked by shape (not by the mapper's own code). */
const shape = (engine: Engine, type: arrow.DataType, got: string): boolean => {
  const g = got.toLowerCase()
  if (arrow.DataType.isDecimal(type)) return g === "decimal(38,0)"
  if (arrow.DataType.isTimestamp(type)) return g === "timestamp"
  if (arrow.DataType.isDate(type)) return g === "date"
  if (arrow.DataType.isList(type)) return engine === "trino" ? g.startsWith("array(") : g.startsWith("array<")
  if (arrow.DataType.isStruct(type)) return engine === "trino" ? g.startsWith("row(") : g.startsWith("struct<")
  if (arrow.DataType.isUtf8(type)) return g === (engine === "trino" ? "varchar" : "string")
  if (arrow.DataType.isInt(type)) return g === ((type as arrow.Int).bitWidth === 64 ? "bigint" : engine === "trino" ? "integer" : "int")
  if (arrow.DataType.isFloat(type)) return g === "double"
  if (arrow.DataType.isBool(type)) return g === "boolean"
  if (arrow.DataType.isBinary(type)) return g === (engine === "trino" ? "varbinary" : "binary")
  return false
}

describe("external-table DDL", () => {
  for (const engine of ENGINES) {
    it(`given every dataset at every grain, when the ${engine} DDL is generated, then its engine's grammar parses it without an error`, () => {
      const script = ddlScript(engine, tables, options)
      expect(parsers[engine].validate(script)).toEqual([])
      // the grammar does reject: a statement cut short is an error
      expect(parsers[engine].validate(script.replace(/\)\s*(USING|STORED|COMMENT|WITH)/, " $1")).length).toBeGreaterThan(0)
    })

    it(`given every dataset, when the ${engine} DDL is read back, then each schema column and Hive key is declared once with its Arrow type's shape`, () => {
      const wrong: string[] = []
      for (const t of tables) {
        const [create] = datasetDdl(engine, t, options)
        const columns = declared(create!)
        const keys = new Set(t.partitionKeys.map((k) => k.key))
        for (const f of t.schema.fields) {
          if (keys.has(f.name)) continue
          const got = columns.get(f.name)
          if (got === undefined || !shape(engine, f.type, got)) wrong.push(`${t.name}.${f.name}: ${String(f.type)} → ${got}`)
        }
        for (const k of t.partitionKeys) {
          const got = columns.get(k.key)?.toLowerCase()
          const want = k.type === "DATE" ? "date" : engine === "trino" ? "varchar" : "string"
          if (got !== want) wrong.push(`${t.name} key ${k.key}: ${got} ≠ ${want}`)
        }
        expect(columns.size, t.name).toBe(t.schema.fields.filter((f) => !keys.has(f.name)).length + keys.size)
        const location = `${options.location}/${t.name}`
        expect(create).toContain(engine === "athena" ? `LOCATION '${location}/'` : location)
      }
      expect(wrong).toEqual([])
    })
  }

  it("given delegators, when the DDL is generated, then the Hive keys are its partition columns in path order, last for Trino", () => {
    const delegators = tables.find((t) => t.name === "delegators")!
    const [spark] = datasetDdl("spark", delegators, options)
    expect(spark).toContain("PARTITIONED BY (`network`, `snapshot_date`)")
    const [athena] = datasetDdl("athena", delegators, options)
    expect(athena).toMatch(/PARTITIONED BY \(\n {2}`network` string COMMENT '[^']*',\n {2}`snapshot_date` date COMMENT '[^']*'\n\)/)
    const [trino, sync] = datasetDdl("trino", delegators, options)
    expect([...declared(trino!).keys()].slice(-2)).toEqual(["network", "snapshot_date"])
    expect(trino).toContain("partitioned_by = ARRAY['network', 'snapshot_date']")
    expect(sync).toBe(`CALL "hive".system.sync_partition_metadata('chainetl', 'delegators', 'ADD');`)
  })
})
