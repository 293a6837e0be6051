/**
 * Real identifiers of the primary network (public genesis files and documentation), copied from
 * reference/network-constants.json, so the emulator reads no file at run time.
 */
export type NetworkName = "mainnet" | "fuji"

export const NETWORKS: ReadonlyArray<NetworkName> = ["mainnet", "fuji"]

export const NETWORK_ID: Readonly<Record<NetworkName, number>> = { mainnet: 1, fuji: 5 }

export const BECH32_HRP: Readonly<Record<NetworkName, string>> = { mainnet: "avax", fuji: "fuji" }

export const C_CHAIN_EVM_ID: Readonly<Record<NetworkName, string>> = { mainnet: "43114", fuji: "43113" }

export const PRIMARY_SUBNET_ID = "11111111111111111111111111111111LpoYY"

export const BLOCKCHAIN_ID: Readonly<Record<NetworkName, { P: string; X: string; C: string }>> = {
  mainnet: {
    P: "11111111111111111111111111111111LpoYY",
    X: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM",
    C: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
  },
  fuji: {
    P: "11111111111111111111111111111111LpoYY",
    X: "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm",
    C: "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp"
  }
}

export const AVAX_ASSET_ID: Readonly<Record<NetworkName, string>> = {
  mainnet: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
  fuji: "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK"
}

export const AVAX_DENOMINATION = 9

export const SECP256K1_FX_ID = "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ"
