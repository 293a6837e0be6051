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

/**
 * When the P-chain's upgrades activated (avalanchego upgrade/upgrade.go, Mainnet and Fuji), Unix
 * seconds: the block and tx types a node serves changed at each. `genesis` is the genesis
 * config's startTime (genesis/genesis_{mainnet,fuji}.json), the chain time of P-chain block 0.
 */
export interface Upgrades {
  readonly genesis: number
  /** Atomic txs may sit in standard blocks from here on (ApricotPhase5). */
  readonly apricotPhase5: number
  /** Blocks carry their time; staker txs go into standard blocks; AdvanceTimeTx is gone. */
  readonly banff: number
  /** The X-chain became a chain of blocks (its DAG stopped). */
  readonly cortina: number
  /** P-chain BaseTx and TransferSubnetOwnershipTx. */
  readonly durango: number
  /** L1 txs; TransformSubnetTx no longer accepted. */
  readonly etna: number
}

const utc = (y: number, m: number, d: number, h: number): number => Date.UTC(y, m - 1, d, h) / 1000

export const UPGRADES: Readonly<Record<NetworkName, Upgrades>> = {
  mainnet: {
    genesis: 1599696000,
    apricotPhase5: utc(2021, 12, 2, 18),
    banff: utc(2022, 10, 18, 16),
    cortina: utc(2023, 4, 25, 15),
    durango: utc(2024, 3, 6, 16),
    etna: utc(2024, 12, 16, 17)
  },
  fuji: {
    genesis: 1599696000,
    apricotPhase5: utc(2021, 11, 24, 15),
    banff: utc(2022, 10, 3, 14),
    cortina: utc(2023, 4, 6, 15),
    durango: utc(2024, 2, 13, 16),
    etna: utc(2024, 11, 25, 16)
  }
}

/** The X-chain's last DAG vertex, the parent of its first block (upgrade.go CortinaXChainStopVertexID). */
export const CORTINA_STOP_VERTEX: Readonly<Record<NetworkName, string>> = {
  mainnet: "jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga",
  fuji: "2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ"
}
