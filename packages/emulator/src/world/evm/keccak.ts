/**
 * Keccak-256 (the pre-FIPS padding Ethereum uses), only for EIP-55 mixed-case addresses: node's
 * crypto offers sha3-256, whose padding differs, and the project has no direct keccak dependency.
 * 64-bit lanes are kept as pairs of 32-bit halves.
 */
const RC_HI = new Uint32Array(24)
const RC_LO = new Uint32Array(24)
{
  // round constants from the LFSR of the Keccak reference
  let r = 1
  for (let i = 0; i < 24; i++) {
    let hi = 0
    let lo = 0
    for (let j = 0; j < 7; j++) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff
      if (r & 2) {
        const bit = (1 << j) - 1
        if (bit < 32) lo ^= 1 << bit
        else hi ^= 1 << (bit - 32)
      }
    }
    RC_HI[i] = hi >>> 0
    RC_LO[i] = lo >>> 0
  }
}

const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

const keccakF = (s: Uint32Array): void => {
  const c = new Uint32Array(10)
  const b = new Uint32Array(50)
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) {
      c[2 * x] = (s[2 * x] as number) ^ (s[2 * x + 10] as number) ^ (s[2 * x + 20] as number) ^ (s[2 * x + 30] as number) ^ (s[2 * x + 40] as number)
      c[2 * x + 1] = (s[2 * x + 1] as number) ^ (s[2 * x + 11] as number) ^ (s[2 * x + 21] as number) ^ (s[2 * x + 31] as number) ^ (s[2 * x + 41] as number)
    }
    for (let x = 0; x < 5; x++) {
      const x1 = (x + 1) % 5
      const x4 = (x + 4) % 5
      const lo1 = c[2 * x1] as number
      const hi1 = c[2 * x1 + 1] as number
      const dLo = (c[2 * x4] as number) ^ ((lo1 << 1) | (hi1 >>> 31))
      const dHi = (c[2 * x4 + 1] as number) ^ ((hi1 << 1) | (lo1 >>> 31))
      for (let y = 0; y < 25; y += 5) {
        s[2 * (y + x)] = (s[2 * (y + x)] as number) ^ dLo
        s[2 * (y + x) + 1] = (s[2 * (y + x) + 1] as number) ^ dHi
      }
    }
    // rho and pi
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        const i = x + 5 * y
        const lo = s[2 * i] as number
        const hi = s[2 * i + 1] as number
        const r = ROT[i] as number
        let nlo: number
        let nhi: number
        if (r === 0) {
          nlo = lo
          nhi = hi
        } else if (r < 32) {
          nlo = (lo << r) | (hi >>> (32 - r))
          nhi = (hi << r) | (lo >>> (32 - r))
        } else if (r === 32) {
          nlo = hi
          nhi = lo
        } else {
          const k = r - 32
          nlo = (hi << k) | (lo >>> (32 - k))
          nhi = (lo << k) | (hi >>> (32 - k))
        }
        const j = y + 5 * ((2 * x + 3 * y) % 5)
        b[2 * j] = nlo
        b[2 * j + 1] = nhi
      }
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        const i = y + x
        const i1 = y + ((x + 1) % 5)
        const i2 = y + ((x + 2) % 5)
        s[2 * i] = (b[2 * i] as number) ^ (~(b[2 * i1] as number) & (b[2 * i2] as number))
        s[2 * i + 1] = (b[2 * i + 1] as number) ^ (~(b[2 * i1 + 1] as number) & (b[2 * i2 + 1] as number))
      }
    }
    s[0] = (s[0] as number) ^ (RC_LO[round] as number)
    s[1] = (s[1] as number) ^ (RC_HI[round] as number)
  }
}

/** Keccak-256 digest of bytes. */
export const keccak256 = (data: Uint8Array): Uint8Array => {
  const rate = 136
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate)
  padded.set(data)
  padded[data.length] = (padded[data.length] as number) ^ 0x01
  padded[padded.length - 1] = (padded[padded.length - 1] as number) ^ 0x80
  const s = new Uint32Array(50)
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 4; i++) {
      const k = off + 4 * i
      s[i] = (s[i] as number) ^ ((padded[k] as number) | ((padded[k + 1] as number) << 8) | ((padded[k + 2] as number) << 16) | ((padded[k + 3] as number) << 24))
    }
    keccakF(s)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 8; i++) {
    const w = s[i] as number
    out[4 * i] = w & 0xff
    out[4 * i + 1] = (w >>> 8) & 0xff
    out[4 * i + 2] = (w >>> 16) & 0xff
    out[4 * i + 3] = (w >>> 24) & 0xff
  }
  return out
}
