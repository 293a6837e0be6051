/**
 * Which partition each of a part's rows goes to. A part becomes one file per distinct tuple of
 * partition values (its group); the groups are counted as the rows come, so the part's writer
 * (PartWriter.ts) can split the rows by group in one COPY.
 */
import type { Row } from "../../schemas/common.ts"
import type { PartitionSpec } from "./PartInput.ts"
import { EncodeIssue } from "./RowEncoder.ts"

/**
 * A part's partition groups, kept as its rows come (page by page): group k is the k-th distinct
 * tuple of partition values met, so the groups of rows given in one go or over many calls agree.
 */
export class PartGroups {
  readonly partitions: Array<ReadonlyArray<readonly [string, string]>> = []
  readonly counts: number[] = []
  private readonly ids = new Map<string, number>()
  private readonly values: string[]
  private previous = -1

  constructor(private readonly partitionBy: ReadonlyArray<PartitionSpec>) {
    this.values = new Array<string>(partitionBy.length)
  }

  /** The group of each of `rows`, adding groups for tuples not met before. */
  add(rows: ReadonlyArray<Row>): Int32Array {
    const { partitionBy, values, partitions, counts, ids } = this
    const groupOf = new Int32Array(rows.length)
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!
      let same = this.previous >= 0
      for (let k = 0; k < partitionBy.length; k++) {
        const v = partitionBy[k]!.value(row)
        if (typeof v !== "string") throw new EncodeIssue(partitionBy[k]!.key, `partition value is ${typeof v}, not a string`, r)
        same &&= values[k] === v
        values[k] = v
      }
      // rows come in listing order, so neighbours mostly share a partition: no key text to build
      if (same) {
        groupOf[r] = this.previous
        counts[this.previous]!++
        continue
      }
      // NUL cannot be part of a value that reaches a path (HivePath escapes it), but may be sent:
      // JSON keeps the tuple unambiguous whatever the values hold
      const id = values.length === 1 ? values[0]! : JSON.stringify(values)
      let group = ids.get(id)
      if (group === undefined) {
        group = partitions.length
        ids.set(id, group)
        partitions.push(partitionBy.map((spec, i) => [spec.key, values[i]!] as const))
        counts.push(0)
      }
      groupOf[r] = group
      counts[group]!++
      this.previous = group
    }
    return groupOf
  }
}
