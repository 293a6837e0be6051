/**
 * An S3-compatible server for tests: s3rver in this process, on 127.0.0.1 at a free port, its
 * objects in a temporary folder, removed on stop. s3rver checks the access key id (`S3RVER`) but
 * not SigV4 signatures, so any secret works: the tests use a distinctive one and look for it in
 * every object and log. It has no conditional writes (If-None-Match is ignored).
 */
import {
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client
} from "@aws-sdk/client-s3"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import S3rver from "s3rver"

export const S3_ACCESS_KEY = "S3RVER"
export const S3_SECRET = "tEsT-s3-SeCrEt-8d41f0c2b7"
export const S3_BUCKET = "chainetl-test"

export interface RunningS3 {
  readonly endpoint: string
  readonly server: S3rver
  readonly client: S3Client
  /** The environment a CLI needs for this server (credentials through the SDK's chain). */
  readonly env: Record<string, string>
  /** Every key under `prefix/`, relative to it, sorted. */
  keys(prefix: string): Promise<string[]>
  /** Downloads every object under `prefix/` to `dir` at its relative path. */
  download(prefix: string, dir: string): Promise<string[]>
  bytes(key: string): Promise<Buffer>
  stop(): Promise<void>
}

export const startS3 = async (): Promise<RunningS3> => {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-s3rver-"))
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: S3_BUCKET }] })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true"
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED"
  })
  const list = async (prefix: string) => {
    const keys: string[] = []
    let token: string | undefined
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: `${prefix}/`, ContinuationToken: token }))
      for (const o of page.Contents ?? []) keys.push(o.Key!)
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined
    } while (token !== undefined)
    return keys.sort()
  }
  const bytes = async (key: string) => {
    const got = await client.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: key }))
    return Buffer.from(await got.Body!.transformToByteArray())
  }
  return {
    endpoint,
    server,
    client,
    env: {
      CHAINETL_S3_ENDPOINT: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: S3_ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: S3_SECRET
    },
    keys: async (prefix) => (await list(prefix)).map((k) => k.slice(prefix.length + 1)),
    download: async (prefix, dir) => {
      const keys = await list(prefix)
      for (const key of keys) {
        const file = path.join(dir, ...key.slice(prefix.length + 1).split("/"))
        await fs.mkdir(path.dirname(file), { recursive: true })
        await fs.writeFile(file, await bytes(key))
      }
      return keys
    },
    bytes,
    stop: async () => {
      client.destroy()
      await server.close()
      await fs.rm(directory, { recursive: true, force: true })
    }
  }
}
