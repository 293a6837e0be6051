/** `chainetl catalog`: rebuild the DuckDB catalog from the parts on disk (e.g. after moving output/). */
import { Effect } from "effect"
import { catalogEntries } from "../catalogEntries.ts"
import { buildCatalog } from "../sink/Catalog.ts"
import { checkOutHoldsOutput } from "./outPath.ts"
import { resolveOut } from "./output.ts"

export const catalogCommand = (outFlag: string | undefined) =>
  Effect.gen(function* () {
    const out = resolveOut(outFlag)
    // a typo would otherwise get an empty catalog of its own, silently
    yield* checkOutHoldsOutput(out, outFlag === undefined ? "CHAINETL_OUT" : "--out")
    const built = yield* buildCatalog(out, catalogEntries())
    console.log(`catalog: ${built.databasePath}`)
    console.log(`sql:     ${built.sqlPath}`)
    if (built.empty.length > 0) console.log(`empty views (no parts yet): ${built.empty.join(", ")}`)
  })
