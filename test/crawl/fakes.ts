/**
 * In-memory stand-ins for the crawler's services, sharing one "disk" across simulated process
 * lives so a test can kill a crawl at any commit point and resume it.
 */
import { Effect, Layer } from "effect"
import { CheckpointStore, type CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { CommittedKeys, keyOf } from "../../src/crawl/CommittedKeys.ts"
import { KeyDigests } from "../../src/crawl/KeyDigests.ts"
import * as arrow from "apache-arrow"
import { type DatasetDef, RecordError, type Row } from "../../src/crawl/Dataset.ts"
import { ParquetSink, type ParquetSinkService, type WrittenPart } from "../../src/sink/ParquetSink.ts"

export interface Disk {
  /** part name (dataset/partition/part-slice-seq) → rows */
  readonly parts: Map<string, ReadonlyArray<Row>>
  readonly checkpoints: Map<string, CheckpointState>
}

export const newDisk = (): Disk => ({ parts: new Map(), checkpoints: new Map() })

/** Dies (like kill -9) at the n-th durable operation (part rename or checkpoint save), counting from 1. */
export class KillSwitch {
  ops = 0
  constructor(readonly killAt: number | undefined) {}
  tick(): Effect.Effect<void> {
    this.ops++
    return this.ops === this.killAt ? Effect.die(new Error(`killed at operation ${this.ops}`)) : Effect.void
  }
}

const partName = (dataset: string, partition: string, slice: string, seq: number) =>
  `${dataset}/${partition}/part-${slice}-${String(seq).padStart(6, "0")}`

/** What the fake sink says a staged row holds, so a test can bound parts by bytes (`partBytes`). */
export const FAKE_ROW_BYTES = 100

/** Rows staged for a (dataset, slice)'s next part: in memory, so gone with the process like DuckDB's. */
export type Staging = Map<string, Row[]>

export const layers = (disk: Disk, kill: KillSwitch, staging: Staging = new Map()) => {
  const service: ParquetSinkService = {
    outDir: "memory",
    stage: (input) =>
      Effect.sync(() => {
        const key = `${input.dataset}/${input.slice}`
        if (input.rows.length > 0) staging.set(key, [...(staging.get(key) ?? []), ...input.rows])
        return (staging.get(key)?.length ?? 0) * FAKE_ROW_BYTES
      }),
    discard: (dataset, slice) => Effect.sync(() => void staging.delete(`${dataset}/${slice}`)),
    writePart: (input) =>
      Effect.gen(function* () {
        const key = `${input.dataset}/${input.slice}`
        const rows = [...(staging.get(key) ?? []), ...input.rows]
        staging.delete(key)
        const groups = new Map<string, Row[]>()
        for (const row of rows) {
          const partition = input.partitionBy.map((p) => `${p.key}=${p.value(row)}`).join("/")
          groups.set(partition, [...(groups.get(partition) ?? []), row])
        }
        const written: WrittenPart[] = []
        for (const [partition, rows] of groups) {
          yield* kill.tick()
          const name = partName(input.dataset, partition, input.slice, input.seq)
          disk.parts.set(name, rows)
          written.push({ path: name, rows: rows.length, bytes: 0, partition: [] })
        }
        return written
      }),
    removePartsAfter: (dataset, slice, last) =>
      Effect.sync(() => {
        let removed = 0
        for (const name of [...disk.parts.keys()]) {
          const m = name.match(/part-(.+)-(\d{6})$/)
          if (name.startsWith(`${dataset}/`) && m !== null && m[1] === slice && Number(m[2]) > last) {
            disk.parts.delete(name)
            removed++
          }
        }
        return removed
      }),
    removePartsBefore: (dataset, slice, first) =>
      Effect.sync(() => {
        let removed = 0
        for (const name of [...disk.parts.keys()]) {
          const m = name.match(/part-(.+)-(\d{6})$/)
          if (name.startsWith(`${dataset}/`) && m !== null && m[1] === slice && Number(m[2]) < first) {
            disk.parts.delete(name)
            removed++
          }
        }
        return removed
      }),
    takeBack: (parts) => Effect.sync(() => void parts.forEach((p) => disk.parts.delete(p.path))),
    clearStaging: () => Effect.void,
    close: () => undefined
  }
  const sink = Layer.succeed(ParquetSink, service)
  const store = Layer.succeed(CheckpointStore, {
    load: (slice) => Effect.sync(() => disk.checkpoints.get(`${slice.dataset}/${slice.id}`)),
    save: (state) =>
      kill.tick().pipe(Effect.andThen(Effect.sync(() => void disk.checkpoints.set(`${state.dataset}/${state.slice}`, state)))),
    list: (only?: string) => Effect.sync(() => [...disk.checkpoints.values()].filter((c) => only === undefined || c.dataset === only)),
    // a fake disk holds no broken checkpoint, so nothing is ever marked
    marked: () => Effect.succeed([]),
    unmark: () => Effect.void,
    remove: (dataset: string, slice: string) => Effect.sync(() => void disk.checkpoints.delete(`${dataset}/${slice}`)),
    // every state is saved as it comes, a new slice's first one too
    open: () => Effect.void,
    settle: Effect.void
  })
  const committed = (dataset: string, slice: string, columns: ReadonlyArray<string>): string[] =>
    [...disk.parts].flatMap(([name, rows]) =>
      name.startsWith(`${dataset}/`) && name.includes(`/part-${slice}-`) ? rows.map((r) => keyOf(r, columns)) : []
    )
  const keys = Layer.succeed(CommittedKeys, {
    digests: (dataset, slice, columns, seed) => Effect.sync(() => KeyDigests.of(seed, committed(dataset, slice, columns)))
  })
  return Layer.mergeAll(sink, store, keys)
}

/** All rows of a dataset on the disk, sorted by key, without lineage columns. */
export const rowsOf = (disk: Disk, dataset: string, key: string): Row[] =>
  [...disk.parts.entries()]
    .filter(([name]) => name.startsWith(`${dataset}/`))
    .flatMap(([, rows]) => rows)
    .map(({ run_id: _r, ingested_at: _i, ...rest }) => rest)
    .sort((a, b) => String(a[key]).localeCompare(String(b[key])))

/**
 * Records `{id, n}` as rows of a dataset "things" keyed by id and partitioned by n's parity, so a
 * part spans two files; a record whose n is not a number is rejected.
 */
export const thingsDataset = (listing: DatasetDef<never>["listing"]): DatasetDef<never> => ({
  name: "things",
  description: "test",
  schema: new arrow.Schema([]),
  partitionBy: [{ key: "parity", type: "VARCHAR", value: (r) => (Number(r["n"]) % 2 === 0 ? "even" : "odd") }],
  key: ["id"],
  slices: () => [],
  listing,
  toRow: (raw) => {
    const r = raw as { id: string; n: unknown }
    if (typeof r.n !== "number") throw new RecordError(`n: expected a number, got ${JSON.stringify(r.n)}`)
    return { id: r.id, n: r.n }
  }
})
