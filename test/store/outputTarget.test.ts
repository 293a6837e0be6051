/**
 * `--out s3://…` and the bucket's settings from the environment: what is accepted, and what is
 * refused naming the flag or variable and the fix.
 */
import { ConfigProvider, Effect, Either } from "effect"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { keyOf, loadS3Settings, parseBucketUrl, type BucketTarget } from "../../src/store/OutputTarget.ts"

const target = (url: string): BucketTarget => Either.getOrThrow(parseBucketUrl(url, "--out"))

const settings = (env: Record<string, string>, url = "s3://bucket/pre") =>
  Effect.runSync(Effect.either(loadS3Settings(target(url)).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))

describe("s3:// output URLs", () => {
  it("given URLs with and without a prefix and trailing slashes, when parsed, then bucket and prefix are split and keys follow the folder layout", () => {
    expect(target("s3://my-bucket/chainetl/prod/")).toMatchObject({ bucket: "my-bucket", prefix: "chainetl/prod", url: "s3://my-bucket/chainetl/prod" })
    expect(target("s3://my-bucket")).toMatchObject({ bucket: "my-bucket", prefix: "" })
    expect(keyOf(target("s3://b12/p"), path.join("delegators", "network=mainnet", "part-x-000000.parquet"))).toBe("p/delegators/network=mainnet/part-x-000000.parquet")
    expect(keyOf(target("s3://b12"), "_state/output-id")).toBe("_state/output-id")
  })

  it("given a bad bucket name or a prefix with '..', when parsed, then it is refused naming --out", () => {
    for (const bad of ["s3://", "s3://UPPER/x", "s3://a/x", "s3://bucket/a/../b", "s3://bucket/a//b"]) {
      const parsed = parseBucketUrl(bad, "--out")
      expect(Either.isLeft(parsed), bad).toBe(true)
      if (Either.isLeft(parsed)) expect(parsed.left.field).toBe("--out")
    }
  })
})

describe("the bucket's settings", () => {
  it("given only an endpoint, when loaded, then path-style is on, the region defaults to us-east-1 and the working copy is one folder per endpoint and prefix", () => {
    const a = Either.getOrThrow(settings({ CHAINETL_S3_ENDPOINT: "http://127.0.0.1:9000/", CHAINETL_STAGING_DIR: "/var/tmp/stage" }))
    expect(a).toMatchObject({ endpoint: "http://127.0.0.1:9000", region: "us-east-1", forcePathStyle: true })
    expect(path.dirname(a.workDir)).toBe("/var/tmp/stage")
    const b = Either.getOrThrow(settings({ CHAINETL_S3_ENDPOINT: "http://127.0.0.1:9001", CHAINETL_STAGING_DIR: "/var/tmp/stage" }))
    expect(b.workDir).not.toBe(a.workDir)
    expect(Either.getOrThrow(settings({ AWS_REGION: "eu-west-1" }))).toMatchObject({ endpoint: undefined, region: "eu-west-1", forcePathStyle: false })
  })

  it("given an endpoint that is no URL or carries a password, a path style that is no boolean, a relative staging folder, when loaded, then each names its variable", () => {
    const field = (env: Record<string, string>) => {
      const r = settings(env)
      return Either.isLeft(r) ? r.left.field : "accepted"
    }
    expect(field({ CHAINETL_S3_ENDPOINT: "localhost:9000" })).toBe("CHAINETL_S3_ENDPOINT")
    expect(field({ CHAINETL_S3_ENDPOINT: "http://user:pw@host:9000" })).toBe("CHAINETL_S3_ENDPOINT")
    expect(field({ CHAINETL_S3_FORCE_PATH_STYLE: "maybe" })).toBe("CHAINETL_S3_FORCE_PATH_STYLE")
    expect(field({ CHAINETL_STAGING_DIR: "relative/dir" })).toBe("CHAINETL_STAGING_DIR")
    expect(field({ AWS_REGION: "Not A Region" })).toBe("AWS_REGION")
    const pw = settings({ CHAINETL_S3_ENDPOINT: "http://user:hunter2@host:9000" })
    expect(Either.isLeft(pw) && pw.left.message.includes("hunter2")).toBe(false)
  })
})
