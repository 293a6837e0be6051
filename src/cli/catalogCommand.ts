/**
 * `chainetl catalog`: rebuild the DuckDB catalog from the parts on disk (e.g. after moving
 * output/); with `--ddl spark|trino|athena`, print external-table DDL for the same folders instead.
 */
import { Effect } from "effect"
import { pathToFileURL } from "node:url"
import { catalogEntries } from "../catalogEntries.ts"
import { SinkError } from "../Errors.ts"
import { buildCatalog, layoutOnDisk } from "../sink/Catalog.ts"
import { type Engine, ddlScript } from "../sink/ExternalDdl.ts"
import { checkOutHoldsOutput } from "./outPath.ts"
import { resolveOut } from "./output.ts"

export interface CatalogArgs {
  readonly out: string | undefined
  readonly ddl?: Engine
  readonly location?: string
  readonly database: string
}

export const catalogCommand = (args: CatalogArgs) =>
  Effect.gen(function* () {
    const out = resolveOut(args.out)
    // a typo would otherwise get an empty catalog of its own, silently
    yield* checkOutHoldsOutput(out, args.out === undefined ? "CHAINETL_OUT" : "--out")
    if (args.ddl !== undefined) {
      const engine = args.ddl
      const datasets = yield* Effect.tryPromise({
        try: () => Promise.all(catalogEntries().map((d) => layoutOnDisk(out, d))),
        catch: (e) => new SinkError({ reason: "Io", path: out, detail: e instanceof Error ? e.message : String(e) })
      })
      const location = args.location ?? pathToFileURL(out).href
      process.stdout.write(ddlScript(engine, datasets, { location, database: args.database }))
      return
    }
    const built = yield* buildCatalog(out, catalogEntries())
    console.log(`catalog: ${built.databasePath}`)
    console.log(`sql:     ${built.sqlPath}`)
    if (built.empty.length > 0) console.log(`empty views (no parts yet): ${built.empty.join(", ")}`)
  })
