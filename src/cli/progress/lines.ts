/**
 * Progress as plain log lines for cron and CI: one line per committed part and per finished
 * slice, plus the run's start and end. Page events are ignored, they would flood a log file.
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
      const word = event.status === "done" ? "done" : event.status === "failed" ? "FAIL" : "skip"
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

/** A reporter writing one line per reportable event. Stateless, so concurrency cannot interleave a line. */
export const linesReporter =
  (write: (text: string) => void) =>
  (event: ProgressEvent): void => {
    const line = formatLine(event)
    if (line !== undefined) write(`${line}\n`)
  }
