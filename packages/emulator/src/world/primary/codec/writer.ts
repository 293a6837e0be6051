/**
 * A growable byte buffer for avalanchego's linear codec: big-endian integers, fixed-size ids and
 * u32-length-prefixed byte strings, written in place. The direct encoders (directTx.ts,
 * blockBytes.ts) write a whole tx or block into one buffer and copy it out once, instead of
 * building a serializable object per field and concatenating their bytes.
 */
export class Writer {
  private buf = new Uint8Array(4096)
  private view = new DataView(this.buf.buffer)
  /** Bytes written so far. */
  length = 0

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.length + n) size *= 2
    const grown = new Uint8Array(size)
    grown.set(this.buf.subarray(0, this.length))
    this.buf = grown
    this.view = new DataView(grown.buffer)
  }

  reset(): this {
    this.length = 0
    return this
  }

  /** Drops what was written after `length` (an encoder that gave up). */
  truncate(length: number): void {
    this.length = length
  }

  u8(n: number): void {
    this.room(1)
    this.buf[this.length++] = n
  }

  u16(n: number): void {
    this.room(2)
    this.view.setUint16(this.length, n)
    this.length += 2
  }

  u32(n: number): void {
    this.room(4)
    this.view.setUint32(this.length, n)
    this.length += 4
  }

  u64(n: bigint): void {
    this.room(8)
    this.view.setBigUint64(this.length, BigInt.asUintN(64, n))
    this.length += 8
  }

  /** Fixed-size bytes (ids, addresses, signatures): no length prefix. */
  raw(b: Uint8Array): void {
    this.room(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }

  /** A byte string: u32 length, then the bytes. */
  bytes(b: Uint8Array): void {
    this.u32(b.length)
    this.raw(b)
  }

  /** Bytes [from, length) as they are: a view that writing again changes, for a caller done with them at once. */
  written(from = 0): Uint8Array {
    return this.buf.subarray(from, this.length)
  }

  /** A copy of bytes [from, length). */
  copy(from = 0): Uint8Array {
    return this.buf.slice(from, this.length)
  }
}

/**
 * Writers not in use: an encoder asks its id map for served ids, which may hash (and so encode)
 * other txs before it is done, so each encoding takes a writer of its own for its duration.
 */
const free: Writer[] = []

export const withWriter = <T>(use: (w: Writer) => T): T => {
  const w = free.pop() ?? new Writer()
  try {
    return use(w.reset())
  } finally {
    free.push(w)
  }
}
