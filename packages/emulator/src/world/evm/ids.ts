/**
 * Self-locating identifiers: a transaction hash, block hash or address carries its own coordinates
 * (height and index, or address kind and number) so that a lookup is O(1) without any index.
 *
 * Layout: MAC ‖ (payload XOR sha256(MAC)), where MAC = sha256(chain salt, domain, payload). The
 * masked payload makes consecutive ids look unrelated; recomputing the MAC on decode rejects any
 * id this world did not issue.
 */
import { createHash } from "node:crypto"

const PAYLOAD = 8

const macOf = (salt: number, domain: string, payload: Buffer, n: number): Buffer =>
  createHash("sha256").update(`${salt}|${domain}|`).update(payload).digest().subarray(0, n)

const maskOf = (mac: Buffer): Buffer => createHash("sha256").update(mac).digest().subarray(0, PAYLOAD)

const encode = (salt: number, domain: string, totalBytes: number, hi: number, lo: number): string => {
  const payload = Buffer.alloc(PAYLOAD)
  payload.writeUInt32BE(hi >>> 0, 0)
  payload.writeUInt32BE(lo >>> 0, 4)
  const mac = macOf(salt, domain, payload, totalBytes - PAYLOAD)
  const mask = maskOf(mac)
  for (let i = 0; i < PAYLOAD; i++) payload[i] = (payload[i] as number) ^ (mask[i] as number)
  return "0x" + mac.toString("hex") + payload.toString("hex")
}

const decode = (salt: number, domain: string, totalBytes: number, id: string): [number, number] | undefined => {
  if (!new RegExp(`^0x[0-9a-fA-F]{${totalBytes * 2}}$`).test(id)) return undefined
  const raw = Buffer.from(id.slice(2), "hex")
  const mac = raw.subarray(0, totalBytes - PAYLOAD)
  const payload = Buffer.from(raw.subarray(totalBytes - PAYLOAD))
  const mask = maskOf(mac)
  for (let i = 0; i < PAYLOAD; i++) payload[i] = (payload[i] as number) ^ (mask[i] as number)
  if (!macOf(salt, domain, payload, totalBytes - PAYLOAD).equals(mac)) return undefined
  return [payload.readUInt32BE(0), payload.readUInt32BE(4)]
}

const TWO16 = 0x1_0000

/** Transaction hash of (height, index in block); heights below 2^48, indexes below 2^16. */
export const encodeTxHash = (salt: number, height: number, index: number): string =>
  encode(salt, "tx", 32, Math.floor(height / TWO16), (height % TWO16) * TWO16 + index)

export const decodeTxHash = (salt: number, hash: string): { height: number; index: number } | undefined => {
  const d = decode(salt, "tx", 32, hash)
  if (!d) return undefined
  return { height: d[0] * TWO16 + Math.floor(d[1] / TWO16), index: d[1] % TWO16 }
}

export const encodeBlockHash = (salt: number, height: number): string =>
  encode(salt, "block", 32, Math.floor(height / 0x1_0000_0000), height % 0x1_0000_0000)

export const decodeBlockHash = (salt: number, hash: string): number | undefined => {
  const d = decode(salt, "block", 32, hash)
  return d ? d[0] * 0x1_0000_0000 + d[1] : undefined
}

/** Address of (kind code < 256, number < 2^40), lowercase hex. */
export const encodeAddress = (salt: number, kind: number, index: number): string =>
  encode(salt, "address", 20, kind * 256 + Math.floor(index / 0x1_0000_0000), index % 0x1_0000_0000)

export const decodeAddress = (salt: number, address: string): { kind: number; index: number } | undefined => {
  const d = decode(salt, "address", 20, address)
  if (!d) return undefined
  return { kind: Math.floor(d[0] / 256), index: (d[0] % 256) * 0x1_0000_0000 + d[1] }
}

/** Other 32-byte ids (crosschain message ids, token URIs' content hashes): no lookup needed. */
export const opaqueHash = (salt: number, ...keys: ReadonlyArray<string | number>): string =>
  "0x" + createHash("sha256").update(`${salt}|${keys.join("|")}`).digest("hex")
