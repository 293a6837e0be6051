/**
 * `chainetl backfill … --refetch`: the windows of [from, to) are crawled again whole. Their parts
 * (the dataset's, its child tables' and its rejects), the compacted files holding any of them and
 * then their checkpoints are removed (Clear.ts: data, manifests, checkpoints), so the backfill that
 * follows plans them as new windows and lists them from the first page: what `verify` asks for when
 * a window's rows are wrong rather than missing (a key twice, a chain that does not link, fewer or
 * more rows than its checkpoint committed).
 *
 * The range must cut no window and no compacted file (RefetchScope.ts says why a compacted file is
 * taken whole); a narrower one is refused naming the range that takes them whole, the one verify
 * prints. The caller holds the writer lock and provides the state (folder or PostgreSQL) and where
 * the files end up (the folder, or the bucket the folder is a working copy of).
 */
import { Effect } from "effect"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { ConfigError } from "../Errors.ts"
import { isoSeconds } from "../Time.ts"
import { clearOutput } from "./Clear.ts"
import { compactedOf, refetchScope, windowsOf } from "./RefetchScope.ts"
import { instantText } from "./Windows.ts"

const span = (from: number, to: number) => `[${isoSeconds(from)}, ${isoSeconds(to)})`

/** Removes the windows inside [from, to) of each dataset, for the backfill after it to crawl whole; returns their slice ids. */
export const refetchWindows = (out: string, datasets: ReadonlyArray<AnyDataset>, range: { readonly from: number; readonly to: number }) =>
  Effect.gen(function* () {
    for (const d of datasets) {
      if (d.windows === undefined) {
        return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch", detail: `${d.name} is not crawled in time windows`, fix: "pass --refetch with windowed datasets only (primary_blocks, staking_transactions)" }))
      }
    }
    const plans = []
    // every dataset is judged before anything is removed: a refusal leaves the output as it was
    for (const d of datasets) {
      const windows = windowsOf(yield* (yield* CheckpointStore).list(d.name))
      const facts = yield* Effect.promise(() => compactedOf(out, d))
      const scope = refetchScope(range, windows, facts.compacted)
      if (scope.from !== range.from || scope.to !== range.to) {
        const cut = scope.files.length > 0 ? `compacted file(s) ${scope.files.map((f) => `${f.table}/${f.file}`).join(", ")} hold(s) rows of windows of` : "windows of"
        return yield* Effect.fail(
          new ConfigError({
            reason: "Invalid",
            field: "--from",
            detail: `${cut} ${d.name} reaching outside ${span(range.from, range.to)}: they are crawled again whole, over ${span(scope.from, scope.to)}`,
            fix: `pass --from ${instantText(scope.from)} --to ${instantText(scope.to)} (chainetl verify prints this range)`
          })
        )
      }
      plans.push({ d, scope, files: facts.files })
    }
    const cleared: string[] = []
    for (const { d, scope, files } of plans) {
      const slices = new Set(scope.windows.map((w) => w.slice))
      yield* clearOutput(out, {
        parts: files.flatMap((t) => t.parts.filter((p) => p.owner === d.name && slices.has(p.slice)).map((p) => p.abs)),
        compacted: scope.files.map((f) => ({ table: f.table, file: f.file })),
        checkpoints: scope.windows.map((w) => ({ dataset: d.name, slice: w.slice }))
      })
      cleared.push(...slices)
    }
    return cleared
  })
