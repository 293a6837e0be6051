/** Text forms of ids: cb58 (Avalanche blockchain and subnet ids) and EIP-55 mixed-case addresses. */
import { createHash } from "node:crypto"
import { keccak256 } from "./keccak.ts"

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

const base58 = (bytes: Uint8Array): string => {
  let n = BigInt("0x" + (Buffer.from(bytes).toString("hex") || "0"))
  let out = ""
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out
    n /= 58n
  }
  for (const b of bytes) {
    if (b !== 0) break
    out = "1" + out
  }
  return out
}

/** cb58: base58 of the bytes followed by the last 4 bytes of their sha256. */
export const cb58 = (bytes: Uint8Array): string => {
  const sum = createHash("sha256").update(bytes).digest().subarray(28)
  return base58(Buffer.concat([Buffer.from(bytes), sum]))
}

/** EIP-55 checksum casing of a 0x-prefixed lowercase hex address (the services' address form). */
export const checksumAddress = (lowerHex: string): string => {
  const body = lowerHex.slice(2).toLowerCase()
  const digest = Buffer.from(keccak256(Buffer.from(body, "ascii"))).toString("hex")
  let out = "0x"
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string
    out += parseInt(digest[i] as string, 16) >= 8 ? ch.toUpperCase() : ch
  }
  return out
}

export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"
export const ZERO_HASH = "0x" + "0".repeat(64)
