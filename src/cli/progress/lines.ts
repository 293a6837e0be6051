/**
 * Progress as plain log lines for cron and CI: one line per committed part and per slice that
 * ran, plus the run's start and end. Page events are ignored, they would flood a log file, and so
 * are slices skipped as final (hundreds of settled metric months a night): the end line counts them.
 */
import type { ProgressEvent } from "../../crawl/Progress.ts"
import { oneLine, seconds, shorten, timestamp } from "./format.ts"

/** Fixed-width tag so the dataset column lines up in a log. */
const tag = (word: string): string => word.padEnd(5)

export const formatLine = (event: ProgressEvent): string | undefined => {
  const at = timestamp(event.at)
  switch (event.type) {
    case "run_started":
      return `${at} ${tag("run")} ${event.runId} ${event.mode} ${event.slices} slices: ${event.datasets.join(", ")}`
    case "part_committed":
      return `${at} ${tag("part")} ${event.dataset} ${shorten(event.slice)} #${event.seq} ${event.rows} rows ${event.rejects} rejects`
    case "slice_finished": {
      if (event.status === "skipped") return undefined
      const word = event.status === "done" ? "done" : "FAIL"
      const counts = `${event.pages} pages ${event.rows} rows ${event.rejects} rejects ${event.requests} requests ${seconds(event.durationMs)}`
      const error = event.error !== undefined ? `: ${oneLine(event.error)}` : event.status === "failed" ? ": (no error message)" : ""
      return `${at} ${tag(word)} ${event.dataset} ${shorten(event.slice)} ${counts}${error}`
    }
    case "run_finished":
      return `${at} ${tag("end")} ${event.runId} ${event.status} in ${seconds(event.durationMs)}`
    case "slice_started":
    case "page":
      return undefined
  }
}

/** A reporter writing one line per reportable event; each line is one write, so concurrent slices cannot interleave one. */
export const linesReporter = (write: (text: string) => void) => {
  let skipped = 0
  return (event: ProgressEvent): void => {
    if (event.type === "slice_finished" && event.status === "skipped") skipped++
    const line = formatLine(event)
    if (line === undefined) return
    write(event.type === "run_finished" && skipped > 0 ? `${line} (${skipped} final slices skipped)\n` : `${line}\n`)
  }
}
