/**
 * Picks how a run reports progress. The live view and log lines go to stderr so stdout stays
 * clean for the final summary table and for --json; JSON progress is itself machine output, so
 * it goes to stdout.
 */
import { Effect, Layer } from "effect"
import { Progress, type ProgressEvent } from "../../crawl/Progress.ts"
import { jsonReporter } from "./json.ts"
import { linesReporter } from "./lines.ts"
import { ttyReporter } from "./tty.ts"

export type ProgressMode = "auto" | "tty" | "lines" | "json" | "quiet"

export interface ProgressOptions {
  /** Where output goes instead of the default stream (tests). */
  readonly write?: (text: string) => void
  /** Whether the output is a terminal, for `auto`; defaults to stderr's, where the live view would draw. */
  readonly isTTY?: boolean
}

const toStdout = (text: string): void => void process.stdout.write(text)
const toStderr = (text: string): void => void process.stderr.write(text)

const reporter = (mode: ProgressMode, options: ProgressOptions): ((event: ProgressEvent) => void) => {
  switch (mode) {
    case "quiet":
      return () => {}
    case "json":
      return jsonReporter(options.write ?? toStdout)
    case "lines":
      return linesReporter(options.write ?? toStderr)
    case "tty":
      return ttyReporter(options.write ?? toStderr, {
        columns: options.write === undefined ? () => process.stderr.columns : undefined,
        // unref: a pending redraw must not keep the process alive after the run.
        schedule: (redraw, ms) => void setTimeout(redraw, ms).unref()
      })
    case "auto":
      return reporter((options.isTTY ?? process.stderr.isTTY === true) ? "tty" : "lines", options)
  }
}

/** A Progress service for `mode`. Built per provide, so each run starts with a fresh view. */
export const progressLayer = (mode: ProgressMode, options: ProgressOptions = {}): Layer.Layer<Progress> =>
  Layer.sync(Progress, () => {
    const report = reporter(mode, options)
    return { emit: (event) => Effect.sync(() => report(event)) }
  })
