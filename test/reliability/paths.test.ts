/**
 * Item 5: values from a service never steer where files go. A proxy in front of the emulator
 * rewrites an EVM blocks page so that each block carries a hostile value (`../`, `/`, `%`, NUL,
 * very long, mixed case, names DuckDB or Windows treat specially) as its chain id, and a test
 * dataset partitions by it; the slice's own parameters are hostile too. Through the real crawler,
 * sink and catalog: every file stays inside its dataset folder, two different values never share
 * a folder (case-insensitive filesystems included), and DuckDB reads each value back as sent.
 *
 * (The pipelines' own partition values come from the job, which validates them: chain ids are
 * digits, networks a closed set. This test is for the day one comes from a service.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import { CommittedKeys } from "../../src/crawl/CommittedKeys.ts"
import { crawlSlice, type SliceResult } from "../../src/crawl/Crawler.ts"
import { type DatasetDef, RecordError } from "../../src/crawl/Dataset.ts"
import { restListing } from "../../src/crawl/RestListing.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { encodeValue, isShortened } from "../../src/sink/HivePath.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import type { RestClient } from "../../src/source/RestClient.ts"
import { sourceLayerWith } from "../../src/source/SourceLayer.ts"
import { defineSchema, str } from "../../schemas/common.ts"
import { emulatorRetry, query } from "../support/spine.ts"
import { tempFolders } from "../support/fixtures.ts"
import { filesBelow } from "./compare.ts"
import { type Proxy, forward, startProxy } from "../support/proxy.ts"

const LONG = "x".repeat(300)
const HOSTILE = [
  "../../../escaped", // hostile data, not a path
  "..",
  ".",
  "/",
  "a/b",
  "a\\b",
  "/etc/passwd",
  "%",
  "100%",
  "%2F",
  "%2f",
  "nul\u0000byte",
  "\u0000",
  "k=v",
  "chain_id=1/x=2",
  "Abc",
  "abc",
  "ABC",
  "C-Chain",
  "c-chain",
  "NULL",
  "null",
  "__HIVE_DEFAULT_PARTITION__",
  "__hive_default_partition__",
  "con",
  "CON.txt",
  "",
  " ",
  "tab\there",
  "line\nbreak",
  "€uro",
  "🦆",
  LONG,
  `${LONG}y`,
  "é".repeat(200)
]

/** Values whose encoding is longer than a file name allows are cut and hashed: they read back shortened, but apart. */
const shortened = (v: string) => isShortened(encodeValue(v))

const dataset: DatasetDef<RestClient> = {
  name: "test_hostile",
  description: "EVM blocks, partitioned by a value the service sent",
  schema: defineSchema(
    [str("chain_id", "The service's value, as a Hive key"), str("chain_id_copy", "The same value, stored in the file"), str("block_hash", "Block hash")],
    "test"
  ),
  partitionBy: [{ key: "chain_id", type: "VARCHAR", value: (r) => String(r["chain_id"]) }],
  key: ["block_hash"],
  slices: () => [],
  listing: restListing({ service: "data", path: () => "/v1/chains/43114/blocks", items: "blocks", pageSize: 100 }),
  toRow: (raw) => {
    const r = raw as Record<string, unknown>
    if (typeof r["chainId"] !== "string" || typeof r["blockHash"] !== "string") throw new RecordError("chainId and blockHash must be strings")
    return { chain_id: r["chainId"], chain_id_copy: r["chainId"], block_hash: r["blockHash"] }
  }
}

