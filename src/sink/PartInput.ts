/**
 * What the sink is given for a part, and what it gives back: the types ParquetSink.ts's service
 * speaks, shared by the modules behind it.
 */
import type * as arrow from "../ArrowTypes.ts"
import type { Row } from "../../schemas/common.ts"
import type { PartFence } from "./PartFence.ts"

export interface PartitionSpec {
  /**
   * snake_case; becomes the Hive key. When the schema has a field of that name, the field is not
   * written into the file: the catalog reads it back from the path, cast to the field's type.
   */
  readonly key: string
  /**
   * The partition value of a row, e.g. its UTC day "2024-05-01" or its chain id "43114". For a key
   * that is also a field, it must be the text that casts back to the field's value (`String(bigint)`).
   */
  readonly value: (row: Row) => string
}

/** Rows of a (dataset, slice)'s next part, staged before the part is written. */
export interface StageInput {
  readonly dataset: string
  /** A safe id: [a-z0-9_-], at most 80 characters. */
  readonly slice: string
  readonly schema: arrow.Schema
  readonly rows: ReadonlyArray<Row>
  readonly partitionBy: ReadonlyArray<PartitionSpec>
}

export interface WritePartInput extends StageInput {
  /** Non-negative integer; a rewrite of the same (slice, seq) replaces the same files. */
  readonly seq: number
  /** The writer's right to write the slice, when it can lapse (a distributed worker's): src/sink/PartFence.ts. */
  readonly fence?: PartFence
}

export interface WrittenPart {
  /** Absolute path of the committed file. */
  readonly path: string
  readonly rows: number
  readonly bytes: number
  /** The partition's (key, original value) pairs, in `partitionBy` order. */
  readonly partition: ReadonlyArray<readonly [string, string]>
}
