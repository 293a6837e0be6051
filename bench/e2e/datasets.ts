/**
 * The three datasets the end-to-end bench crawls: a flat one (evm_blocks), a nested one
 * (staking_transactions) and one with many partitions (primary_blocks). For each: how large an
 * emulator world gives a number of rows, the listings a user's own script would page through, and
 * the SQL that script would hand to DuckDB.
 */

/** One paginated listing: the route, its fixed query, the array holding the records, and the
 * values the path stands for, which the records themselves do not carry (added as columns). */
export interface Listing {
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly items: string
  readonly context: Readonly<Record<string, string>>
}

export interface BenchDataset {
  readonly name: "evm_blocks" | "staking_transactions" | "primary_blocks"
  readonly shape: string
  /** About how many rows the emulator (seed 1) serves at a --scale, for choosing the scale only: rows are counted. */
  readonly rowsAt: (scale: number) => number
  /** The route's maximum page size (seed: Limits), what every method asks for. */
  readonly pageSize: number
  readonly listings: ReadonlyArray<Listing>
  /** Job file for chainetl; `since` is the UTC day of the oldest record, `window` (windowed only) overrides the windows' size. */
  readonly job: (since: string, window?: string) => Record<string, unknown>
  /** Time-windowed datasets are crawled with `chainetl backfill` over [since, to) instead of `run`,
   * whose range ends at the wall clock, which the emulated network's frozen clock is not. */
  readonly windowed: boolean
  readonly partitionBy: ReadonlyArray<string>
  /** The SELECT list over `read_json` of the saved records: numerics cast losslessly. */
  readonly select: string
  /** Extra `read_json` options the script needs for this dataset's records. */
  readonly readJson: string
  /** For `--pages-of` (repeatedPages.ts): how its records are copied. Absent: the dataset cannot be repeated. */
  readonly repeat?: RepeatRule
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/**
 * An id of copy `copy` (< 58²): "zz", two base58 digits of the copy, then the id. Longer than
 * any cb58 id of 32 bytes (at most 50 characters), so it can equal no source id, and the digits
 * keep copies apart (a 0x hash gets the same prefix: 70 characters, longer than any real one).
 */
export const copyId = (id: string, copy: number): string => `zz${BASE58[Math.floor(copy / 58)]}${BASE58[copy % 58]}${id}`

/**
 * How `--pages-of` copies a dataset's records: `keyField` is the records' key (copy c ≥ 1 gets
 * copyId's), `order` the direction of the listing's top-level `blockNumber`s, which every copy
 * keeps (repeatedPages.ts).
 */
export interface RepeatRule {
  readonly keyField: string
  readonly order: "asc" | "desc"
}

/**
 * Copy `copy` of `times` of one record (its JSON text): the key made the copy's (copyId), every
 * block number (`blockNumber` and the like, decimal strings) h made h × times + copy. The copies
 * of a block then sit side by side, between the block before it and the block after it, as one
 * denser chain would have them: a listing of the copies ascends (or descends) as the source's did,
 * and its parts stay disjoint ranges of height that compaction concatenates, as a real crawl's
 * (MergeOrder.ts). The rest of the text, amounts above 2^53 included, is left as it is.
 */
export const copyRecord = (record: string, copy: number, times: number, keyField: string): string => {
  const keyed = copy === 0 ? record : record.replace(keyPattern(keyField), (_m, id: string) => `"${keyField}":"${copyId(id, copy)}"`)
  return keyed.replace(/"(blockNumber|[A-Za-z]+BlockNumber)":"(\d+)"/g, (_m, field: string, n: string) => `"${field}":"${spreadHeight(BigInt(n), copy, times)}"`)
}

// compiled once per key field: copyRecord runs for every copy of every record a case serves
const keyPatterns = new Map<string, RegExp>()
const keyPattern = (keyField: string): RegExp => {
  let p = keyPatterns.get(keyField)
  if (p === undefined) keyPatterns.set(keyField, (p = new RegExp(`"${keyField}":"([^"]*)"`, "g")))
  return p
}

/** Where copy `copy` of `times` puts a block number. */
export const spreadHeight = (height: bigint, copy: number, times: number): bigint => height * BigInt(times) + BigInt(copy)

const NETWORKS = ["mainnet", "fuji"] as const
const PRIMARY_CHAINS = ["p-chain", "x-chain", "c-chain"] as const
const decimal = (field: string): string => `${field}::HUGEINT::DECIMAL(38,0) AS ${field}`
// the date partition is the record's UTC day; epoch_ms gives a TIMESTAMP without a time zone
const day = "epoch_ms(blockTimestamp::BIGINT * 1000)::DATE AS date"
const time = "to_timestamp(blockTimestamp) AS blockTimestamp"

/**
 * The windows the emulator job uses (pipelines/jobs/emulator.json): the emulated network is sparse
 * (tens of blocks a day per chain at these scales, mainnet has thousands), and a day window costs
 * a request even when it holds a handful of rows. A user sizes windows to the data the same way.
 */
const SPARSE_WINDOW = "90d"

export const benchDatasets: ReadonlyArray<BenchDataset> = [
  {
    name: "evm_blocks",
    shape: "flat",
    rowsAt: (s) => 1600 * s,
    pageSize: 100,
    listings: [{ path: "/v1/chains/43114/blocks", query: {}, items: "blocks", context: { chain_id: "43114" } }],
    job: () => ({ evmChains: ["43114"] }),
    windowed: false,
    partitionBy: ["chain_id", "date"],
    readJson: "",
    select: `* REPLACE (${time}, ${["blockNumber", "baseFee", "gasUsed", "gasLimit", "gasCost", "feesSpent", "cumulativeTransactions"].map(decimal).join(", ")}), ${day}`
  },
  {
    name: "staking_transactions",
    shape: "nested",
    // validations and delegations grow with the nodes (linear), L1 txs with the L1s (√scale);
    // fitted to 2,510 rows at scale 20 and 57,568 at 800
    rowsAt: (s) => 62 * s + 284 * Math.sqrt(s),
    pageSize: 100,
    listings: NETWORKS.map((network) => ({
      path: `/v1/networks/${network}/blockchains/p-chain/transactions:listStaking`,
      query: { sortOrder: "asc" },
      items: "transactions",
      context: { network }
    })),
    job: (since, window) => ({ networks: [...NETWORKS], incremental: { staking_transactions: { since, window: window ?? SPARSE_WINDOW } } }),
    windowed: true,
    partitionBy: ["network", "date"],
    // records differ by tx type down to their nested UTXOs (rewardType, …): the default sample of
    // 20,480 lines misses keys that appear later and the read fails; DuckDB's own advice is to scan all
    readJson: ", sample_size = -1",
    select: `* REPLACE (${time}, ${decimal("blockNumber")}), ${day}`,
    // the key is tx_hash; a record's other ids (its UTXOs', its block's) are no key of this table
    repeat: { keyField: "txHash", order: "asc" }
  },
  {
    name: "primary_blocks",
    shape: "many partitions",
    rowsAt: (s) => 3540 * s,
    pageSize: 100,
    listings: NETWORKS.flatMap((network) =>
      PRIMARY_CHAINS.map((blockchain) => ({
        path: `/v1/networks/${network}/blockchains/${blockchain}/blocks`,
        query: {},
        items: "blocks",
        context: { network, blockchain }
      }))
    ),
    job: (since, window) => ({ networks: [...NETWORKS], primaryBlockchains: [...PRIMARY_CHAINS], incremental: { primary_blocks: { since, window: window ?? SPARSE_WINDOW } } }),
    windowed: true,
    partitionBy: ["network", "blockchain", "date"],
    readJson: "",
    select: `* REPLACE (${time}, ${decimal("blockNumber")}, ${decimal("currentSupply")}), ${day}`,
    // the key is block_hash (a C-chain's is 0x hex: copyId keeps it text all the same)
    repeat: { keyField: "blockHash", order: "desc" }
  }
]

export interface BenchSize {
  readonly label: string
  readonly rows: number
}

/** "100k", "1m", "5m", "2000": the target number of rows. */
export const parseSize = (label: string): BenchSize => {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(label.trim())
  if (m === null) throw new Error(`--sizes: expected e.g. 100k, 1m or 5000, got '${label}'`)
  const unit = m[2]!.toLowerCase() === "m" ? 1_000_000 : m[2]!.toLowerCase() === "k" ? 1_000 : 1
  return { label: label.trim().toLowerCase(), rows: Math.round(Number(m[1]) * unit) }
}

/** The emulator scale that gives about `rows` rows (rounded so cache folders have stable names). */
export const scaleFor = (dataset: BenchDataset, rows: number): number => {
  // rowsAt grows with the scale: bisect
  let lo = 0
  let hi = 1
  while (dataset.rowsAt(hi) < rows) hi *= 2
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2
    if (dataset.rowsAt(mid) < rows) lo = mid
    else hi = mid
  }
  const digits = hi >= 100 ? 0 : 2
  return Math.max(0.01, Number(hi.toFixed(digits)))
}
