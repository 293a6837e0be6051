/**
 * A bounds-checked cursor over avalanchego linearcodec bytes (codec/reflectcodec): big-endian
 * integers, a u32 element count before every slice, a u16 length before a string, fixed arrays
 * inline. Every read names what it reads, so a failure says what ran out and where.
 */
import { PvmDecodeError } from "./errors.ts"
import { cb58, nodeIdText, recurringIdText } from "./text.ts"

const ID_BYTES = 32
const SHORT_ID_BYTES = 20

export class ByteReader {
  pos: number
  private readonly view: DataView

  constructor(
    readonly bytes: Uint8Array,
    /** What the bytes are, for messages: "block" or "tx". */
    readonly what: string,
    start = 0
  ) {
    this.pos = start
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  get remaining(): number {
    return this.bytes.length - this.pos
  }

  fail(message: string, at = this.pos): never {
    throw new PvmDecodeError(`${message} at byte ${at} of the ${this.what}`, at)
  }

  private need(n: number, label: string): void {
    if (n > this.bytes.length - this.pos) {
      this.fail(`${label} needs ${n} bytes but only ${this.remaining} remain`)
    }
  }

  u8(label: string): number {
    this.need(1, label)
    return this.bytes[this.pos++] as number
  }

  u16(label: string): number {
    this.need(2, label)
    const v = this.view.getUint16(this.pos)
    this.pos += 2
    return v
  }

  u32(label: string): number {
    this.need(4, label)
    const v = this.view.getUint32(this.pos)
    this.pos += 4
    return v
  }

  u64(label: string): bigint {
    this.need(8, label)
    const v = this.view.getBigUint64(this.pos)
    this.pos += 8
    return v
  }

  /** `n` bytes as a view into the input (no copy). */
  fixed(n: number, label: string): Uint8Array {
    this.need(n, label)
    const b = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return b
  }

  /** A Go []byte: u32 length, then the bytes (a view). */
  byteSlice(label: string): Uint8Array {
    const at = this.pos
    const n = this.u32(`${label} length`)
    if (n > this.remaining) this.fail(`${label} length ${n} runs past the end (${this.remaining} bytes remain)`, at)
    return this.fixed(n, label)
  }

  /**
   * The element count of a slice. Each element takes at least `minElementBytes`, so a count the
   * remaining bytes cannot hold is refused before any element is read.
   */
  count(label: string, minElementBytes: number): number {
    const at = this.pos
    const n = this.u32(`${label} count`)
    if (n * minElementBytes > this.remaining) {
      this.fail(`${label} count ${n} runs past the end (${this.remaining} bytes remain)`, at)
    }
    return n
  }

  /**
   * A Go string: u16 length, then its bytes, read as UTF-8. The one string on the P-chain, a
   * chain's name, is ASCII letters, digits and spaces in every accepted tx (create_chain_tx.go
   * SyntacticVerify), so how Go and Node each replace invalid UTF-8 never differs in practice.
   */
  string(label: string): string {
    const n = this.u16(`${label} length`)
    const b = this.fixed(n, label)
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8")
  }

  id(label: string): string {
    return cb58(this.fixed(ID_BYTES, label))
  }

  /** An id that recurs across txs (asset, chain, subnet, vm): its text is remembered. */
  recurringId(label: string): string {
    return recurringIdText(this.fixed(ID_BYTES, label))
  }

  shortId(label: string): Uint8Array {
    return this.fixed(SHORT_ID_BYTES, label)
  }

  nodeId(label: string): string {
    return nodeIdText(this.fixed(SHORT_ID_BYTES, label))
  }
}
