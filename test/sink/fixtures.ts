/** A schema with every helper of schemas/common.ts, and rows at the edges of each type. */
import {
  address,
  amount,
  binary,
  bool,
  date,
  defineSchema,
  float64,
  hash,
  int32,
  int64,
  lineage,
  list,
  str,
  struct,
  ts,
  uint256,
  uint256Values
} from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"

export const MAX_DECIMAL_38 = 10n ** 38n - 1n
export const MAX_UINT256 = (1n << 256n) - 1n
export const MAX_INT64 = (1n << 63n) - 1n
export const MIN_INT64 = -(1n << 63n)
export const MAX_UINT64 = (1n << 64n) - 1n

export const everyType = defineSchema(
  [
    int64("chain_id", "EVM chain id", { nullable: false }),
    int64("block_number", "Block height", { nullable: false }),
    hash("tx_hash", "Transaction hash"),
    address("from_address", "Sender"),
    str("label", "Free text"),
    int32("log_index", "Position of the log in the block"),
    float64("gas_price_gwei", "Gas price in gwei"),
    bool("success", "Receipt status"),
    amount("value", "Value in wei"),
    uint256("balance", "ERC-20 balance"),
    ts("block_time", "Block timestamp"),
    date("block_date", "Block day"),
    binary("input", "Call data"),
    list(
      "transfers",
      struct(
        "item",
        [address("to", "Recipient"), amount("amount", "Amount in base units"), list("tags", str("item", "Tag"), "Tags")],
        "One transfer"
      ),
      "Transfers of the transaction"
    ),
    struct("meta", [str("kind", "Kind"), int64("nonce", "Nonce"), ts("seen_at", "First seen")], "Metadata")
  ],
  "A dataset with every column type chainetl writes"
)

const INGESTED = new Date("2024-06-01T00:00:00.000Z")

export const everyTypeRows: ReadonlyArray<Row> = [
  {
    chain_id: 43114n,
    block_number: MAX_INT64,
    tx_hash: "0xabc",
    from_address: "0x00000000000000000000000000000000000000aa",
    label: "ünïcödé 'quoted' \"double\" \\ back",
    log_index: 2147483647,
    gas_price_gwei: 25.5,
    success: true,
    value: MAX_DECIMAL_38,
    ...uint256Values("balance", MAX_UINT256),
    block_time: new Date("2024-05-31T23:59:59.999Z"),
    block_date: "2024-02-29",
    input: new Uint8Array([0, 1, 2, 255]),
    transfers: [
      { to: "0x01", amount: MAX_UINT64, tags: ["a", "b"] },
      { to: null, amount: null, tags: [] }
    ],
    meta: { kind: "call", nonce: MAX_UINT64 >> 1n, seen_at: 1_717_199_999_123_456n },
    ...lineage("run-1", INGESTED)
  },
  {
    chain_id: 43114n,
    block_number: MIN_INT64,
    tx_hash: null,
    from_address: null,
    label: null,
    log_index: -2147483648,
    gas_price_gwei: null,
    success: false,
    value: -MAX_DECIMAL_38,
    ...uint256Values("balance", null),
    block_time: 1_700_000_000_123_456n,
    block_date: new Date("1970-01-01T12:00:00Z"),
    input: null,
    transfers: null,
    meta: null,
    ...lineage("run-1", INGESTED)
  },
  {
    chain_id: 1n,
    block_number: 0n,
    tx_hash: "0xdef",
    from_address: "0x00000000000000000000000000000000000000bb",
    label: "",
    log_index: 0,
    gas_price_gwei: 0,
    success: null,
    value: 0n,
    ...uint256Values("balance", (1n << 53n) + 1n),
    block_time: new Date("2015-07-30T15:26:13Z"),
    block_date: "2015-07-30",
    input: new Uint8Array(0),
    transfers: [],
    meta: { kind: null, nonce: null, seen_at: null },
    ...lineage("run-1", INGESTED)
  }
]

/** The UTC day of a row's block_time, as the Hive `day` partition value. */
export const dayOf = (row: Row): string => {
  const t = row["block_time"]
  const ms = t instanceof Date ? t.getTime() : Number((t as bigint) / 1000n)
  return new Date(ms).toISOString().slice(0, 10)
}
