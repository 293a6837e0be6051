/**
 * Committing a part (the Committing state's effect, Crawler.ts): data first, checkpoint second.
 * The buffered pages' rows are staged in the sink already; this writes each table's part (fsync,
 * rename), then saves the checkpoint that moves past those pages (`advance`, pure). A failure
 * half-way takes back the files it placed, unless the checkpoint did reach the disk.
 */
import { Clock, Effect } from "effect"
import type { CheckpointError, SinkError } from "../Errors.ts"
import type { WritePartInput, WrittenPart } from "../sink/ParquetSink.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import type { CheckpointState } from "./Checkpoint.ts"
import { addHoles } from "./Holes.ts"
import { emit } from "./Progress.ts"
import type { BufferedPage, SliceCrawl } from "./SliceCrawl.ts"

/** Where the listing goes after the committed pages: on from the last page's token, or from the top. */
export type Then = "continue" | "restart"

/** What a part holds: staged rows per table (in `stagedTables` order) and the rejects. */
const contents = (pages: ReadonlyArray<BufferedPage>, tables: number) => ({
  staged: Array.from({ length: tables }, (_, t) => pages.reduce((n, p) => n + p.staged[t]!, 0)),
  rejects: pages.flatMap((p) => p.rejects)
})

/**
 * Each child table's rows committed once a part adds `part`'s: counted from a slice's first part
 * on (a checkpoint older than the field, or a replacing listing's, whose older versions' child
 * rows are removed, counts none).
 */
const childRowsAfter = (before: CheckpointState, part: Readonly<Record<string, number>> | undefined, rerun: SliceCrawl<unknown>["rerun"]) => {
  if (part === undefined || Object.keys(part).length === 0 || rerun === "replace") return {}
  if (before.lastSeq !== -1 && before.childRows === undefined) return {}
  const sum: Record<string, number> = { ...before.childRows }
  for (const [name, n] of Object.entries(part)) sum[name] = (sum[name] ?? 0) + n
  return { childRows: sum }
}

/** The checkpoint once `pages` are committed as part `seq` (pure: the step saves it after the data). `children`: the part's rows per child table. */
export const advance = (
  before: CheckpointState,
  pages: ReadonlyArray<BufferedPage>,
  rows: number,
  rejects: number,
  then: Then,
  rerun: SliceCrawl<unknown>["rerun"],
  asOf: number,
  children?: Readonly<Record<string, number>>
): CheckpointState => {
  const seq = before.lastSeq + 1
  const last = pages[pages.length - 1]
  const next = then === "restart" ? undefined : last?.next
  const done = then === "continue" && last?.next === undefined
  return {
    ...before,
    cursor: next ?? null,
    cursorIssuedAt: next === undefined || last === undefined ? null : last.receivedAt,
    pagesCommitted: before.pagesCommitted + pages.length,
    rowsCommitted: before.rowsCommitted + rows,
    rejectsCommitted: before.rejectsCommitted + rejects,
    ...addHoles(
      before,
      pages.reduce((n, p) => n + p.holes, 0),
      pages.flatMap((p) => p.holeKeys),
      done
    ),
    lastSeq: seq,
    // a finished replacing listing supersedes every part before this one
    keepFromSeq: done && rerun === "replace" ? seq : before.keepFromSeq,
    // a replacing listing commits its version in this one part: what is on disk from keepFromSeq on
    ...(done && rerun === "replace" ? { kept: { rows, rejects } } : {}),
    ...childRowsAfter(before, children, rerun),
    completedAsOf: done ? asOf : before.completedAsOf ?? null,
    ...(last?.reach === undefined ? {} : { reach: last.reach }),
    status: done ? "done" : "running"
  }
}

/** What a commit came to: the checkpoint saved after the part, or the failure and where the checkpoint stands. */
export type CommitOutcome =
  | { readonly _tag: "Committed"; readonly next: CheckpointState; readonly parts: number }
  | {
      readonly _tag: "NotCommitted"
      readonly error: SinkError | CheckpointError
      /** The checkpoint on disk after the failure: `next` when it got there (a failure after its rename), else the one before. */
      readonly reached: CheckpointState
    }

