import type * as arrow from "apache-arrow"
import type { Row } from "../../schemas/common.ts"

/** One candidate Parquet writer: writes `rows` under `dir` and returns the files it wrote. */
export interface Writer {
  readonly name: string
  readonly write: (schema: arrow.Schema, rows: ReadonlyArray<Row>, dir: string) => Promise<ReadonlyArray<string>>
}
