/**
 * Bytes for the P-chain decoder's tests and the values they hold: a writer whose every value is
 * fresh (so a field read from the wrong place cannot match by accident) and the text avalanchego
 * gives each, computed here (ids by bs58 + node:crypto sha256, addresses by avalanchejs' bech32),
 * never by the decoder under test.
 */
import * as avalanchejs from "@avalabs/avalanchejs"
import { SecretKey } from "@chainsafe/blst"
import bs58 from "bs58"
import { createHash } from "node:crypto"

const { utils, bls } = avalanchejs as unknown as {
  utils: { format(chain: string, hrp: string, addr: Uint8Array): string }
  bls: {
    secretKeyFromBytes(b: Uint8Array): bigint
    sign(msg: Uint8Array, sk: bigint): Uint8Array
    signProofOfPossession(msg: Uint8Array, sk: bigint): Uint8Array
  }
}

export const sha256 = (b: Uint8Array): Buffer => createHash("sha256").update(b).digest()
export const cb58 = (b: Uint8Array): string => bs58.encode(Buffer.concat([b, sha256(b).subarray(28)]))
export const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString("hex")}`

export const HRP: Readonly<Record<number, string>> = { 1: "avax", 2: "cascade", 3: "denali", 4: "everest", 5: "fuji", 10: "testing", 12345: "local" }
export const hrpFor = (networkId: number): string => HRP[networkId] ?? "custom"

// shared by every Wire, so two txs built apart still hold different values
let seq = 0

const blsKey = (): { secret: Uint8Array; publicKey: Uint8Array } => {
  const secret = sha256(Buffer.from(`pvm test key ${++seq}`))
  secret[0] = (secret[0] as number) & 0x3f // below the curve order
  return { secret, publicKey: SecretKey.fromBytes(secret).toPublicKey().toBytes(true) }
}

/** Bytes being written, and a source of distinct values. */
export class Wire {
  private readonly parts: Buffer[] = []
  hrp = "avax"

  get length(): number {
    return this.parts.reduce((n, p) => n + p.length, 0)
  }

  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.parts))
  }

  raw(b: Uint8Array): Uint8Array {
    this.parts.push(Buffer.from(b))
    return b
  }

  u8(v: number): number {
    this.raw(Uint8Array.of(v))
    return v
  }

  u16(v: number): number {
    const b = Buffer.alloc(2)
    b.writeUInt16BE(v)
    this.raw(b)
    return v
  }

  u32(v: number): number {
    const b = Buffer.alloc(4)
    b.writeUInt32BE(v)
    this.raw(b)
    return v
  }

  u64(v: bigint): bigint {
    const b = Buffer.alloc(8)
    b.writeBigUInt64BE(v)
    this.raw(b)
    return v
  }

  /** A fresh u32 (distinct, with high bits set). */
  freshU32(): number {
    return this.u32(0x80000000 + ++seq * 7919)
  }

  /** A fresh u64 above 2^53, so it would not survive a JS number. */
  freshU64(): bigint {
    return this.u64(0x00f0_0000_0000_0000n + BigInt(++seq) * 1_000_003n)
  }

  /** `n` fresh bytes (a pattern derived from a counter). */
  freshBytes(n: number): Uint8Array {
    const seed = sha256(Buffer.from(`pvm test ${++seq}`))
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = (seed[i % 32] as number) ^ (i >> 5)
    return this.raw(out)
  }

  /**
   * A real BLS public key (48 bytes) and its proof of possession (96 bytes) from a fresh key:
   * avalanchejs checks both when it parses.
   */
  blsKeyAndSignature(): { publicKey: Uint8Array; signature: Uint8Array } {
    const { secret, publicKey } = blsKey()
    return { publicKey: this.raw(publicKey), signature: this.raw(bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secret))) }
  }

  /** A real BLS signature (96 bytes), a curve point as avalanchejs requires. */
  blsSignature(): Uint8Array {
    const { secret } = blsKey()
    return this.raw(bls.sign(Buffer.from("message"), bls.secretKeyFromBytes(secret)))
  }

  id(): string {
    return cb58(this.freshBytes(32))
  }

  nodeId(): string {
    return `NodeID-${cb58(this.freshBytes(20))}`
  }

  address(): string {
    return utils.format("P", this.hrp, this.freshBytes(20))
  }

  /** A length-prefixed []byte of `n` fresh bytes, returned as "0x" hex (types.JSONByteSlice). */
  byteSliceHex(n: number): string {
    this.u32(n)
    return hex(this.freshBytes(n))
  }

  list<T>(n: number, item: (i: number) => T): T[] {
    this.u32(n)
    return Array.from({ length: n }, (_, i) => item(i))
  }
}
