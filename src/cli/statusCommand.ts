/** `chainetl status`: every slice's checkpoint, one line each. */
import { Effect } from "effect"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { resolveOut } from "./output.ts"
import { table } from "./table.ts"

/** Address lists make slice params long: a table shows their start (the checkpoint file has all). */
const shorten = (text: string, max = 48): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

export const statusCommand = (outFlag: string | undefined) =>
  Effect.gen(function* () {
    const out = resolveOut(outFlag)
    const store = yield* CheckpointStore
    const states = [...(yield* store.list())].sort((a, b) => `${a.dataset}/${a.slice}`.localeCompare(`${b.dataset}/${b.slice}`))
    if (states.length === 0) {
      console.log(`no checkpoints under ${out}/_state: nothing has run here yet`)
      return
    }
    console.log(
      table(
        ["dataset", "slice", "state", "pages", "rows", "rejects", "restarts", "last run", "updated", "error"],
        states.map((s) => [
          s.dataset,
          shorten(Object.values(s.params).join("/")),
          s.status,
          s.pagesCommitted,
          s.rowsCommitted,
          s.rejectsCommitted,
          s.restarts,
          s.runId,
          s.updatedAt.slice(0, 19) + "Z",
          s.error ?? ""
        ])
      )
    )
  }).pipe(Effect.provide(CheckpointStore.layer(resolveOut(outFlag))))
