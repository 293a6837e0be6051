/**
 * How the sink names its failures: every one is a SinkError naming the file or folder it was at,
 * "Encode" for rows that do not fit their part (EncodeIssue), "Io" for what the disk or DuckDB
 * refused.
 */
import { SinkError } from "../Errors.ts"
import { assertDatasetName } from "./HivePath.ts"
import { EncodeIssue } from "./RowEncoder.ts"

export const invalid = (where: string, detail: string): SinkError => new SinkError({ reason: "Encode", path: where, detail })

/** `e` as the SinkError it is, or one of `reason` at `where`. */
export const asSinkError =
  (reason: "Io" | "Encode", where: string) =>
  (e: unknown): SinkError =>
    e instanceof SinkError
      ? e
      : new SinkError({
          reason: e instanceof EncodeIssue ? "Encode" : reason,
          path: where,
          detail: e instanceof Error ? e.message : String(e)
        })

const SLICE_ID = /^[a-z0-9_-]{1,80}$/

/** Why (dataset, slice, seq) cannot name a part, or undefined when it can; seq -1 stands for "none yet". */
export const badPartId = (dataset: string, slice: string, seq: number, outDir: string): SinkError | undefined => {
  try {
    assertDatasetName(dataset)
  } catch (e) {
    return invalid(outDir, (e as Error).message)
  }
  if (!SLICE_ID.test(slice)) return invalid(outDir, `slice id "${slice}" must match ${SLICE_ID.source}`)
  if (!Number.isSafeInteger(seq) || seq < -1) return invalid(outDir, `seq ${seq} must be a non-negative integer`)
  return undefined
}
