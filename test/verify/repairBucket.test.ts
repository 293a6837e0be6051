/**
 * Issue 41: verify --repair on an output in a bucket (`--out s3://…`; s3rver started here, the
 * checkpoints and writer lock in the embedded PostgreSQL, as a bucket output requires). The bucket
 * is crawled from the emulator (P-chain blocks of four days in day windows, P-chain heights 0–29);
 * one part object gets a row twice, another is deleted. verify names both re-crawls, --repair runs
 * them against the bucket (the refetch deletes the window's objects, then crawls it again) and the
 * bucket's objects, read back through the SDK, hold the rows of an untouched folder crawl. The
 * printed refetch is first run by hand with the service unreachable: the window's objects are gone
 * from the bucket though its crawl failed, and --repair then crawls it.
 */
import { DeleteObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3"
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { compareCatalogs } from "../reliability/compare.ts"
import { type CliExit, runCli } from "../reliability/cli.ts"
import { crawledOnce } from "../support/crawledOnce.ts"
import { printedRecrawls, rewriteParquet } from "../support/plantedFaults.ts"
import { type RunningPostgres, startPostgres } from "../support/postgres.ts"
import { type RunningS3, S3_BUCKET, startS3 } from "../support/s3.ts"
import { query } from "../support/spine.ts"

const PREFIX = "nightly"
const URL_OUT = `s3://${S3_BUCKET}/${PREFIX}`
/** A second crawl, compacted in the bucket. */
const COMPACTED_PREFIX = "compacted"
const COMPACTED_OUT = `s3://${S3_BUCKET}/${COMPACTED_PREFIX}`

const clean = [
  ["node_p_blocks", 30, 0, 0],
  ["primary_blocks", 31, 0, 0]
]

/** The file's PostgreSQL and s3rver: started before its tests, stopped after them. */
let pg: RunningPostgres
let s3: RunningS3
beforeAll(async () => {
  ;[pg, s3] = await Promise.all([startPostgres(), startS3()])
}, 240_000)
afterAll(async () => {
  await s3?.stop()
  await pg?.stop()
})

/** An untouched folder crawl and the two bucket crawls (`URL_OUT`, `COMPACTED_OUT`), and the CLI as a process against the file's emulator with its job: the bucket's variables and state unless `bucket` is false. */
const it = crawledOnce("repair-bucket", {}, async ({ out: base, env: toEmulator, jobFile, folder }) => {
  const dir = await folder("repair-bucket")
  const job = await jobFile({ networks: ["mainnet"], primaryBlockchains: ["p-chain"], incremental: { primary_blocks: { window: "1d", since: "2024-12-29" } } })
  const env = (bucket: boolean) => ({ ...toEmulator, ...(bucket ? { ...s3.env, CHAINETL_STATE_URL: pg.url, CHAINETL_STAGING_DIR: path.join(dir, "staging") } : {}) })
  const cli = (args: ReadonlyArray<string>, bucket = true): Promise<CliExit> => runCli(args, env(bucket))
  const crawl = async (out: string, bucket: boolean) => {
    for (const args of [
      ["backfill", "primary_blocks", "--from", "2024-12-29", "--to", "2025-01-02", "--window", "1d"],
      ["backfill", "node_p_blocks", "--from", "0", "--to", "30", "--window", "10"]
    ]) {
      const r = await cli([...args, "--job", job, "--out", out, "--quiet"], bucket)
      if (r.code !== 0) throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`)
    }
  }
  /** The bucket's objects downloaded, a catalog built over them. */
  const downloaded = async (prefix = PREFIX) => {
    const copy = await fs.mkdtemp(path.join(dir, "download-"))
    const keys = await s3.download(prefix, copy)
    await Effect.runPromise(buildCatalog(copy, catalogEntries()))
    return { copy, keys: keys.map((k) => k.slice(prefix.length + 1)) }
  }
  const differences = async (copy: string) =>
    (await compareCatalogs(base, copy)).filter((d) => d.dataset === "primary_blocks" || d.dataset === "node_p_blocks").map((d) => [d.dataset, d.rowsA, d.onlyA, d.onlyB])
  await Promise.all([crawl(base, false), crawl(URL_OUT, true), crawl(COMPACTED_OUT, true)])
  return { job, env, cli, downloaded, differences }
})

// the first test that asks for the crawls also waits for them
describe("verify --repair on an s3:// output", () => {
  it("given a part object with a row twice and another deleted, when verified, then both re-crawls are named with the bucket; the printed refetch deletes the window's objects even when its crawl then fails, and --repair crawls the window and the heights again to the untouched rows", async ({ crawled: { job, env, cli, downloaded, differences } }) => {
    const window = "2024-12-30t00-00-00z-mainnet-2024-12-31"
    const { copy, keys } = await downloaded()
    const ofWindow = (all: ReadonlyArray<string>) => all.filter((k) => k.startsWith("primary_blocks/") && path.posix.basename(k).includes(window))
    const doubledKey = ofWindow(keys)[0]!
    const doubledFile = path.join(copy, ...doubledKey.split("/"))
    const hash = (await query(path.join(copy, "catalog.duckdb"), `SELECT min(block_hash) AS h FROM read_parquet('${doubledFile}', hive_partitioning = false)`))[0]!["h"]
    await rewriteParquet(doubledFile, (r) => `SELECT * FROM ${r} UNION ALL SELECT * FROM ${r} WHERE block_hash = '${hash}'`)
    await s3.client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: `${PREFIX}/${doubledKey}`, Body: await fs.readFile(doubledFile) }))
    // a node_p_blocks part of the middle heights: neither genesis nor the top
    const nodeParts = await Promise.all(
      keys
        .filter((k) => k.startsWith("node_p_blocks/") && k.endsWith(".parquet"))
        .map(async (key) => {
          const [s] = await query(path.join(copy, "catalog.duckdb"), `SELECT min(height)::INTEGER AS lo, max(height)::INTEGER AS hi FROM read_parquet('${path.join(copy, ...key.split("/"))}', hive_partitioning = false)`)
          return { key, lo: Number(s!["lo"]), hi: Number(s!["hi"]) }
        })
    )
    const gone = nodeParts.find((p) => p.lo > 0 && p.hi < 29)!
    await s3.client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: `${PREFIX}/${gone.key}` }))

    const r = await cli(["verify", "--out", URL_OUT, "--job", job])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^FAIL primary_blocks exactly-once: key \\(network=mainnet, blockchain=p-chain, month=2024-12, block_hash=${hash}\\) is 2 times in primary_blocks `, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-30 --to 2024-12-31 --window 1d --refetch --out ${URL_OUT} --job ${job}`)
    expect(r.stdout).toMatch(new RegExp(`^FAIL node_p_blocks network=mainnet heights: heights ${gone.lo}-${gone.hi} are missing`, "m"))
    expect(r.stdout).toContain(`re-crawl: chainetl backfill node_p_blocks --from ${gone.lo} --to ${gone.hi + 1} --out ${URL_OUT} --job ${job}`)

    // the refetch by hand, its crawl failing (nothing listens there): the window's objects were deleted first
    const refetch = printedRecrawls(r.stdout).find((args) => args.includes("--refetch"))!
    const dead = await runCli(refetch, { ...env(true), CHAINETL_BASE_URL: "http://127.0.0.1:9", CHAINETL_MAX_RETRIES: "0" })
    expect(dead.code).not.toBe(0)
    expect(ofWindow(await s3.keys(PREFIX))).toEqual([])

    const repaired = await cli(["verify", "--out", URL_OUT, "--job", job, "--repair"])
    expect({ code: repaired.code, stdout: repaired.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining("after --repair:") })
    const after = await downloaded()
    expect(ofWindow(after.keys)).toEqual(ofWindow(keys))
    expect(await differences(after.copy)).toEqual(clean)
  }, 400_000)
  it("given December's windows compacted in the bucket and a parent_hash altered in the compacted object, when verify --repair runs, then the three windows are refetched whole: the compacted object is out of the manifest object and deleted, and the bucket holds the untouched rows", async ({ crawled: { job, cli, downloaded, differences } }) => {
    const compacted = await cli(["compact", "primary_blocks", "--out", COMPACTED_OUT, "--quiet"])
    expect(compacted.code).toBe(0)
    const { copy, keys } = await downloaded(COMPACTED_PREFIX)
    const manifest = JSON.parse(await fs.readFile(path.join(copy, "_state", "manifests", "primary_blocks.json"), "utf8")) as { files: Array<{ file: string }> }
    const december = manifest.files.find((f) => f.file.includes("month=2024-12"))!.file
    const key = `primary_blocks/${december}`
    expect(keys).toContain(key)
    const file = path.join(copy, ...key.split("/"))
    const top = (await query(path.join(copy, "catalog.duckdb"), `SELECT max(block_number)::VARCHAR AS h FROM read_parquet('${file}', hive_partitioning = false)`))[0]!["h"]
    await rewriteParquet(file, (r) => `SELECT * REPLACE (CASE WHEN block_number = ${top} THEN 'not-the-parent' ELSE parent_hash END AS parent_hash) FROM ${r}`)
    await s3.client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: `${COMPACTED_PREFIX}/${key}`, Body: await fs.readFile(file) }))

    const repaired = await cli(["verify", "--out", COMPACTED_OUT, "--job", job, "--repair"])
    expect(repaired.stdout).toContain(`re-crawl: chainetl backfill primary_blocks --from 2024-12-29 --to 2025-01-01 --window 1d --refetch --out ${COMPACTED_OUT} --job ${job}`)
    expect({ code: repaired.code, after: repaired.stdout.includes("after --repair:") }).toEqual({ code: 0, after: true })
    const after = await downloaded(COMPACTED_PREFIX)
    expect(after.keys).not.toContain(key)
    const listed = JSON.parse(await fs.readFile(path.join(after.copy, "_state", "manifests", "primary_blocks.json"), "utf8")) as { files: Array<{ file: string }> }
    expect(listed.files.map((f) => f.file)).not.toContain(december)
    expect(await differences(after.copy)).toEqual(clean)
  }, 400_000)
})
