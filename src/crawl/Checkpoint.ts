/**
 * Checkpoints: one JSON file per slice under <out>/_state/checkpoints/<dataset>/<slice>.json,
 * replaced atomically (replaceFile in files/Durable.ts: write tmp, fsync, rename, fsync dir) so a
 * kill -9 leaves either the old or the new state, never a torn one. One file per slice keeps
 * concurrent slices from contending on a shared database and lets people (and DuckDB's read_json)
 * inspect state with no tooling. A run's new slices start from one file instead, their
 * dataset's opening journal (OpeningJournal.ts), until each saves a state of its own.
 *
 * A checkpoint that cannot be read (garbled or truncated JSON, a field of the wrong type, another
 * slice's state, a cursor its listing cannot decode: Cursor.ts) is that slice's problem: loading it fails with CheckpointError "Corrupt" naming
 * the file and the fix, and the store leaves a marker `<slice>.refetch` beside it. The file is
 * never overwritten. When the user deletes it, the next run finds the marker without its
 * checkpoint and removes the slice's parts before anything is planned (`refetchDeleted` in
 * crawl/Refetch.ts), so the slice is fetched again from scratch and no row of the old parts
 * doubles a new one.
 */
import { Context, Effect, Layer } from "effect"
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { CheckpointError } from "../Errors.ts"
import { replaceFile } from "../files/Durable.ts"
import { isComplete, type PassHoles } from "./Holes.ts"
import { makeOpeningJournal } from "./OpeningJournal.ts"
import type { Slice } from "./Slice.ts"

export type SliceStatus = "running" | "done" | "failed"

export interface MarkedSlice {
  readonly slice: string
  readonly checkpoint: "absent" | "readable" | "broken"
}

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
  /**
   * Records rejected and not written since, as of the last completed pass: the slice's holes
   * (Holes.ts), which keep it from being final. Absent in checkpoints written before holes were counted.
   */
  readonly holes?: number
  /** The first of their keys (Holes.ts HOLE_KEYS_KEPT), in the order met, for listings whose pages name keys (Page.keys). */
  readonly holeKeys?: ReadonlyArray<string>
  /** The holes the pass under way has met so far; null between passes. */
  readonly passHoles?: PassHoles | null
  /** Sequence number of the last part written for this slice; -1 before the first. */
  readonly lastSeq: number
  /** Parts with a lower seq were superseded by a replacing listing; recovery deletes them. */
  readonly keepFromSeq: number | null
  /**
   * A replacing listing's version on disk (its parts from keepFromSeq on): its rows and rejects,
   * which rowsCommitted and rejectsCommitted, counting every version, do not say (verify's slices
   * check). Absent before its first version, and in checkpoints older than the field.
   */
  readonly kept?: { readonly rows: number; readonly rejects: number }
  /**
   * Rows committed to each child table (by its name), as rowsCommitted counts the dataset's own
   * (verify's slices check). Absent for a dataset without child tables or a replacing listing, and
   * in checkpoints older than the field (and those that continue them).
   */
  readonly childRows?: Readonly<Record<string, number>>
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
 * A slice the crawler will skip: finished with no hole (Holes.ts: a reject never makes a slice
 * final), and either never rerun, or rerunning but completed at or past its finalAfter (a settled
 * month). One rule for the crawler, `run --dry-run` and compaction (src/CompactionPolicy.ts).
 */
export const isFinal = (state: CheckpointState | undefined, slice: Pick<Slice, "finalAfter">, rerun: "never" | "always" | "replace" = "never"): boolean =>
  state !== undefined && isComplete(state) && (rerun === "never" || (slice.finalAfter !== undefined && completedBy(state, slice.finalAfter)))