/**
 * Writes `pages` as the part after `before` and saves the checkpoint past them (Committing's
 * effect, Crawler.ts). A failure half-way takes back the files it placed, unless the checkpoint
 * did reach the disk: then they stay, and the outcome says the checkpoint moved.
 */
export const commitPart = <R>(crawl: SliceCrawl<R>, before: CheckpointState, pages: ReadonlyArray<BufferedPage>, then: Then): Effect.Effect<CommitOutcome> =>
  Effect.suspend(() => {
    const { sink, store, slice, stagedTables } = crawl
    const { staged, rejects } = contents(pages, stagedTables.length)
    const rows = staged[0]!
    const children = Object.fromEntries(stagedTables.slice(1).map((t, i) => [t.dataset, staged[i + 1]!]))
    const next = advance(before, pages, rows, rejects.length, then, crawl.rerun, crawl.options.asOf, children)
    const seq = next.lastSeq
    const written: WrittenPart[] = []
    const write = (input: WritePartInput) => sink.writePart(input).pipe(Effect.tap((w) => Effect.sync(() => void written.push(...w))))
    return Effect.gen(function* () {
      // the tables' rows are staged already (FetchPage.ts): writePart writes them
      const own = rows === 0 ? [] : yield* write({ ...stagedTables[0]!, slice: slice.id, seq, rows: [] })
      for (let t = 1; t < stagedTables.length; t++) {
        if (staged[t]! > 0) yield* write({ ...stagedTables[t]!, slice: slice.id, seq, rows: [] })
      }
      if (rejects.length > 0) {
        yield* write({ dataset: rejectsDataset.name, slice: slice.id, seq, schema: rejectsDataset.schema, rows: rejects, partitionBy: rejectsDataset.partitionBy })
      }
      // data is durable: only now may the checkpoint move past these pages
      yield* store.save(next)
      return { _tag: "Committed", next, parts: own.length } satisfies CommitOutcome
    }).pipe(
      Effect.catchAll((error) =>
        // the commit failed after some of its files were in place (another table's part, or the
        // checkpoint hit a full disk): take them back so no row past the checkpoint shows. Unless
        // the checkpoint did reach the disk (a failure after its rename): then the files stay
        store.load(slice).pipe(
          Effect.map((onDisk) => onDisk !== undefined && onDisk.lastSeq >= seq),
          Effect.orElseSucceed(() => false),
          Effect.flatMap((advanced) =>
            advanced
              ? Effect.succeed<CommitOutcome>({ _tag: "NotCommitted", error, reached: next })
              : sink.takeBack(written).pipe(
                  Effect.as<CommitOutcome>({ _tag: "NotCommitted", error, reached: before }),
                  Effect.catchAll((lost) => Effect.succeed<CommitOutcome>({ _tag: "NotCommitted", error: lost, reached: before }))
                )
          )
        )
      )
    )
  })

/**
 * What follows a commit once its checkpoint is saved: a finished replacing listing's older parts
 * go (the checkpoint already says they are superseded, so a crash here leaves them to recovery),
 * and the part is reported.
 */
export const afterCommit = <R>(crawl: SliceCrawl<R>, next: CheckpointState, pages: ReadonlyArray<BufferedPage>): Effect.Effect<void, SinkError> =>
  Effect.gen(function* () {
    const { sink, slice } = crawl
    const seq = next.lastSeq
    if (next.keepFromSeq === seq) {
      for (const name of crawl.tables) yield* sink.removePartsBefore(name, slice.id, seq)
    }
    const { staged, rejects } = contents(pages, crawl.stagedTables.length)
    const rows = staged[0]!
    if (rows + rejects.length > 0) {
      yield* emit({ type: "part_committed", at: yield* Clock.currentTimeMillis, dataset: crawl.dataset.name, slice: slice.id, seq, rows, rejects: rejects.length, pages: pages.length })
    }
    yield* Effect.logDebug(`${crawl.dataset.name} ${slice.id}: part ${seq} committed (${rows} rows, ${rejects.length} rejects)`)
  })