describe("hostile values from a service as partition values and slice parameters", () => {
  const pathsDir = tempFolders("paths")
  let emu: RunningEmulator
  let proxy: Proxy
  let root: string
  let out: string
  let result: SliceResult
  const slice = makeSlice(dataset.name, { network: "../../Main Net/%00\u0000", chain: "C-Chain", metric: "x".repeat(120) })
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    // one page; block i carries HOSTILE[i % n] as its chain id
    proxy = await startProxy(emu.baseUrl, (req) =>
      req.url.pathname.endsWith("/blocks")
        ? {
            kind: "forward",
            rewrite: (text) => {
              const body = JSON.parse(text) as { blocks: Array<Record<string, unknown>>; nextPageToken?: string }
              body.blocks.forEach((b, i) => void (b["chainId"] = HOSTILE[i % HOSTILE.length]))
              delete body.nextPageToken
              return JSON.stringify(body)
            }
          }
        : forward
    )
    root = await pathsDir()
    out = path.join(root, "a", "b", "out")
    result = await Effect.runPromise(
      crawlSlice(dataset, slice, { runId: "r1", asOf: emu.clock.now(), ingestedAt: new Date(), partRows: 1000 }).pipe(
        Effect.provide(
          Layer.mergeAll(
            sourceLayerWith({ baseUrl: proxy.url, metricsUrl: emu.metricsUrl, nodeUrl: emu.nodeUrl, out, retry: emulatorRetry }),
            ParquetSink.layer(out),
            CheckpointStore.layer(out),
            CommittedKeys.layer(out)
          )
        )
      )
    )
    await Effect.runPromise(buildCatalog(out, [{ name: dataset.name, schema: dataset.schema, partitionKeys: [{ key: "chain_id", type: "VARCHAR" }] }]))
  })
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given hostile slice parameters, when the slice is made, then its id (in file and checkpoint names) is plain, bounded and apart from a lookalike", () => {
    expect(slice.id).toMatch(/^[a-z0-9-]{1,80}$/)
    expect(makeSlice(dataset.name, { network: "../../main net/%00", chain: "c_chain", metric: "x".repeat(120) }).id).not.toBe(slice.id)
    expect(result).toMatchObject({ status: "done", rows: 100, rejects: 0 })
  })

  it("given a page of blocks with hostile chain ids, when crawled, then nothing was written outside the output folder and every part sits one level below the dataset", async () => {
    // the folders above `out` hold only the way down to it
    expect(await fs.readdir(root)).toEqual(["a"])
    expect(await fs.readdir(path.join(root, "a"))).toEqual(["b"])
    expect(await fs.readdir(path.join(root, "a", "b"))).toEqual(["out"])
    const parts = (await filesBelow(out)).filter((f) => f.endsWith(".parquet") && !f.startsWith("_"))
    expect(parts.length).toBe(HOSTILE.length)
    for (const p of parts) {
      expect(p).toMatch(new RegExp(`^test_hostile/chain_id=([a-z0-9_.-]|%[0-9A-F]{2}|~)*/part-${slice.id}-000000\\.parquet$`))
    }
    // no two folders differ only by case: one folder per value on a case-insensitive filesystem too
    expect(new Set(parts.map((p) => p.toLowerCase())).size).toBe(HOSTILE.length)
    expect(await filesBelow(path.join(out, "_staging"))).toEqual([])
  })

  it("given the catalog, when each value is read back from its path, then it equals the value sent (long ones shortened but apart)", async () => {
    const rows = await query(
      path.join(out, "catalog.duckdb"),
      `SELECT chain_id, chain_id_copy, chain_id IS NULL AS is_null, count(*)::INTEGER AS n FROM test_hostile GROUP BY ALL ORDER BY chain_id_copy COLLATE "C"`
    )
    const perValue = (i: number) => Math.floor(100 / HOSTILE.length) + (i < 100 % HOSTILE.length ? 1 : 0)
    const expected = HOSTILE.map((v, i) => ({ v, n: perValue(i) })).sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : 0))
    expect(rows.map((r) => ({ v: r["chain_id_copy"], n: r["n"], is_null: r["is_null"] }))).toEqual(expected.map((e) => ({ ...e, is_null: false })))
    for (const r of rows) {
      const sent = String(r["chain_id_copy"])
      if (shortened(sent)) expect(String(r["chain_id"])).toMatch(/~[0-9a-f]{16}$/)
      else expect({ sent, read: r["chain_id"] }).toEqual({ sent, read: sent })
    }
  })
})
