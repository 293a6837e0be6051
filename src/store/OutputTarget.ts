/**
 * Where a command's output lives: a local folder (the embedded default) or a bucket prefix,
 * `--out s3://bucket/prefix`. For a bucket, the settings come from the environment and are checked
 * here, before anything is started or written: a bad one names its variable and the fix (exit 2).
 *
 * This module loads no SDK: `status` and the folder commands import it, and must stay light.
 */
import { Config, Effect, Either, Option } from "effect"
import { createHash } from "node:crypto"
import * as os from "node:os"
import * as path from "node:path"
import { ConfigError } from "../Errors.ts"

export const S3_ENDPOINT_ENV = "CHAINETL_S3_ENDPOINT"
export const S3_PATH_STYLE_ENV = "CHAINETL_S3_FORCE_PATH_STYLE"
export const STAGING_DIR_ENV = "CHAINETL_STAGING_DIR"
export const REGION_ENV = "AWS_REGION"
const REGION_FALLBACK_ENV = "AWS_DEFAULT_REGION"
export const DEFAULT_REGION = "us-east-1"

export interface BucketTarget {
  readonly kind: "bucket"
  /** `s3://bucket/prefix` as given, without a trailing slash. */
  readonly url: string
  readonly bucket: string
  /** No leading or trailing slash; "" for the bucket's root. */
  readonly prefix: string
}

export interface FolderTarget {
  readonly kind: "folder"
  readonly dir: string
}

export type OutputTarget = FolderTarget | BucketTarget

export interface S3Settings {
  /** An S3-compatible server's root (MinIO, Ceph, s3rver); undefined for AWS itself. */
  readonly endpoint: string | undefined
  readonly region: string
  readonly forcePathStyle: boolean
  /** The local working copy of the bucket prefix: parts are staged and committed here first. */
  readonly workDir: string
}

// bucket names as S3 allows them (lower case, digits, dots, dashes; 3 to 63 characters)
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

export const isBucketUrl = (raw: string): boolean => /^s3:\/\//i.test(raw.trim())

/** `s3://bucket/prefix` → its parts; the label is the flag or variable it came from. */
export const parseBucketUrl = (raw: string, label: string): Either.Either<BucketTarget, ConfigError> => {
  const bad = (detail: string) =>
    Either.left(new ConfigError({ reason: "Invalid", field: label, detail, fix: "pass --out s3://<bucket>/<prefix>, e.g. s3://my-bucket/chainetl" }))
  const m = /^s3:\/\/([^/]*)(?:\/(.*))?$/i.exec(raw.trim())
  if (m === null) return bad(`"${raw}" is not an s3:// URL`)
  const bucket = m[1]!
  if (!BUCKET.test(bucket) || bucket.includes("..")) return bad(`"${bucket}" is not a bucket name (3–63 of a-z, 0-9, '.', '-')`)
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "")
  const segments = prefix === "" ? [] : prefix.split("/")
  if (segments.some((s) => s === "" || s === "." || s === "..")) return bad(`the prefix "${prefix}" has an empty, '.' or '..' segment`)
  return Either.right({ kind: "bucket", url: `s3://${bucket}${prefix === "" ? "" : `/${prefix}`}`, bucket, prefix })
}

/** The object key of a file at `rel` (a path relative to the output's root). */
export const keyOf = (target: Pick<BucketTarget, "prefix">, rel: string): string => {
  const posix = rel.split(path.sep).join("/")
  return target.prefix === "" ? posix : `${target.prefix}/${posix}`
}

const invalid = (field: string, detail: string, fix: string) => new ConfigError({ reason: "Invalid", field, detail, fix })

const optionalText = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Effect.map((o) => Option.filter(Option.map(o, (s) => s.trim()), (s) => s !== "")),
    Effect.mapError(() => invalid(name, "could not be read from the environment", `unset ${name} or set it to a plain value`))
  )

/**
 * The bucket's settings from the environment. Credentials are not among them: the SDK's standard
 * chain finds them (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an instance role…), and
 * chainetl never reads, logs or writes them.
 */
export const loadS3Settings = (target: BucketTarget): Effect.Effect<S3Settings, ConfigError> =>
  Effect.gen(function* () {
    const endpointRaw = yield* optionalText(S3_ENDPOINT_ENV)
    let endpoint: string | undefined
    if (Option.isSome(endpointRaw)) {
      let url: URL | undefined
      try {
        url = new URL(endpointRaw.value)
      } catch {
        url = undefined
      }
      const fix = `export ${S3_ENDPOINT_ENV}=http://host:port (an S3-compatible server's root), or unset it for AWS`
      if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
        return yield* Effect.fail(invalid(S3_ENDPOINT_ENV, "expected an http:// or https:// URL", fix))
      }
      // credentials belong to the SDK's chain, never to a URL that could end up in a message
      if (url.username !== "" || url.password !== "") return yield* Effect.fail(invalid(S3_ENDPOINT_ENV, "the URL carries a user or password", fix))
      endpoint = url.href.replace(/\/+$/, "")
    }
    const region = Option.getOrUndefined(yield* optionalText(REGION_ENV))
    const fallback = region === undefined ? Option.getOrUndefined(yield* optionalText(REGION_FALLBACK_ENV)) : undefined
    const regionValue = region ?? fallback ?? DEFAULT_REGION
    if (!/^[a-z0-9-]{1,40}$/.test(regionValue)) {
      return yield* Effect.fail(invalid(region !== undefined ? REGION_ENV : REGION_FALLBACK_ENV, `"${regionValue}" is not a region name`, `export ${REGION_ENV}=us-east-1 (or the bucket's region)`))
    }
    const styleRaw = yield* optionalText(S3_PATH_STYLE_ENV)
    let forcePathStyle = endpoint !== undefined
    if (Option.isSome(styleRaw)) {
      const v = styleRaw.value.toLowerCase()
      if (["1", "true", "yes"].includes(v)) forcePathStyle = true
      else if (["0", "false", "no"].includes(v)) forcePathStyle = false
      else return yield* Effect.fail(invalid(S3_PATH_STYLE_ENV, `"${styleRaw.value}" is not true or false`, `export ${S3_PATH_STYLE_ENV}=true (path-style URLs, most S3-compatible servers) or false`))
    }
    const staging = yield* optionalText(STAGING_DIR_ENV)
    const root = Option.getOrElse(staging, () => path.join(os.tmpdir(), "chainetl-s3"))
    if (!path.isAbsolute(root) && Option.isSome(staging)) {
      // a relative folder would move with the working directory: one output, several working copies
      return yield* Effect.fail(invalid(STAGING_DIR_ENV, `"${root}" is not an absolute path`, `export ${STAGING_DIR_ENV}=/absolute/folder`))
    }
    return { endpoint, region: regionValue, forcePathStyle, workDir: workDirOf(root, target, endpoint) }
  })

/**
 * One working copy per (endpoint, bucket, prefix): the same prefix of another server is another output.
 * Readable name first, a hash after it so that two prefixes never share a folder.
 */
export const workDirOf = (root: string, target: BucketTarget, endpoint: string | undefined): string => {
  const hash = createHash("sha256").update(`${endpoint ?? "aws"}\n${target.url}`).digest("hex").slice(0, 12)
  const readable = `${target.bucket}-${target.prefix.replace(/[^a-z0-9_-]+/gi, "_")}`.slice(0, 60)
  return path.join(path.resolve(root), `${readable}-${hash}`)
}
