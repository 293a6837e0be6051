/**
 * Benchmark data: a flat EVM-block-like dataset and a nested staking-transaction-like one, built
 * with the real schema helpers, with deterministic rows. Row 0 and 1 carry the values writers
 * lose: int64 2^53+1 and uint64 2^64−1 in DECIMAL(38,0), at top level and nested. (int64 2^63−1 is
 * left to test/sink: parquetjs-lite rounds it to 2^63 and throws, which would leave its rows/s
 * unmeasured.)
 */
import type * as arrow from "apache-arrow"
import {
  address,
  amount,
  defineSchema,
  float64,
  hash,
  int32,
  int64,
  lineage,
  list,
  str,
  struct,
  ts
} from "../schemas/common.ts"
import type { Row } from "../schemas/common.ts"

export const TWO_53_PLUS_1 = (1n << 53n) + 1n
export const MAX_UINT64 = (1n << 64n) - 1n

/** A cell of the read-back row 0 that must hold `expected` exactly. */
export interface Probe {
  readonly label: "2^53+1" | "2^64-1"
  readonly pick: (row: Record<string, unknown>) => unknown
  readonly expected: bigint
}

export interface BenchDataset {
  readonly name: "flat" | "nested"
  readonly schema: arrow.Schema
  readonly rows: (n: number) => Row[]
  readonly probes: ReadonlyArray<Probe>
}

/** mulberry32: a tiny seeded generator so every writer gets the same rows. */
const rng = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const hex = (next: () => number, bytes: number): string => {
  const buf = Buffer.allocUnsafe(bytes)
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor(next() * 256)
  // one flat string, as JSON.parse would give: a concatenated rope would bill its flattening to the writer
  return `0x${buf.toString("hex")}`
}

const bigBelow = (next: () => number, bits: number): bigint => {
  let v = 0n
  for (let i = 0; i < bits; i += 32) v = (v << 32n) | BigInt(Math.floor(next() * 4294967296))
  return v & ((1n << BigInt(bits)) - 1n)
}

const RUN = lineage("bench-run", new Date("2024-06-01T00:00:00Z"))
const GENESIS_MS = Date.UTC(2020, 8, 23)

const flatSchema = defineSchema(
  [
    int64("number", "Block number", { nullable: false }),
    hash("hash", "Block hash"),
    hash("parent_hash", "Parent block hash"),
    address("miner", "Fee recipient"),
    ts("timestamp", "Block timestamp"),
    int64("gas_used", "Gas used"),
    int64("gas_limit", "Gas limit"),
    amount("base_fee_per_gas", "Base fee in wei"),
    amount("nonce", "Block nonce (uint64)"),
    amount("difficulty", "Difficulty"),
    int64("size", "Size in bytes"),
    int32("tx_count", "Transactions in the block"),
    float64("gas_used_ratio", "gas_used / gas_limit"),
    str("extra_data", "Extra data, hex"),
    hash("state_root", "State root")
  ],
  "EVM blocks (benchmark)"
)

const flatRows = (n: number): Row[] => {
  const next = rng(42)
  const rows: Row[] = []
  for (let i = 0; i < n; i++) {
    const gasLimit = i === 0 ? TWO_53_PLUS_1 : 8_000_000n + BigInt(Math.floor(next() * 7_000_000))
    const gasUsed = BigInt(Math.floor(next() * 8_000_000))
    rows.push({
      number: BigInt(30_000_000 + i),
      hash: hex(next, 32),
      parent_hash: hex(next, 32),
      miner: hex(next, 20),
      timestamp: new Date(GENESIS_MS + i * 2000),
      gas_used: gasUsed,
      gas_limit: gasLimit,
      base_fee_per_gas: 25_000_000_000n + bigBelow(next, 34),
      nonce: i === 0 ? MAX_UINT64 : i === 1 ? TWO_53_PLUS_1 : bigBelow(next, 64),
      difficulty: BigInt(1 + Math.floor(next() * 3)),
      size: BigInt(500 + Math.floor(next() * 100_000)),
      tx_count: Math.floor(next() * 300),
      gas_used_ratio: Number(gasUsed) / 8_000_000,
      extra_data: hex(next, 8),
      state_root: hex(next, 32),
      ...RUN
    })
  }
  return rows
}

