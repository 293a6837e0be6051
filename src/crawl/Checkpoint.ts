/**
 * Checkpoints: one JSON file per slice under <out>/_state/checkpoints/<dataset>/<slice>.json,
 * replaced atomically (write tmp, fsync, rename, fsync dir) so a kill -9 leaves either the old or
 * the new state, never a torn one. One file per slice keeps concurrent slices from contending on
 * a shared database and lets people (and DuckDB's read_json) inspect state with no tooling.
 */
import { Context, Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { CheckpointError } from "../Errors.ts"
import type { Slice } from "./Slice.ts"

export type SliceStatus = "running" | "done" | "failed"

export interface CheckpointState {
  readonly dataset: string
  readonly slice: string
  readonly params: Readonly<Record<string, string>>
  /** Page token (or other cursor) of the first page not yet committed; null = listing start. */
  readonly cursor: string | null
  /** When that cursor was issued by the service (ms since epoch); tokens age out. */
  readonly cursorIssuedAt: number | null
  readonly pagesCommitted: number
  readonly rowsCommitted: number
  readonly rejectsCommitted: number
  /** Sequence number of the last part written for this slice; -1 before the first. */
  readonly lastSeq: number
  /** Parts with a lower seq were superseded by a replacing listing; recovery deletes them. */
  readonly keepFromSeq: number | null
  readonly status: SliceStatus
  /**
   * The slice's finalAfter (Slice.ts) as last planned; null when it has none. Lets compaction tell
   * a final slice from one a later run reopens without planning (absent in older checkpoints).
   */
  readonly finalAfter?: number | null
  /** How far the listing has scanned (its last committed page's Page.reach), where it says; absent otherwise. */
  readonly reach?: string | null
  /** As-of (Unix seconds, service time) of the run that last completed the slice. */
  readonly completedAsOf: number | null
  /** How many times the listing restarted from the first page (expired tokens). */
  readonly restarts: number
  readonly runId: string
  readonly updatedAt: string
  readonly error: string | null
}

/** Completed by a run whose as-of was at or past `instant` (a slice's finalAfter). */
export const completedBy = (state: CheckpointState, instant: number): boolean =>
  (state.completedAsOf ?? Number.NEGATIVE_INFINITY) >= instant

/**
 * A slice the crawler will skip: finished, and either never rerun, or rerunning but completed at
 * or past its finalAfter (a settled month). One rule for the crawler and `run --dry-run`.
 */
export const isFinal = (state: CheckpointState | undefined, slice: Slice, rerun: "never" | "always" | "replace" = "never"): boolean =>
  state?.status === "done" && (rerun === "never" || (slice.finalAfter !== undefined && completedBy(state, slice.finalAfter)))

export const initialState = (slice: Slice, runId: string): CheckpointState => ({
  dataset: slice.dataset,
  slice: slice.id,
  params: slice.params,
  cursor: null,
  cursorIssuedAt: null,
  pagesCommitted: 0,
  rowsCommitted: 0,
  rejectsCommitted: 0,
  lastSeq: -1,
  keepFromSeq: null,
  finalAfter: slice.finalAfter ?? null,
  status: "running",
  completedAsOf: null,
  restarts: 0,
  runId,
  updatedAt: new Date().toISOString(),
  error: null
})

export class CheckpointStore extends Context.Tag("chainetl/CheckpointStore")<
  CheckpointStore,
  {
    readonly load: (slice: Slice) => Effect.Effect<CheckpointState | undefined, CheckpointError>
    readonly save: (state: CheckpointState) => Effect.Effect<void, CheckpointError>
    /** Every slice's state, or one dataset's. */
    readonly list: (dataset?: string) => Effect.Effect<ReadonlyArray<CheckpointState>, CheckpointError>
  }
>() {
  /** File-backed store under `<outDir>/_state/checkpoints`. */
  static readonly layer = (outDir: string) => Layer.succeed(CheckpointStore, makeFileStore(outDir))
}

const fileOf = (root: string, dataset: string, slice: string) => path.join(root, dataset, `${slice}.json`)

const fsyncDir = async (dir: string) => {
  const handle = await fs.open(dir, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Write-then-rename with fsync of both the file and its directory. */
export const writeFileAtomic = async (file: string, content: string): Promise<void> => {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true })
  const tmp = `${file}.tmp-${process.pid}`
  const handle = await fs.open(tmp, "w")
  try {
    await handle.writeFile(content)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await fs.rename(tmp, file)
  await fsyncDir(dir)
}

const makeFileStore = (outDir: string): CheckpointStore["Type"] => {
  const root = path.join(outDir, "_state", "checkpoints")
  const parse = (slice: string, text: string): Effect.Effect<CheckpointState, CheckpointError> =>
    Effect.try({
      try: () => JSON.parse(text) as CheckpointState,
      catch: (e) => new CheckpointError({ reason: "Corrupt", slice, detail: String(e) })
    })
  return {
    load: (slice) =>
      Effect.tryPromise({
        try: () => fs.readFile(fileOf(root, slice.dataset, slice.id), "utf8").catch((e: NodeJS.ErrnoException) => {
          if (e.code === "ENOENT") return undefined
          throw e
        }),
        catch: (e) => new CheckpointError({ reason: "Io", slice: slice.id, detail: String(e) })
      }).pipe(Effect.flatMap((text) => (text === undefined ? Effect.succeed(undefined) : parse(slice.id, text)))),
    save: (state) =>
      Effect.tryPromise({
        try: () =>
          writeFileAtomic(
            fileOf(root, state.dataset, state.slice),
            JSON.stringify({ ...state, updatedAt: new Date().toISOString() }, null, 2)
          ),
        catch: (e) => new CheckpointError({ reason: "Io", slice: state.slice, detail: String(e) })
      }),
    list: (only) =>
      Effect.tryPromise({
        try: async () => {
          const datasets = only === undefined ? await fs.readdir(root).catch(() => [] as string[]) : [only]
          const files: string[] = []
          for (const d of datasets) {
            for (const f of await fs.readdir(path.join(root, d)).catch(() => [] as string[])) {
              if (f.endsWith(".json")) files.push(path.join(root, d, f))
            }
          }
          return Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(f, "utf8")) as CheckpointState))
        },
        catch: (e) => new CheckpointError({ reason: "Io", slice: "*", detail: String(e) })
      })
  }
}
