/**
 * Issue 11: a restarting slice's committed keys read back from real Parquet parts as digests, the
 * form the listing guard looks them up in. A key is found exactly when `keyOf` of a row of the
 * slice's own parts spells it (instants included), with the digest the guard makes of a page's key.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommittedKeys, keyOf } from "../../src/crawl/CommittedKeys.ts"
import { REJECT_SEED, ROW_SEED } from "../../src/crawl/KeyDigests.ts"
import { murmur3String } from "../../src/crawl/Murmur3.ts"

const hash = (i: number): string => `0x${i.toString(16).padStart(64, "0")}`
/** 2024-03-01T00:00:00Z plus i seconds. */
const instant = (i: number): Date => new Date(Date.UTC(2024, 2, 1) + i * 1000)

let out: string
const read = <A>(f: (keys: CommittedKeys["Type"]) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(CommittedKeys, f).pipe(Effect.provide(CommittedKeys.layer(out))))

/** Writes `sql`'s rows as one Parquet part at `out/<dataset>/<folder>/<file>`. */
const part = async (dataset: string, folder: string, file: string, sql: string) => {
  const dir = path.join(out, dataset, folder)
  fs.mkdirSync(dir, { recursive: true })
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  await conn.run(`COPY (${sql}) TO '${path.join(dir, file)}' (FORMAT parquet)`)
  conn.closeSync()
  db.closeSync()
}

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-committed-keys-"))
  // slice w1: txs 0..2,999 in two parts (two date folders); slice w2: txs 3,000..3,999
  const txs = (from: number, to: number) =>
    `SELECT '0x' || lpad(lower(to_hex(i)), 64, '0') AS tx_hash, TIMESTAMPTZ '2024-03-01 00:00:00+00' + to_seconds(i) AS block_timestamp, 'p' AS chain FROM range(${from}, ${to}) t(i)`
  await part("txs", "date=2024-03-01", "part-w1-0.parquet", txs(0, 2000))
  await part("txs", "date=2024-03-02", "part-w1-1.parquet", txs(2000, 3000))
  await part("txs", "date=2024-03-02", "part-w2-0.parquet", txs(3000, 4000))
  // the same slice's rejects: their own table and key
  await part("_rejects", "dataset=txs", "part-w1-0.parquet", "SELECT 'bad-' || i AS reject_key FROM range(0, 5) t(i)")
})

afterAll(() => fs.rmSync(out, { recursive: true, force: true }))

describe("CommittedKeys.digests", () => {
  it("given slice w1's two parts (3,000 rows) beside slice w2's, when its keys are read as row digests, then exactly w1's 3,000 keys are found", async () => {
    const keys = await read((k) => k.digests("txs", "w1", ["tx_hash"], ROW_SEED))
    expect(keys.size).toBe(3000)
    const missed = [0, 1, 1999, 2000, 2999].filter((i) => !keys.has(keyOf({ tx_hash: hash(i) }, ["tx_hash"])))
    const extra = [3000, 3999, 4000, -1].filter((i) => keys.has(hash(i)))
    expect(missed).toEqual([])
    expect(extra).toEqual([])
  })

  it("given the guard's digest of a page's key (row seed), when looked up by digest, then a committed key is found and another is not", async () => {
    const keys = await read((k) => k.digests("txs", "w1", ["tx_hash"], ROW_SEED))
    const d = new Uint32Array(4)
    murmur3String(hash(2500), ROW_SEED, d)
    expect(keys.hasDigest(d)).toBe(true)
    murmur3String(hash(3500), ROW_SEED, d)
    expect(keys.hasDigest(d)).toBe(false)
    // the same key digested with the rejects' seed is another digest
    murmur3String(hash(2500), REJECT_SEED, d)
    expect(keys.hasDigest(d)).toBe(false)
  })

  it("given a key of a text and a TIMESTAMPTZ column, when read, then the key `keyOf` builds from a JS Date (epoch microseconds) is found", async () => {
    const keys = await read((k) => k.digests("txs", "w2", ["chain", "block_timestamp"], ROW_SEED))
    expect(keys.size).toBe(1000)
    expect(keys.has(keyOf({ chain: "p", block_timestamp: instant(3000) }, ["chain", "block_timestamp"]))).toBe(true)
    expect(keys.has(keyOf({ chain: "p", block_timestamp: instant(2999) }, ["chain", "block_timestamp"]))).toBe(false)
    expect(keyOf({ chain: "p", block_timestamp: instant(3000) }, ["chain", "block_timestamp"])).toBe("p\u00011709254200000000")
  })

  it("given the slice's rejects, when read with the rejects' seed, then its 5 reject keys are found", async () => {
    const keys = await read((k) => k.digests("_rejects", "w1", ["reject_key"], REJECT_SEED))
    expect([keys.size, keys.seed, keys.has("bad-0"), keys.has("bad-4"), keys.has("bad-5")]).toEqual([5, REJECT_SEED, true, true, false])
  })

  it("given a slice with no parts, when read, then no key is found", async () => {
    const keys = await read((k) => k.digests("txs", "w3", ["tx_hash"], ROW_SEED))
    expect([keys.size, keys.has(hash(0))]).toEqual([0, false])
  })

  it("given slice w1's parts, when read as digests, then every one of its 3,000 key texts is found", async () => {
    const digests = await read((k) => k.digests("txs", "w1", ["tx_hash"], ROW_SEED))
    const texts = Array.from({ length: 3000 }, (_, i) => keyOf({ tx_hash: hash(i) }, ["tx_hash"]))
    expect(texts.filter((t) => !digests.has(t))).toEqual([])
  })
})