const utxo = (name: string, comment: string) =>
  list(
    name,
    struct(
      "item",
      [
        hash("utxo_id", "UTXO id"),
        hash("asset_id", "Asset id"),
        amount("amount", "Amount in nAVAX"),
        list("addresses", address("item", "Address"), "Owners"),
        int32("threshold", "Signatures required"),
        int64("locktime", "Locktime, unix seconds")
      ],
      "UTXO"
    ),
    comment
  )

const nestedSchema = defineSchema(
  [
    hash("tx_hash", "Transaction hash", { nullable: false }),
    int64("block_height", "P-chain height"),
    ts("block_timestamp", "Block time"),
    str("tx_type", "Transaction type"),
    utxo("consumed_utxos", "Inputs"),
    utxo("emitted_utxos", "Outputs"),
    list("amount_staked", struct("item", [hash("asset_id", "Asset id"), amount("amount", "Staked amount")], "Stake"), "Staked amounts"),
    str("node_id", "Validator node id"),
    ts("start_timestamp", "Staking start"),
    ts("end_timestamp", "Staking end"),
    float64("delegation_fee_percent", "Delegation fee, %")
  ],
  "P-chain staking transactions (benchmark)"
)

const AVAX = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"

const nestedRows = (n: number): Row[] => {
  const next = rng(7)
  const makeUtxo = (i: number, j: number) => ({
    utxo_id: hex(next, 32),
    asset_id: AVAX,
    amount: i === 0 && j === 0 ? MAX_UINT64 : i === 1 && j === 0 ? TWO_53_PLUS_1 : bigBelow(next, 50),
    addresses: Array.from({ length: 1 + Math.floor(next() * 2) }, () => `P-avax1${hex(next, 19).slice(2)}`),
    threshold: 1,
    locktime: i === 0 && j === 0 ? TWO_53_PLUS_1 : 0n
  })
  const rows: Row[] = []
  for (let i = 0; i < n; i++) {
    const start = GENESIS_MS + i * 1000
    rows.push({
      tx_hash: hex(next, 32),
      block_height: BigInt(10_000_000 + i),
      block_timestamp: new Date(start),
      tx_type: next() < 0.5 ? "AddPermissionlessDelegatorTx" : "AddPermissionlessValidatorTx",
      consumed_utxos: Array.from({ length: 1 + Math.floor(next() * 3) }, (_, j) => makeUtxo(i, j)),
      emitted_utxos: Array.from({ length: 1 + Math.floor(next() * 2) }, (_, j) => makeUtxo(i + 2, j)),
      amount_staked: [{ asset_id: AVAX, amount: 25_000_000_000n + bigBelow(next, 40) }],
      node_id: `NodeID-${hex(next, 20).slice(2)}`,
      start_timestamp: new Date(start),
      end_timestamp: new Date(start + 14 * 86_400_000),
      delegation_fee_percent: next() < 0.5 ? null : 2 + Math.floor(next() * 10),
      ...RUN
    })
  }
  return rows
}

const firstUtxo = (row: Record<string, unknown>): Record<string, unknown> | undefined =>
  (row["consumed_utxos"] as Array<Record<string, unknown>> | null)?.[0]

export const datasets: ReadonlyArray<BenchDataset> = [
  {
    name: "flat",
    schema: flatSchema,
    rows: flatRows,
    probes: [
      { label: "2^53+1", pick: (r) => r["gas_limit"], expected: TWO_53_PLUS_1 },
      { label: "2^64-1", pick: (r) => r["nonce"], expected: MAX_UINT64 }
    ]
  },
  {
    name: "nested",
    schema: nestedSchema,
    rows: nestedRows,
    probes: [
      { label: "2^53+1", pick: (r) => firstUtxo(r)?.["locktime"], expected: TWO_53_PLUS_1 },
      { label: "2^64-1", pick: (r) => firstUtxo(r)?.["amount"], expected: MAX_UINT64 }
    ]
  }
]
