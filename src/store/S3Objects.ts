/**
 * The object-store calls chainetl makes, through `@aws-sdk/client-s3`. Loaded only for an s3://
 * output (the SDK is a few MB of modules that `status` on a folder must not pay for).
 *
 * Credentials come from the SDK's standard chain and stay inside the client: no message built here
 * quotes a request's headers. Each upload carries its Content-MD5, so the server refuses bytes that
 * changed on the way; a plain PUT of the whole file (parts and compacted files are at most about
 * the compaction target, 128 MB), so the object appears whole or not at all.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException
} from "@aws-sdk/client-s3"
import { createHash } from "node:crypto"
import { createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import type { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ObjectInfo, ObjectStoreClient } from "./OutputStore.ts"
import type { S3Settings } from "./OutputTarget.ts"

const status = (e: unknown): number | undefined => (e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined)

export const makeS3Client = (settings: S3Settings): S3Client => {
  // the SDK warns on every start under Node 20 that its releases after January 2027 need Node 22;
  // the version is pinned (docs/scale-out.md#output-in-a-bucket), so the warning would only be
  // noise on stderr
  process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true"
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    // only the checksums an operation requires: S3-compatible servers differ in which trailers
    // they take; our own Content-MD5 covers every upload
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 6
  })
}

export const s3Objects = (client: S3Client, bucket: string): ObjectStoreClient => ({
  list: async (prefix) => {
    const out: ObjectInfo[] = []
    let token: string | undefined
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }))
      for (const o of page.Contents ?? []) {
        if (o.Key === undefined) continue
        out.push({ key: o.Key, size: Number(o.Size ?? 0), etag: o.ETag?.replace(/"/g, "") })
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined
    } while (token !== undefined)
    return out
  },
  download: async (key, file) => {
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
    if (got.Body === undefined) throw new Error(`s3://${bucket}/${key}: empty answer`)
    await pipeline(got.Body as Readable, createWriteStream(file))
  },
  upload: async (file, key, signal) => {
    const body = await fs.readFile(file)
    const md5 = createHash("md5").update(body).digest("base64")
    signal?.throwIfAborted()
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentMD5: md5, ContentLength: body.length }), { abortSignal: signal })
  },
  remove: async (keys) => {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000)
      const done = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }))
      const failed = done.Errors ?? []
      if (failed.length > 0) throw new Error(`deleting ${failed.length} objects failed, first s3://${bucket}/${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message}`)
    }
  },
  createIfAbsent: async (key, body) => {
    try {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, IfNoneMatch: "*" }))
    } catch (e) {
      // 412: another first run created it; its value is the output's
      if (status(e) !== 412) throw e
    }
  },
  read: async (key) => {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
      return await got.Body?.transformToString("utf8")
    } catch (e) {
      if (status(e) === 404 || (e instanceof S3ServiceException && e.name === "NoSuchKey")) return undefined
      throw e
    }
  },
  check: async () => {
    await client.send(new HeadBucketCommand({ Bucket: bucket }))
  }
})

/** One line about an SDK failure: the service's code and status, never a request's headers. */
export const describeS3Error = (e: unknown): string => {
  if (e instanceof S3ServiceException) {
    const code = e.name === "Unknown" || e.name === "" ? "" : e.name
    const http = e.$metadata.httpStatusCode
    return [code, http === undefined ? "" : `HTTP ${http}`, e.message && e.message !== code && e.message !== "UnknownError" ? e.message : ""].filter((s) => s !== "").join(" ")
  }
  if (e instanceof Error) return `${e.name === "Error" ? "" : `${e.name}: `}${e.message}`
  return String(e)
}
