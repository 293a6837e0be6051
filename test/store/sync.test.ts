/**
 * The working copy ⇄ bucket sync (src/store/Sync.ts) over an in-memory object store: what is
 * uploaded, in which order, what is deleted on either side and what is never touched.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempFolders } from "../support/fixtures.ts"
import { memoryObjects } from "../../src/store/MemoryObjects.ts"
import { pool, pull, push, type SyncTarget } from "../../src/store/Sync.ts"

const write = async (dir: string, rel: string, text: string) => {
  const file = path.join(dir, ...rel.split("/"))
  await fs.mkdir(path.dirname(file), { recursive: true })
  await fs.writeFile(file, text)
}

const tempDir = tempFolders("sync")

const setup = async () => {
  const dir = await tempDir()
  const store = memoryObjects()
  const target: SyncTarget = { client: store.client, dir, keyOf: (rel) => `pre/${rel}`, listPrefix: "pre/" }
  return { dir, store, target }
}

describe("pushing a working copy to a bucket", () => {
  it("given parts, a compacted file, its manifest, a run report, a catalog and local-only files, when pushed, then data goes before manifests before reports, the catalog names s3:// URLs, and nothing local-only is uploaded", async () => {
    const { dir, store, target } = await setup()
    await write(dir, "delegators/network=mainnet/part-a-000000.parquet", "p0")
    await write(dir, "delegators/network=mainnet/compact-0123456789abcdef.parquet", "c0")
    await write(dir, "_state/manifests/delegators.json", JSON.stringify({ version: 1, dataset: "delegators", files: [{ file: "network=mainnet/compact-0123456789abcdef.parquet", rows: 1, bytes: 2, replaces: [] }] }))
    await write(dir, "_state/output-id", "id\n")
    await write(dir, "_runs/r1.json", "{}")
    await write(dir, "catalog.sql", `-- header\nCREATE VIEW v AS SELECT * FROM read_parquet('${dir}/delegators/**/*.parquet');\n`)
    for (const local of ["catalog.duckdb", "_staging/x.parquet", "_state/writer.lock", "_state/checkpoints/d/s.json", "_runs/r2.json.tmp-123"]) await write(dir, local, "local")

    const stats = await push(target, "s3://b/pre")

    const puts = store.log.filter((l) => l.startsWith("put ")).map((l) => l.slice("put pre/".length))
    const at = (rel: string) => puts.indexOf(rel)
    expect(at("_state/manifests/delegators.json")).toBeGreaterThan(at("delegators/network=mainnet/compact-0123456789abcdef.parquet"))
    expect(at("_runs/r1.json")).toBeGreaterThan(at("_state/manifests/delegators.json"))
    expect(at("catalog.sql")).toBe(puts.length - 1)
    expect([...store.objects.keys()].sort()).toEqual(
      ["_runs/r1.json", "_state/manifests/delegators.json", "_state/output-id", "catalog.sql", "delegators/network=mainnet/compact-0123456789abcdef.parquet", "delegators/network=mainnet/part-a-000000.parquet"].map((k) => `pre/${k}`)
    )
    const sql = store.objects.get("pre/catalog.sql")!.toString("utf8")
    expect(sql).toContain("read_parquet('s3://b/pre/delegators/**/*.parquet')")
    expect(sql).not.toContain(dir)
    expect(stats.deleted).toBe(0)

    // unchanged files are not sent again
    store.log.length = 0
    await push(target, "s3://b/pre")
    expect(store.log).toEqual(["put pre/catalog.sql"])
  })

  it("given parts replaced by a compacted file and deleted from the working copy, when pushed, then the compacted file and the manifest go first and the replaced parts are deleted last; an object no manifest makes dead, the output id and objects chainetl did not write are kept", async () => {
    const { dir, store, target } = await setup()
    await write(dir, "t/d=1/part-a-000000.parquet", "p0")
    await write(dir, "t/d=1/part-a-000001.parquet", "p1")
    await write(dir, "_state/output-id", "id\n")
    await push(target, "s3://b/pre")
    // put after this copy's pull (by another process, or by hand): not this copy's to delete
    store.objects.set("pre/t/d=1/part-b-000000.parquet", Buffer.from("theirs"))
    store.objects.set("pre/README.txt", Buffer.from("someone else's"))
    // compaction: a merged file, the manifest naming the parts it replaces, then the parts deleted
    await write(dir, "t/d=1/compact-0123456789abcdef.parquet", "c")
    await write(dir, "_state/manifests/t.json", JSON.stringify({ version: 1, dataset: "t", files: [{ file: "d=1/compact-0123456789abcdef.parquet", rows: 2, bytes: 1, replaces: [{ slice: "a", from: 0, to: 1 }] }] }))
    await fs.rm(path.join(dir, "t/d=1/part-a-000000.parquet"))
    await fs.rm(path.join(dir, "t/d=1/part-a-000001.parquet"))
    await fs.rm(path.join(dir, "_state/output-id"))
    store.log.length = 0
    await push(target, "s3://b/pre")
    expect(store.log).toEqual([
      "put pre/t/d=1/compact-0123456789abcdef.parquet",
      "put pre/_state/manifests/t.json",
      "delete pre/t/d=1/part-a-000000.parquet",
      "delete pre/t/d=1/part-a-000001.parquet"
    ])
    for (const kept of ["pre/README.txt", "pre/_state/output-id", "pre/t/d=1/part-b-000000.parquet"]) expect(store.objects.has(kept), kept).toBe(true)

    // a later compaction supersedes the compacted file: the one no manifest lists is dead
    await fs.rm(path.join(dir, "t/d=1/compact-0123456789abcdef.parquet"))
    await write(dir, "t/d=1/compact-fedcba9876543210.parquet", "c2")
    await write(dir, "_state/manifests/t.json", JSON.stringify({ version: 1, dataset: "t", files: [{ file: "d=1/compact-fedcba9876543210.parquet", rows: 2, bytes: 2, replaces: [{ slice: "a", from: 0, to: 1 }] }] }))
    store.log.length = 0
    await push(target, "s3://b/pre")
    expect(store.log).toEqual(["put pre/t/d=1/compact-fedcba9876543210.parquet", "put pre/_state/manifests/t.json", "delete pre/t/d=1/compact-0123456789abcdef.parquet"])
  })
})