export const initialState = (slice: Slice, runId: string): CheckpointState => ({
  dataset: slice.dataset,
  slice: slice.id,
  params: slice.params,
  cursor: null,
  cursorIssuedAt: null,
  pagesCommitted: 0,
  rowsCommitted: 0,
  rejectsCommitted: 0,
  holes: 0,
  holeKeys: [],
  passHoles: null,
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

/**
 * What is wrong with a cursor's text for the slice's listing (Cursor.ts `cursorProblem`), or
 * undefined when it decodes: a store given one judges the cursor with the rest of the checkpoint.
 */
export type CursorCheck = (text: string) => string | undefined

export class CheckpointStore extends Context.Tag("chainetl/CheckpointStore")<
  CheckpointStore,
  {
    /** The slice's checkpoint; with `cursor`, one whose cursor does not decode is broken too. */
    readonly load: (slice: Slice, cursor?: CursorCheck) => Effect.Effect<CheckpointState | undefined, CheckpointError>
    readonly save: (state: CheckpointState) => Effect.Effect<void, CheckpointError>
    /** Every slice's state, or one dataset's. */
    readonly list: (dataset?: string) => Effect.Effect<ReadonlyArray<CheckpointState>, CheckpointError>
    /**
     * The dataset's slices whose checkpoint was once found broken (a refetch marker was left), each
     * with what is stored for it now: nothing (deleted, the fix), a readable or a broken checkpoint
     * (judged with the listing's `cursor` check, as `load` does).
     */
    readonly marked: (dataset: string, cursor?: CursorCheck) => Effect.Effect<ReadonlyArray<MarkedSlice>, CheckpointError>
    /** Drops a slice's refetch marker. */
    readonly unmark: (dataset: string, slice: string) => Effect.Effect<void, CheckpointError>
    /**
     * Forgets a slice: its checkpoint and any refetch marker, so the next plan takes it as new
     * (`backfill --refetch`, src/verify/Refetch.ts, after it has removed the slice's parts).
     */
    readonly remove: (dataset: string, slice: string) => Effect.Effect<void, CheckpointError>
    /**
     * Before a run starts them: `states` are the running states of new slices of one dataset
     * (initialState). A store may make them durable at once, so that each slice's first save
     * (that state) costs nothing (OpeningJournal.ts); another may do nothing here.
     */
    readonly open: (dataset: string, states: ReadonlyArray<CheckpointState>) => Effect.Effect<void, CheckpointError>
    /** After the run's slices are over: drops what `open` kept that checkpoints of their own now say. */
    readonly settle: Effect.Effect<void, CheckpointError>
  }
>() {
  /** File-backed store under `<outDir>/_state/checkpoints`. */
  static readonly layer = (outDir: string) => Layer.succeed(CheckpointStore, makeFileStore(outDir))
}

const fileOf = (root: string, dataset: string, slice: string) => path.join(root, dataset, `${slice}.json`)

export const checkpointsRoot = (outDir: string): string => path.join(outDir, "_state", "checkpoints")
/** Left beside a checkpoint found broken: once the checkpoint is deleted, the slice's parts go too. */
export const REFETCH_SUFFIX = ".refetch"

const STATUSES: ReadonlySet<string> = new Set(["running", "done", "failed"])
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v) && v >= 0
const isStrings = (v: unknown): boolean => Array.isArray(v) && v.every((k) => typeof k === "string")
const isNumberOrNull = (v: unknown): boolean => v === null || (typeof v === "number" && Number.isFinite(v))

/**
 * The first way `value` is not the checkpoint of `dataset`/`slice`, or undefined when it is one;
 * with `cursor`, a cursor the slice's listing cannot decode is one such way.
 */
export const checkpointProblem = (value: unknown, dataset: string, slice: string, cursor?: CursorCheck): string | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object"
  const v = value as Record<string, unknown>
  const wrong = (field: string, want: string) => `"${field}" is ${JSON.stringify(v[field]) ?? "missing"}, expected ${want}`
  if (v["dataset"] !== dataset) return wrong("dataset", JSON.stringify(dataset))
  if (v["slice"] !== slice) return wrong("slice", JSON.stringify(slice))
  const params = v["params"]
  if (typeof params !== "object" || params === null || Array.isArray(params) || Object.values(params).some((p) => typeof p !== "string")) {
    return wrong("params", "an object of strings")
  }
  if (v["cursor"] !== null && typeof v["cursor"] !== "string") return wrong("cursor", "a string or null")
  const unreadable = typeof v["cursor"] === "string" ? cursor?.(v["cursor"]) : undefined
  if (unreadable !== undefined) return `"cursor" is ${JSON.stringify(clipped(String(v["cursor"])))}, which its listing cannot read: ${unreadable}`
  if (!isNumberOrNull(v["cursorIssuedAt"])) return wrong("cursorIssuedAt", "a number or null")
  for (const f of ["pagesCommitted", "rowsCommitted", "rejectsCommitted", "restarts"]) if (!isCount(v[f])) return wrong(f, "a non-negative integer")
  if (typeof v["lastSeq"] !== "number" || !Number.isSafeInteger(v["lastSeq"]) || v["lastSeq"] < -1) return wrong("lastSeq", "an integer from -1")
  // absent in checkpoints older than the field
  if (v["keepFromSeq"] !== undefined && v["keepFromSeq"] !== null && !isCount(v["keepFromSeq"])) return wrong("keepFromSeq", "a non-negative integer or null")
  if (v["finalAfter"] !== undefined && !isNumberOrNull(v["finalAfter"])) return wrong("finalAfter", "a number or null")
  if (v["holes"] !== undefined && !isCount(v["holes"])) return wrong("holes", "a non-negative integer")
  const kept = v["kept"] as Record<string, unknown> | undefined
  if (kept !== undefined && (typeof kept !== "object" || kept === null || !isCount(kept["rows"]) || !isCount(kept["rejects"]))) return wrong("kept", "{rows, rejects} of non-negative integers")
  const children = v["childRows"]
  if (children !== undefined && (typeof children !== "object" || children === null || Array.isArray(children) || !Object.values(children).every(isCount))) {
    return wrong("childRows", "an object of non-negative integers")
  }
  const keys = v["holeKeys"]
  if (keys !== undefined && !isStrings(keys)) return wrong("holeKeys", "an array of strings")
  const pass = v["passHoles"]
  if (pass !== undefined && pass !== null) {
    const p = pass as Record<string, unknown>
    if (typeof pass !== "object" || !isCount(p["count"]) || !isStrings(p["keys"]) || typeof p["replaces"] !== "boolean") {
      return wrong("passHoles", "null or {count, keys, replaces}")
    }
  }
  if (typeof v["status"] !== "string" || !STATUSES.has(v["status"])) return wrong("status", "running, done or failed")
  if (!isNumberOrNull(v["completedAsOf"])) return wrong("completedAsOf", "a number or null")
  if (typeof v["runId"] !== "string") return wrong("runId", "a string")
  if (v["error"] !== null && v["error"] !== undefined && typeof v["error"] !== "string") return wrong("error", "a string or null")
  return undefined
}

