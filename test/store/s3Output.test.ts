/**
 * `--out s3://bucket/prefix` end to end, with real components: s3rver in this process, a real
 * PostgreSQL (checkpoints and the writer lock), the CLI as child processes crawling its own
 * in-process emulator. The bucket's objects are read back through the SDK and compared with a
 * folder run of the same job (EXCEPT ALL both ways, DuckDB over the downloaded files).
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { fileSet } from "../../src/compact/Manifest.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { CAMPAIGN_DATASETS, writeCampaignJob } from "../reliability/campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type CliExit, runArgs, runCli, startCli } from "../reliability/cli.ts"
import { compareCatalogs, type DatasetDiff } from "../reliability/compare.ts"
import { PG_PASSWORD, type RunningPostgres, startPostgres } from "../support/postgres.ts"
import { type RunningS3, S3_BUCKET, S3_SECRET, startS3 } from "../support/s3.ts"

const SEED = 3

const query = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.provide(pgDatabase(Redacted.make(pg.url)))) as Effect.Effect<ReadonlyArray<A>, never>)
const API_KEY = "k-s3-test-ApiKey-5b9e2d"

const s3Dir = tempFolders("s3-output")
let pg: RunningPostgres
let s3: RunningS3
let dir: string
let job: string
/** The same crawl into a folder: what every bucket must equal. */
let reference: string
let referenceDone: Promise<void>

const env = (extra: Record<string, string> = {}) => ({
  ...s3.env,
  CHAINETL_STATE_URL: pg.url,
  CHAINETL_STAGING_DIR: path.join(dir, "staging"),
  CHAINETL_API_KEY: API_KEY,
  ...extra
})

/**
 * Parts of 60 rows: every part is an object stored by s3rver (the file's main cost), yet delegators
 * still has four parts (seed 3), so the crash test has a third part to be killed at.
 */
const crawlArgs = (out: string, ...extra: string[]) => [...runArgs({ datasets: CAMPAIGN_DATASETS, job, out, partRows: 60, emulatorSeed: SEED }), "--quiet", ...extra]

/** The prefix's objects downloaded through the SDK, a catalog built over the copies, compared with the reference. */
const compareBucket = async (prefix: string): Promise<{ diffs: DatasetDiff[]; keys: string[]; copy: string }> => {
  await referenceDone
  const copy = await fs.mkdtemp(path.join(dir, "download-"))
  const keys = await s3.download(prefix, copy)
  await Effect.runPromise(buildCatalog(copy, catalogEntries()))
  return { diffs: await compareCatalogs(copy, reference), keys: keys.map((k) => k.slice(prefix.length + 1)), copy }
}

const expectEqual = (diffs: ReadonlyArray<DatasetDiff>) => {
  for (const d of diffs) expect({ dataset: d.dataset, onlyBucket: d.onlyA, onlyFolder: d.onlyB, rows: d.rowsA }).toEqual({ dataset: d.dataset, onlyBucket: 0, onlyFolder: 0, rows: d.rowsB })
  for (const name of CAMPAIGN_DATASETS) expect(diffs.find((d) => d.dataset === name)?.rowsB, name).toBeGreaterThan(0)
}

const ok = (exit: CliExit) => expect({ code: exit.code, stderr: exit.stderr.split("\n").filter((l) => !/NodeVersionSupportWarning|node >=22|first week of January|upgrade to node|a\.co\/|trace-warnings|^To continue|^$/.test(l)) }).toEqual({ code: 0, stderr: [] })

