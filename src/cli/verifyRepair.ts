/**
 * `chainetl verify --repair`: each failure's re-crawl, in this process, through the same path as
 * the command verify prints (`runCommand`, with the window removed first for `--refetch`), one
 * after the other (they share the output's writer lock). A repair that fails is said and the
 * others still run; verify then checks the output again, and its exit code is that second verdict's.
 */
import { Effect, Either } from "effect"
import type { RunArgs } from "./runCommand.ts"
import { DEFAULT_PART_ROWS } from "../crawl/PartSize.ts"
import { SLICE_CAP } from "../pace/InFlight.ts"
import { commandOf, type CommandContext, refetchSliceTexts, type Repair } from "../verify/Finding.ts"

export interface RepairOutcome {
  readonly command: string
  /** Undefined when the re-crawl finished; else what it said. */
  readonly error?: string
}

/** The arguments `chainetl run`/`backfill` would parse from the repair's command line. */
export const runArgsOf = (r: Repair, ctx: CommandContext): Omit<RunArgs, "backfill"> & { readonly backfill?: RunArgs["backfill"] } => ({
  datasets: [r.dataset],
  networks: [],
  job: ctx.job,
  out: ctx.out,
  emulator: false,
  emulatorSeed: undefined,
  emulatorScale: undefined,
  partRows: DEFAULT_PART_ROWS,
  concurrency: SLICE_CAP,
  quiet: true
})

export const runRepairs = (repairs: ReadonlyArray<Repair>, ctx: CommandContext, say: (line: string) => void) =>
  Effect.gen(function* () {
    const { runCommand } = yield* Effect.promise(() => import("./runCommand.ts"))
    const { parseBackfill } = yield* Effect.promise(() => import("./backfillPlan.ts"))
    const { refetchFirst } = yield* Effect.promise(() => import("./refetchCommand.ts"))
    const { refetchSlicesFirst } = yield* Effect.promise(() => import("./refetchSliceCommand.ts"))
    const outcomes: RepairOutcome[] = []
    for (const r of repairs) {
      const command = commandOf(r, ctx)
      say(`repair: ${command}`)
      const attempt = Effect.gen(function* () {
        const base = runArgsOf(r, ctx)
        if (r.kind === "run") return yield* runCommand(base)
        if (r.kind === "refetch-slice") {
          yield* refetchSlicesFirst(base, refetchSliceTexts(r))
          return yield* runCommand(base)
        }
        const range = parseBackfill([r.dataset], r.from, r.to, r.window)
        if (Either.isLeft(range)) return yield* Effect.fail(range.left)
        const args = { ...base, backfill: range.right }
        if (r.refetch === true) yield* refetchFirst(args)
        return yield* runCommand(args)
      })
      const done = yield* Effect.either(attempt)
      const error = Either.isLeft(done) ? (done.left instanceof Error ? done.left.message : String(done.left)) : undefined
      if (error !== undefined) say(`repair: ${r.dataset}: ${error}`)
      outcomes.push({ command, ...(error === undefined ? {} : { error }) })
    }
    return outcomes
  })
