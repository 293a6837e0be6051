/**
 * Progress as NDJSON for machines: every event, page included, exactly as emitted, one per line,
 * so a consumer can reconstruct anything the other views show.
 */
import type { ProgressEvent } from "../../crawl/Progress.ts"

export const jsonReporter =
  (write: (text: string) => void) =>
  (event: ProgressEvent): void =>
    write(`${JSON.stringify(event)}\n`)