/** Starts the CLI and SIGKILLs it the moment the server has stored the `nth` object whose key matches. */
const killWhenStored = async (args: ReadonlyArray<string>, key: RegExp, nth: number): Promise<CliExit> => {
  let seen = 0
  const victim = startCli(args, env())
  const kill = (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => {
    const r = event.Records[0]!
    // s3rver emits this after storing the object and before answering the request
    if (r.eventName.startsWith("ObjectCreated") && key.test(decodeURIComponent(r.s3.object.key)) && ++seen === nth) victim.kill()
  }
  s3.server.on("event", kill)
  try {
    return await victim.exited
  } finally {
    s3.server.off("event", kill)
  }
}

beforeAll(async () => {
  ;[pg, s3, dir] = await Promise.all([startPostgres(), startS3(), s3Dir()])
  job = path.join(dir, "job.json")
  await writeCampaignJob(SEED, job)
  reference = path.join(dir, "folder")
  // crawled beside the first bucket run; every comparison waits for it
  referenceDone = runCli(crawlArgs(reference), { CHAINETL_API_KEY: API_KEY }).then((made) => {
    if (made.code !== 0) throw new Error(`reference run exited ${made.code}: ${made.stderr}`)
  })
}, 120_000)

afterAll(async () => {
  await s3?.stop()
  await pg?.stop()
})

describe("chainetl run --out s3://…", () => {
  it("given a crawl into a bucket prefix, when its objects are read back through the SDK, then they equal a folder run of the same job, keys follow the folder layout, and no credential or key is in any object or log", async () => {
    const first = await runCli(crawlArgs(`s3://${S3_BUCKET}/night`), env())
    ok(first)
    const { diffs, keys } = await compareBucket("night")
    expectEqual(diffs)
    // the same relative paths as a folder output: datasets' parts, the id, manifests, run reports, the catalog
    expect(keys).toContain("_state/output-id")
    expect(keys).toContain("catalog.sql")
    expect(keys.some((k) => /^delegators\/network=mainnet\/snapshot_date=[0-9-]+\/part-[a-z0-9_-]+-000000\.parquet$/.test(k))).toBe(true)
    expect(keys.filter((k) => k.startsWith("_runs/") && k.endsWith(".json"))).toHaveLength(1)
    // nothing of this machine's: staging, checkpoints, lock, local catalog
    expect(keys.filter((k) => /^(_staging\/|_state\/checkpoints\/|_state\/writer\.lock|catalog\.duckdb)/.test(k))).toEqual([])
    // the bucket's catalog reads the bucket, never the working copy
    const sql = (await s3.bytes("night/catalog.sql")).toString("utf8")
    expect(sql).toContain(`read_parquet('s3://${S3_BUCKET}/night/delegators/**/*.parquet'`)
    expect(sql).not.toContain(path.join(dir, "staging"))
    // secrets: in no object, no output line
    for (const key of keys) {
      const bytes = await s3.bytes(`night/${key}`)
      for (const secret of [S3_SECRET, API_KEY, PG_PASSWORD]) expect(bytes.includes(secret), `${secret} in ${key}`).toBe(false)
    }
    for (const text of [first.stdout, first.stderr]) for (const secret of [S3_SECRET, API_KEY, PG_PASSWORD]) expect(text).not.toContain(secret)

    // a second run the same night changes no row (finished slices are skipped, nothing doubled)
    ok(await runCli(crawlArgs(`s3://${S3_BUCKET}/night`), env()))
    expectEqual((await compareBucket("night")).diffs)

    // the mirror: the bucket's files in a folder of ours, a DuckDB catalog over them
    const mirror = path.join(dir, "mirror")
    const mirrored = await runCli(["catalog", "--out", `s3://${S3_BUCKET}/night`, "--mirror", mirror], env())
    ok(mirrored)
    expect(mirrored.stdout).toContain(path.join(mirror, "catalog.duckdb"))
    const mirrorDiffs = await compareCatalogs(mirror, reference)
    expectEqual(mirrorDiffs)
    expect(await fs.readFile(path.join(mirror, "catalog.s3.sql"), "utf8")).toContain(`s3://${S3_BUCKET}/night/`)

    // status reads the bucket (a private copy) and the state in PostgreSQL: every slice done, the rows of the views
    const status = await runCli(["status", "--out", `s3://${S3_BUCKET}/night`, "--json"], env())
    ok(status)
    const parsed = JSON.parse(status.stdout) as { datasets: Array<{ dataset: string; failed: number; rows: number | null }> }
    const delegators = parsed.datasets.find((d) => d.dataset === "delegators")
    expect(delegators).toMatchObject({ failed: 0, rows: mirrorDiffs.find((d) => d.dataset === "delegators")!.rowsB })
    // verify reads the bucket (a private copy) and the checkpoints in PostgreSQL: the crawl is whole
    const verified = await runCli(["verify", "--out", `s3://${S3_BUCKET}/night`, "--job", job, "--json"], env())
    const verdict = JSON.parse(verified.stdout) as { ok: boolean; findings: ReadonlyArray<unknown>; datasets: ReadonlyArray<{ dataset: string; rows: string }> }
    expect({ code: verified.code, ok: verdict.ok, findings: verdict.findings }).toEqual({ code: 0, ok: true, findings: [] })
    expect(verdict.datasets.find((d) => d.dataset === "delegators")?.rows).toBe(String(mirrorDiffs.find((d) => d.dataset === "delegators")!.rowsB))
    // DDL for other engines points at the bucket by default
    const ddl = await runCli(["catalog", "--out", `s3://${S3_BUCKET}/night`, "--ddl", "trino"], env())
    ok(ddl)
    expect(ddl.stdout).toContain(`s3://${S3_BUCKET}/night/delegators`)
  }, 240_000)

  it("given a run killed the moment one of its parts reached the bucket (before its checkpoint), when it is run again, then the bucket equals the folder run: no row lost or doubled", async () => {
    const out = `s3://${S3_BUCKET}/crash`
    // the third part of delegators: the server has stored it, the CLI has not heard back yet
    const killed = await killWhenStored(crawlArgs(out), /^crash\/delegators\/.+\/part-/, 3)
    expect(killed.signal).toBe("SIGKILL")
    // the bucket holds a part its checkpoint in PostgreSQL does not cover: data first, checkpoint second
    const id = (await s3.bytes("crash/_state/output-id")).toString("utf8").trim()
    const [checkpoint] = await query<{ state: { lastSeq: number; slice: string } }>(
      (sql) => sql`SELECT state FROM chainetl_checkpoints WHERE output_id = ${id} AND dataset = 'delegators'`
    )
    expect(checkpoint).toBeDefined()
    const seqs = (await s3.keys("crash")).filter((k) => k.startsWith("delegators/") && k.includes(`/part-${checkpoint!.state.slice}-`)).map((k) => Number(/-(\d{6})\.parquet$/.exec(k)![1]))
    expect(Math.max(...seqs)).toBeGreaterThan(checkpoint!.state.lastSeq)

    ok(await runCli(crawlArgs(out), env()))
    expectEqual((await compareBucket("crash")).diffs)
  }, 240_000)

  it("given an uncompacted bucket, when chainetl compact is killed once its first manifest is stored and then runs again, then the bucket reads every row exactly once at the kill and after, merged objects and manifests are there and the parts they replace are gone", async () => {
    const out = `s3://${S3_BUCKET}/compact`
    ok(await runCli(crawlArgs(out, "--no-compact"), env()))
    const before = await s3.keys("compact")
    // killed the moment its first manifest is in the bucket: merged objects there, the parts they replace not yet deleted
    const killed = await killWhenStored(["compact", "--out", out, "--quiet"], /^compact\/_state\/manifests\//, 1)
    expect(killed.signal).toBe("SIGKILL")
    const midway = await compareBucket("compact")
    expect(midway.keys.some((k) => /\/compact-[0-9a-f]{16}\.parquet$/.test(k))).toBe(true)
    expectEqual(midway.diffs)
    // run again, to the end
    ok(await runCli(["compact", "--out", out, "--quiet"], env()))
    const { diffs, keys, copy } = await compareBucket("compact")
    expectEqual(diffs)
    const compacted = keys.filter((k) => /\/compact-[0-9a-f]{16}\.parquet$/.test(k))
    expect(compacted.length).toBeGreaterThan(0)
    expect(keys.filter((k) => k.endsWith(".parquet")).length).toBeLessThan(before.filter((k) => k.endsWith(".parquet")).length)
    // every compacted object is listed by its table's manifest, and none of the parts they replace is left
    const manifests = keys.filter((k) => k.startsWith("_state/manifests/")).map((k) => path.posix.basename(k, ".json"))
    expect(manifests.length).toBeGreaterThan(0)
    const sets = await Promise.all(manifests.map((table) => fileSet(copy, table)))
    expect(sets.flatMap((s) => s.compacted).map((f) => path.relative(copy, f)).sort()).toEqual([...compacted].sort())
    expect(sets.flatMap((s) => [...s.replaced, ...s.orphans])).toEqual([])
  }, 240_000)
})

describe("bad settings for an s3:// output", () => {
  const refused = async (extra: Record<string, string>, drop: ReadonlyArray<string> = []) => {
    const e = { ...env(), ...extra }
    for (const k of drop) delete (e as Record<string, string>)[k]
    return runCli(["run", "delegators", "--emulator", "--out", `s3://${S3_BUCKET}/bad`, "--quiet"], e)
  }

  it("given no CHAINETL_STATE_URL, a path style that is not a boolean, an endpoint that is no URL, a bucket that does not exist or an unknown access key, when a run starts, then it exits 2 naming the setting and writes nothing (and query on a bucket points to the mirror)", async () => {
    const noState = await refused({}, ["CHAINETL_STATE_URL"])
    expect(noState.code).toBe(2)
    expect(noState.stderr).toContain("CHAINETL_STATE_URL")
    const style = await refused({ CHAINETL_S3_FORCE_PATH_STYLE: "maybe" })
    expect(style.code).toBe(2)
    expect(style.stderr).toContain("CHAINETL_S3_FORCE_PATH_STYLE")
    const endpoint = await refused({ CHAINETL_S3_ENDPOINT: "localhost:9000" })
    expect(endpoint.code).toBe(2)
    expect(endpoint.stderr).toContain("CHAINETL_S3_ENDPOINT")
    const bucket = await runCli(["run", "delegators", "--emulator", "--out", "s3://no-such-bucket/x", "--quiet"], env())
    expect(bucket.code).toBe(2)
    expect(bucket.stderr).toContain("--out")
    const key = await refused({ AWS_ACCESS_KEY_ID: "NOT-A-KEY" })
    expect(key.code).toBe(2)
    expect(key.stderr).toContain("credentials")
    // query reads a local catalog: it names the mirror as the way
    const query = await runCli(["query", "--out", `s3://${S3_BUCKET}/bad`, "SELECT 1"], env())
    expect(query.code).toBe(2)
    expect(query.stderr).toContain("--mirror")
    for (const r of [noState, style, endpoint, bucket, key, query]) expect(r.stderr).not.toContain(S3_SECRET)
    expect(await s3.keys("bad")).toEqual([])
  }, 120_000)
})
