/**
 * The recordings of the replay proxy: every distinct request's response body, on disk, so that a
 * bench run can replay pages recorded by an earlier one (recording 5M rows from the emulator takes
 * far longer than converting them).
 *
 * One folder per recording: `bodies.bin` holds the bodies back to back, `index.ndjson` one line per
 * body (key, offset, length, status, content type). Appends are synchronous and the index line is
 * written after its body, so a killed recording leaves at worst a body without an index line, which
 * is simply recorded again.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"

export interface Recorded {
  readonly status: number
  readonly contentType: string
  readonly offset: number
  readonly length: number
}

export interface RecordKey {
  readonly method: string
  /** Path and query as the client sent them; the query is put in a canonical order. */
  readonly url: string
  readonly body: Buffer
}

/** Clients differ in the order they spell query parameters: the order carries no meaning here. */
export const canonicalUrl = (url: string): string => {
  const u = new URL(url, "http://x")
  u.searchParams.sort()
  return `${u.pathname}${u.search}`
}

export const keyOf = (k: RecordKey): string =>
  createHash("sha256").update(k.method).update("\n").update(canonicalUrl(k.url)).update("\n").update(k.body).digest("base64url")

export class RecordStore {
  private readonly index = new Map<string, Recorded>()
  private readonly fd: number
  private readonly indexFd: number
  private size: number

  private constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true })
    this.fd = fs.openSync(path.join(dir, "bodies.bin"), "a+")
    this.indexFd = fs.openSync(path.join(dir, "index.ndjson"), "a+")
    this.size = fs.fstatSync(this.fd).size
    const lines = fs.readFileSync(path.join(dir, "index.ndjson"), "utf8").split("\n")
    for (const line of lines) {
      if (line === "") continue
      const { key, ...entry } = JSON.parse(line) as Recorded & { key: string }
      if (entry.offset + entry.length <= this.size) this.index.set(key, entry)
    }
  }

  static open(dir: string): RecordStore {
    return new RecordStore(dir)
  }

  get entries(): number {
    return this.index.size
  }

  get(key: string): Recorded | undefined {
    return this.index.get(key)
  }

  /** The body of a recorded response; an asynchronous positioned read, nothing parsed. */
  read(entry: Recorded): Promise<Buffer> {
    const buffer = Buffer.allocUnsafe(entry.length)
    return new Promise((resolve, reject) =>
      fs.read(this.fd, buffer, 0, entry.length, entry.offset, (err, n) =>
        err ? reject(err) : n !== entry.length ? reject(new Error(`short read of a recording in ${this.dir}`)) : resolve(buffer)
      )
    )
  }

  put(key: string, status: number, contentType: string, body: Buffer): Recorded {
    const existing = this.index.get(key)
    if (existing !== undefined) return existing
    const entry: Recorded = { status, contentType, offset: this.size, length: body.length }
    fs.writeSync(this.fd, body, 0, body.length, this.size)
    this.size += body.length
    fs.writeSync(this.indexFd, `${JSON.stringify({ key, ...entry })}\n`)
    this.index.set(key, entry)
    return entry
  }

  close(): void {
    fs.closeSync(this.fd)
    fs.closeSync(this.indexFd)
  }
}
