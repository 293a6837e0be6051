/**
 * `chainetl backfill … --refetch`: the windows of [from, to) are crawled again whole. Their parts
 * (the dataset's, its child tables' and its rejects) and then their checkpoints are removed under
 * the writer lock, so the backfill that follows plans them as new windows of the same bounds and
 * lists them from the first page: what `verify` asks for when a window's rows are wrong rather than
 * missing (a key twice, a chain that does not link, fewer or more rows than its checkpoint
 * committed). Parts first, checkpoint second: a kill between the two leaves a window whose
 * checkpoint names parts that are gone, which verify finds again and the same command mends.
 *
 * Local folders with checkpoints on disk only, and only windows no compacted file holds a part of
 * (compaction merged them with other slices' rows, which a refetch cannot take apart).
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { CheckpointStore, checkpointsRoot } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { windowOf } from "../crawl/Windows.ts"
import { holdsPartOf, readManifest } from "../compact/Manifest.ts"
import { ConfigError } from "../Errors.ts"
import { newRunId } from "../Runner.ts"
import { acquireOutputLock } from "../sink/OutputLock.ts"
import { isoSeconds } from "../Time.ts"
import { tableFiles } from "./Files.ts"

const REJECTS = "_rejects"

/** Removes the windows inside [from, to) of each dataset, for the backfill after it to crawl whole; returns their slice ids. */
export const refetchWindows = (out: string, datasets: ReadonlyArray<AnyDataset>, range: { readonly from: number; readonly to: number }) =>
  Effect.scoped(
    Effect.gen(function* () {
      if (process.env["CHAINETL_STATE_URL"] !== undefined && process.env["CHAINETL_STATE_URL"] !== "") {
        return yield* Effect.fail(
          new ConfigError({ reason: "Invalid", field: "--refetch", detail: "the checkpoints are in PostgreSQL (CHAINETL_STATE_URL), which --refetch does not clear yet", fix: "run it without CHAINETL_STATE_URL on the machine that holds the output folder" })
        )
      }
      for (const d of datasets) {
        if (d.windows === undefined) {
          return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch", detail: `${d.name} is not crawled in time windows`, fix: "pass --refetch with windowed datasets only (primary_blocks, staking_transactions)" }))
        }
      }
      yield* acquireOutputLock(out, newRunId(new Date()))
      const cleared: string[] = []
      for (const d of datasets) {
        const states = yield* Effect.orDie((yield* CheckpointStore).list(d.name))
        const inside = states.filter((s) => {
          const w = windowOf(s.params)
          return w !== undefined && w.from < range.to && w.to > range.from
        })
        for (const s of inside) {
          const w = windowOf(s.params)!
          if (w.from < range.from || w.to > range.to) {
            return yield* Effect.fail(
              new ConfigError({
                reason: "Invalid",
                field: "--from",
                detail: `${d.name}'s window [${isoSeconds(w.from)}, ${isoSeconds(w.to)}) reaches outside [${isoSeconds(range.from)}, ${isoSeconds(range.to)})`,
                fix: "pass a range made of whole windows (chainetl verify prints it)"
              })
            )
          }
        }
        const tables = [d.name, ...(d.children ?? []).map((c) => c.name), REJECTS]
        for (const s of inside) {
          for (const t of tables) {
            const holder = holdsPartOf(yield* Effect.promise(() => readManifest(out, t)), s.slice, () => true)
            if (holder !== undefined) {
              return yield* Effect.fail(
                new ConfigError({ reason: "Invalid", field: "--refetch", detail: `a part of ${d.name} slice ${s.slice} is merged into ${t}/${holder} with other slices' rows`, fix: "re-crawl this dataset into a fresh --out, or restore the output from a backup" })
              )
            }
          }
        }
        for (const s of inside) {
          yield* Effect.promise(async () => {
            for (const t of tables) {
              const files = await tableFiles(out, t, t === REJECTS ? undefined : d.name)
              for (const p of files.parts) if (p.slice === s.slice && p.owner === d.name) await fs.rm(p.abs, { force: true })
            }
            const file = path.join(checkpointsRoot(out), d.name, `${s.slice}.json`)
            await fs.rm(file, { force: true })
            await fs.rm(`${file.slice(0, -".json".length)}.refetch`, { force: true })
          })
          cleared.push(s.slice)
        }
      }
      return cleared
    })
  ).pipe(Effect.provide(CheckpointStore.layer(out)))