describe("pulling a bucket into a working copy", () => {
  it("given a copy holding a file the bucket lacks (uploaded never) and an older manifest, when pulled, then the copy equals the bucket and its local-only files stay", async () => {
    const { dir, store, target } = await setup()
    store.objects.set("pre/t/part-a-000000.parquet", Buffer.from("p0"))
    store.objects.set("pre/_state/manifests/t.json", Buffer.from('{"v":2}'))
    store.objects.set("pre/notes.txt", Buffer.from("not ours"))
    await write(dir, "_state/manifests/t.json", '{"v":1}')
    await write(dir, "t/compact-0123456789abcdef.parquet", "never uploaded")
    await write(dir, "catalog.duckdb", "local")

    const stats = await pull(target)

    expect(stats).toMatchObject({ transferred: 2, deleted: 1 })
    expect(await fs.readFile(path.join(dir, "_state/manifests/t.json"), "utf8")).toBe('{"v":2}')
    expect(await fs.readFile(path.join(dir, "t/part-a-000000.parquet"), "utf8")).toBe("p0")
    expect(await fs.stat(path.join(dir, "t/compact-0123456789abcdef.parquet")).catch(() => undefined)).toBeUndefined()
    expect(await fs.readFile(path.join(dir, "catalog.duckdb"), "utf8")).toBe("local")
    expect(await fs.stat(path.join(dir, "notes.txt")).catch(() => undefined)).toBeUndefined()

    // a second pull transfers nothing
    store.log.length = 0
    expect(await pull(target)).toMatchObject({ transferred: 0, deleted: 0 })
  })
})

describe("the upload pool", () => {
  it("given one item that fails while another is still in flight, when the pool runs, then it rejects only after the one in flight has settled, and starts nothing after the failure", async () => {
    const settled: Array<string> = []
    let releaseSlow: () => void = () => undefined
    const slowRelease = new Promise<void>((release) => (releaseSlow = release))
    const work = async (item: string): Promise<void> => {
      if (item === "bad") throw new Error("refused")
      if (item === "slow") await slowRelease
      settled.push(item)
    }
    const ran = pool(["slow", "bad", "late-1", "late-2"], 2, work).then(
      () => "resolved",
      (e: Error) => `rejected: ${e.message}`
    )
    const early = await Promise.race([ran, new Promise((r) => setTimeout(() => r("pending"), 20))])
    expect(early).toBe("pending")
    releaseSlow()
    expect(await ran).toBe("rejected: refused")
    expect(settled).toEqual(["slow"])
  })
})
