/**
 * `chainetl backfill <node blocks> --from H --to H' --refetch`: the heights of [from, to) are
 * crawled again. The files holding them are removed, each only if all its heights lie in the range
 * (a file reaching outside it is refused, naming the range that takes it whole, which is the range
 * verify prints: the span of the files holding the heights it found wrong), a compacted file as a
 * part (its manifest entry goes with it: Clear.ts), and then the checkpoints of backfill cells
 * inside the range, so the backfill that follows plans them again; its walk then asks for every
 * height it does not find committed. What `verify` asks for when a height walk's rows are wrong
 * rather than missing (a chain that does not link, a key twice). The caller holds the writer lock
 * and provides the state and where files end up, as for Refetch.ts.
 */
import { DuckDBInstance, quotedIdentifier, quotedString } from "@duckdb/node-api"
import { Effect } from "effect"
import * as path from "node:path"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { ConfigError } from "../Errors.ts"
import { clearOutput } from "./Clear.ts"
import { tableFiles } from "./Files.ts"
import { heightScope } from "./RefetchScope.ts"

const HEIGHT = /^[0-9]+$/

/** The lowest and highest height of each file (read without its folders' keys). */
export const heightSpans = async (files: ReadonlyArray<string>, column: string): Promise<ReadonlyMap<string, readonly [bigint, bigint]>> => {
  const db = await DuckDBInstance.create(":memory:", { threads: "1" })
  const conn = await db.connect()
  try {
    const spans = new Map<string, readonly [bigint, bigint]>()
    for (const f of files) {
      const r = (await conn.runAndReadAll(`SELECT min(${quotedIdentifier(column)})::VARCHAR AS lo, max(${quotedIdentifier(column)})::VARCHAR AS hi FROM read_parquet(${quotedString(f)}, hive_partitioning = false)`)).getRowObjectsJson()[0]
      if (r?.["lo"] !== null && r?.["lo"] !== undefined) spans.set(f, [BigInt(String(r["lo"])), BigInt(String(r["hi"]))])
    }
    return spans
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

export const refetchHeights = (out: string, datasets: ReadonlyArray<AnyDataset>, range: { readonly from: bigint; readonly to: bigint }) =>
  Effect.gen(function* () {
    const plans = []
    // every dataset is judged before anything is removed: a refusal leaves the output as it was
    for (const d of datasets) {
      if (d.chain === undefined || d.backfill !== "height") {
        return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch", detail: `${d.name} is not a height walk`, fix: "pass heights with --refetch for node_x_blocks or node_p_blocks only" }))
      }
      const files = yield* Effect.promise(() => tableFiles(out, d.name, d.name))
      const spans = yield* Effect.promise(() => heightSpans([...files.parts.filter((p) => p.live).map((p) => p.abs), ...files.compacted.map((c) => c.abs)], d.chain!.height))
      const meets = [...spans].filter(([, [lo, hi]]) => hi >= range.from && lo < range.to)
      const whole = heightScope(range, [...spans.values()])
      const outside = meets.find(([, [lo, hi]]) => lo < range.from || hi >= range.to)
      if (outside !== undefined) {
        const [file, [lo, hi]] = outside
        return yield* Effect.fail(
          new ConfigError({ reason: "Invalid", field: "--from", detail: `${path.relative(out, file)} holds heights ${lo}-${hi}, reaching outside [${range.from}, ${range.to})`, fix: `pass --from ${whole.from} --to ${whole.to} (the range no file reaches outside of)` })
        )
      }
      // a cell done before with these bounds would be final: its checkpoint goes too (the nightly walk's stays)
      const cells = (yield* (yield* CheckpointStore).list(d.name)).filter((s) => {
        const from = s.params["from"] ?? ""
        const to = s.params["to"] ?? ""
        return HEIGHT.test(from) && HEIGHT.test(to) && BigInt(from) >= range.from && BigInt(to) <= range.to
      })
      const gone = new Set(meets.map(([f]) => f))
      const compacted = files.compacted.filter((c) => gone.has(c.abs))
      plans.push({ d, parts: [...gone].filter((f) => !compacted.some((c) => c.abs === f)), compacted, cells })
    }
    const removed: string[] = []
    for (const { d, parts, compacted, cells } of plans) {
      yield* clearOutput(out, {
        parts,
        compacted: compacted.map((c) => ({ table: d.name, file: c.rel.slice(d.name.length + 1) })),
        checkpoints: cells.map((c) => ({ dataset: d.name, slice: c.slice }))
      })
      removed.push(...parts, ...compacted.map((c) => c.abs))
    }
    return removed
  })