const clipped = (text: string): string => (text.length > 120 ? `${text.slice(0, 120)}…` : text)

/** The state in `text`, or the Corrupt error naming `file` (and a marker left beside it). */
const parseCheckpoint = async (file: string, text: string, dataset: string, slice: string, cursor?: CursorCheck): Promise<CheckpointState> => {
  let problem: string | undefined
  try {
    problem = checkpointProblem(JSON.parse(text), dataset, slice, cursor)
  } catch (e) {
    problem = `not valid JSON: ${e instanceof Error ? e.message : String(e)}`
  }
  if (problem === undefined) return JSON.parse(text) as CheckpointState
  await fs.writeFile(`${file.slice(0, -".json".length)}${REFETCH_SUFFIX}`, "").catch(() => undefined)
  throw new CheckpointError({ reason: "Corrupt", slice, file, detail: problem })
}

/**
 * The file's text, or undefined when there is none. Read synchronously: a checkpoint is a small
 * file a slice reads once, and the async read's four hand-offs to libuv's threads cost more CPU
 * than the reading (files/Durable.ts).
 */
const readIfAny = (file: string): string | undefined => {
  // most slices a run opens are new: a missing file is told without an exception's cost
  if (!existsSync(file)) return undefined
  try {
    return readFileSync(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
}

/** The slices with a checkpoint file in the dataset's folder. */
const ownFiles = (root: string, dataset: string): Set<string> => {
  try {
    return new Set(readdirSync(path.join(root, dataset)).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -".json".length)))
  } catch {
    return new Set()
  }
}

