/**
 * An output's state lives in one place for its whole life. Parts on disk without their checkpoint
 * are taken to be absent (a slice without a checkpoint has no parts, Crawler.ts), so reading a
 * folder's state from the other store would fetch its slices again beside their parts and double
 * their rows. Before any command uses a store, this refuses the mismatch, naming the setting:
 *  - CHAINETL_STATE_URL set on a folder with checkpoint files under `<out>/_state/checkpoints`;
 *  - CHAINETL_STATE_URL unset on a folder whose state is in PostgreSQL (it has an output id).
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { ConfigError } from "../Errors.ts"
import { checkpointsRoot } from "../crawl/Checkpoint.ts"
import { OUTPUT_ID_FILE } from "./OutputId.ts"
import { STATE_URL_ENV } from "./StateConfig.ts"

const exists = (p: string) => fs.stat(p).then(() => true, () => false)

export const checkStateHome = (out: string, inPostgres: boolean): Effect.Effect<void, ConfigError> =>
  Effect.flatMap(
    Effect.promise(async () =>
      inPostgres
        ? (await fs.readdir(checkpointsRoot(out)).catch(() => [] as string[])).length > 0
        : await exists(path.join(out, OUTPUT_ID_FILE))
    ),
    (mismatch) =>
      !mismatch
        ? Effect.void
        : Effect.fail(
            inPostgres
              ? new ConfigError({
                  reason: "Invalid",
                  field: STATE_URL_ENV,
                  detail: `${out} keeps its checkpoints in files (${checkpointsRoot(out)}); read from PostgreSQL they would be missing and its slices fetched again beside their parts`,
                  fix: `unset ${STATE_URL_ENV} for this folder, or use a new output folder with it`
                })
              : new ConfigError({
                  reason: "Missing",
                  field: STATE_URL_ENV,
                  detail: `${out} keeps its checkpoints in PostgreSQL (it has ${OUTPUT_ID_FILE}); without the database they would be missing and its slices fetched again beside their parts`,
                  fix: `export ${STATE_URL_ENV}=postgres://… (the database its runs used)`
                })
          )
  )
