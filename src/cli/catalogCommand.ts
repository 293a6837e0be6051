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
import { ConfigError } from "../Errors.ts"
import { writeBucketCatalog } from "../store/Sync.ts"
import { bucketOut, openBucket } from "./bucketOutput.ts"
import { checkOutHoldsOutput } from "./outPath.ts"
import { resolveOut } from "./output.ts"

export interface CatalogArgs {
  readonly out: string | undefined
  readonly ddl?: Engine
  readonly location?: string
  readonly database: string
  /** With an s3:// `--out`: the folder the bucket's live files are downloaded to (default: the working copy). */
  readonly mirror?: string
}

/**
 * `--out s3://…`: the bucket's files are pulled into a local folder (the working copy, or
 * `--mirror DIR`), `catalog.duckdb` is built over those copies, and `catalog.s3.sql` beside it
 * holds the same views over the bucket's s3:// URLs for engines that can read them. Nothing is
 * written to the bucket (this command holds no writer lock; runs and `compact` upload the catalog).
 */
export const catalogCommand = (args: CatalogArgs) => {
  const bucket = bucketOut(args.out)
  if (bucket === undefined) {
    if (args.mirror !== undefined) {
      return Effect.fail(new ConfigError({ reason: "Invalid", field: "--mirror", detail: "mirrors a bucket: --out must be an s3:// URL", fix: "pass --out s3://bucket/prefix with --mirror, or drop --mirror" }))
    }
    return catalogOfFolder(args)
  }
  return Effect.scoped(
    Effect.gen(function* () {
      const dir = args.mirror === undefined ? undefined : { kind: "given" as const, path: args.mirror, label: "--mirror" }
      const opened = yield* openBucket(bucket, { needsState: false, ...(dir === undefined ? {} : { dir }) })
      yield* catalogOfFolder({ ...args, out: opened.dir, location: args.location ?? opened.target.url })
      if (args.ddl !== undefined) return
      const written = yield* Effect.promise(() => writeBucketCatalog(opened.dir, opened.target.url))
      if (written !== undefined) console.log(`bucket:  ${written} (views over ${opened.target.url})`)
    })
  )
}

const catalogOfFolder = (args: CatalogArgs) =>
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
