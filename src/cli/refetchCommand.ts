/**
 * `backfill --refetch`: the range's windows (or heights) removed before the backfill plans them
 * (src/verify/Refetch.ts, RefetchHeights.ts), under the writer lock the backfill takes, wherever the
 * output's state is: the lock and checkpoints in the folder, or in PostgreSQL (CHAINETL_STATE_URL).
 * An s3:// output is cleared through its working copy: the copy is pulled under the lock, the
 * files are deleted there and at their keys, then the checkpoints (in PostgreSQL, as a bucket
 * output requires). The lock is let go before the backfill takes it again, as two commands would.
 */
import { Effect } from "effect"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { ConfigError } from "../Errors.ts"
import { newRunId } from "../Runner.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { OutputStore } from "../store/OutputStore.ts"
import { inOutputFolder } from "./outputFolder.ts"
import type { RunArgs } from "./runCommand.ts"

type Range = NonNullable<RunArgs["backfill"]>

/** Under the writer lock of `out`: the copy made equal to its bucket first, then the range removed. */
const refetchIn = (out: string, chosen: ReadonlyArray<AnyDataset>, range: Range) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* (yield* WriterLock).acquire(out, newRunId(new Date()))
      yield* (yield* OutputStore).pull
      if (range.unit === "height") {
        const { refetchHeights } = yield* Effect.promise(() => import("../verify/RefetchHeights.ts"))
        return yield* refetchHeights(out, chosen, { from: BigInt(range.from), to: BigInt(range.to) })
      }
      const { refetchWindows } = yield* Effect.promise(() => import("../verify/Refetch.ts"))
      return yield* refetchWindows(out, chosen, range)
    })
  )

export const refetchFirst = (args: Pick<RunArgs, "datasets" | "out" | "backfill" | "dryRun">) =>
  Effect.gen(function* () {
    const range = args.backfill
    if (range === undefined) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch", detail: "it takes a range", fix: "pass --from and --to" }))
    if (args.dryRun === true) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch", detail: "--refetch removes the windows' parts, which --dry-run must not", fix: "drop one of them" }))
    const { datasets } = yield* Effect.promise(() => import("../../pipelines/index.ts"))
    const chosen = datasets.filter((d) => args.datasets.includes(d.name))
    return yield* inOutputFolder(args.out, (out) => refetchIn(out, chosen, range))
  })
