/** Where output goes: --out, else $CHAINETL_OUT, else ./output. */
import { Effect } from "effect"
import * as path from "node:path"
import { ConfigError } from "../Errors.ts"

export const resolveOut = (flag: string | undefined): string => path.resolve(flag ?? process.env["CHAINETL_OUT"] ?? "output")

/**
 * `query` and `report` read a local catalog; on an s3:// output they would look for one in a folder
 * named `s3:`. The fix is the mirror (`catalog --mirror DIR`), which they can then read.
 */
export const refuseBucket = (flag: string | undefined, command: string): Effect.Effect<void, ConfigError> => {
  const raw = flag ?? process.env["CHAINETL_OUT"] ?? ""
  return /^s3:\/\//i.test(raw)
    ? Effect.fail(
        new ConfigError({
          reason: "Invalid",
          field: flag === undefined ? "CHAINETL_OUT" : "--out",
          detail: `${command} reads a local catalog, not a bucket (${raw})`,
          fix: `run chainetl catalog --out ${raw} --mirror DIR, then chainetl ${command} --out DIR`
        })
      )
    : Effect.void
}
