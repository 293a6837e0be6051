/**
 * Owner addresses as avalanchego's OutputOwners.MarshalJSON writes them once InitCtx gave it the
 * chain: "<chain alias>-" + bech32(hrp of the network id, the 20 address bytes)
 * (secp256k1fx/output_owners.go formatAddress, utils/formatting/address, utils/constants).
 */

/** utils/constants/network_ids.go NetworkIDToHRP; any other network id gets FallbackHRP. */
const HRP_BY_NETWORK: ReadonlyMap<number, string> = new Map([
  [1, "avax"],
  [2, "cascade"],
  [3, "denali"],
  [4, "everest"],
  [5, "fuji"],
  [10, "testing"],
  [12345, "local"]
])
const FALLBACK_HRP = "custom"

export const hrpOf = (networkId: number): string => HRP_BY_NETWORK.get(networkId) ?? FALLBACK_HRP

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

const polymodStep = (chk: number, value: number): number => {
  const top = chk >>> 25
  let next = ((chk & 0x1ffffff) << 5) ^ value
  for (let i = 0; i < 5; i++) if ((top >>> i) & 1) next ^= GENERATORS[i] as number
  return next
}

/** The checksum's state after the hrp, which every address of one network shares. */
const hrpState = (hrp: string): number => {
  let chk = 1
  for (let i = 0; i < hrp.length; i++) chk = polymodStep(chk, hrp.charCodeAt(i) >>> 5)
  chk = polymodStep(chk, 0)
  for (let i = 0; i < hrp.length; i++) chk = polymodStep(chk, hrp.charCodeAt(i) & 31)
  return chk
}

/** Formats address bytes as "<prefix><bech32 data and checksum>" for one chain alias and hrp. */
export class AddressFormatter {
  private readonly prefix: string
  private readonly start: number
  constructor(chainAlias: string, readonly hrp: string) {
    this.prefix = `${chainAlias}-${hrp}1`
    this.start = hrpState(hrp)
  }

  format(bytes: Uint8Array): string {
    let out = this.prefix
    let chk = this.start
    // 8-bit bytes regrouped as 5-bit words, the last padded with zero bits (bech32 convertbits)
    let acc = 0
    let bits = 0
    for (let i = 0; i < bytes.length; i++) {
      acc = ((acc << 8) | (bytes[i] as number)) & 0xfff
      bits += 8
      while (bits >= 5) {
        bits -= 5
        const v = (acc >>> bits) & 31
        chk = polymodStep(chk, v)
        out += CHARSET[v]
      }
    }
    if (bits > 0) {
      const v = (acc << (5 - bits)) & 31
      chk = polymodStep(chk, v)
      out += CHARSET[v]
    }
    for (let i = 0; i < 6; i++) chk = polymodStep(chk, 0)
    chk ^= 1
    for (let i = 0; i < 6; i++) out += CHARSET[(chk >>> (5 * (5 - i))) & 31]
    return out
  }
}