const makeFileStore = (outDir: string): CheckpointStore["Type"] => {
  const root = checkpointsRoot(outDir)
  // new slices' running states, one file a dataset and run (OpeningJournal.ts)
  const journal = makeOpeningJournal(root)
  return {
    load: (slice, cursor) =>
      Effect.tryPromise({
        try: async () => {
          const file = fileOf(root, slice.dataset, slice.id)
          const text = readIfAny(file)
          return text === undefined ? journal.stateOf(slice.dataset, slice.id) : await parseCheckpoint(file, text, slice.dataset, slice.id, cursor)
        },
        catch: (e) => (e instanceof CheckpointError ? e : new CheckpointError({ reason: "Io", slice: slice.id, detail: String(e) }))
      }),
    save: (state) =>
      Effect.tryPromise({
        try: async () => {
          // a new slice's first state is in its opening journal already
          if (journal.holds(state)) return
          await replaceFile(fileOf(root, state.dataset, state.slice), JSON.stringify({ ...state, updatedAt: new Date().toISOString() }, null, 2))
        },
        catch: (e) => new CheckpointError({ reason: "Io", slice: state.slice, detail: String(e) })
      }),
    list: (only) =>
      Effect.tryPromise({
        try: async () => {
          const datasets = only === undefined ? await fs.readdir(root).catch(() => [] as string[]) : [only]
          const files: Array<readonly [file: string, dataset: string, slice: string]> = []
          for (const d of datasets) {
            for (const f of await fs.readdir(path.join(root, d)).catch(() => [] as string[])) {
              if (f.endsWith(".json")) files.push([path.join(root, d, f), d, f.slice(0, -".json".length)])
            }
          }
          const own = await Promise.all(files.map(async ([f, d, s]) => parseCheckpoint(f, await fs.readFile(f, "utf8"), d, s)))
          const journaled = datasets.flatMap((d) => journal.unsettled(d, new Set(own.filter((c) => c.dataset === d).map((c) => c.slice))))
          return [...own, ...journaled]
        },
        catch: (e) => (e instanceof CheckpointError ? e : new CheckpointError({ reason: "Io", slice: "*", detail: String(e) }))
      }),
    marked: (dataset, cursor) =>
      Effect.tryPromise({
        try: async () => {
          const dir = path.join(root, dataset)
          const markers = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(REFETCH_SUFFIX))
          const marked: MarkedSlice[] = []
          for (const marker of markers) {
            const slice = marker.slice(0, -REFETCH_SUFFIX.length)
            const text = await fs.readFile(fileOf(root, dataset, slice), "utf8").catch(() => undefined)
            marked.push({ slice, checkpoint: text === undefined ? "absent" : readable(text, dataset, slice, cursor) ? "readable" : "broken" })
          }
          return marked
        },
        catch: (e) => new CheckpointError({ reason: "Io", slice: "*", detail: String(e) })
      }),
    unmark: (dataset, slice) =>
      Effect.tryPromise({
        try: () => fs.rm(path.join(root, dataset, `${slice}${REFETCH_SUFFIX}`), { force: true }),
        catch: (e) => new CheckpointError({ reason: "Io", slice, detail: String(e) })
      }),
    remove: (dataset, slice) =>
      Effect.tryPromise({
        // the checkpoint first: a marker left alone by a kill only drops itself (refetchDeleted)
        try: async () => {
          await fs.rm(fileOf(root, dataset, slice), { force: true })
          await fs.rm(path.join(root, dataset, `${slice}${REFETCH_SUFFIX}`), { force: true })
        },
        catch: (e) => new CheckpointError({ reason: "Io", slice, detail: String(e) })
      }),
    open: (dataset, states) =>
      Effect.tryPromise({
        try: () => journal.open(dataset, states),
        catch: (e) => new CheckpointError({ reason: "Io", slice: "*", detail: String(e) })
      }),
    settle: Effect.tryPromise({
      try: () => journal.settle((dataset) => ownFiles(root, dataset)),
      catch: (e) => (e instanceof CheckpointError ? e : new CheckpointError({ reason: "Io", slice: "*", detail: String(e) }))
    })
  }
}

/** Whether `text` is the checkpoint of `dataset`/`slice` (with `cursor`: one its listing can resume). */
export const readable = (text: string, dataset: string, slice: string, cursor?: CursorCheck): boolean => {
  try {
    return checkpointProblem(JSON.parse(text), dataset, slice, cursor) === undefined
  } catch {
    return false
  }
}
