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
  /**
   * For `--pages-of` (repeatedPages.ts): a listing page's JSON text with the keys of its records
   * made copy `copy`'s own (copy ≥ 1), distinct from every source key and every other copy's, and
   * its heights moved past the other copies' (copyHeights).
   * Absent: the dataset cannot be repeated.
   */
  readonly copyKeys?: (body: string, copy: number) => string
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/**
 * An id of copy `copy` (< 58²): "zz", two base58 digits of the copy, then the id. Longer than
 * any cb58 id of 32 bytes (at most 50 characters), so it can equal no source id, and the digits
 * keep copies apart (a 0x hash gets the same prefix: 70 characters, longer than any real one).
 */
export const copyId = (id: string, copy: number): string => `zz${BASE58[Math.floor(copy / 58)]}${BASE58[copy % 58]}${id}`

/** How far a copy's block numbers are moved: above every real height, so copies never share one. */
export const COPY_HEIGHTS = 10n ** 12n

/**
 * Block numbers (`blockNumber` and the like, decimal strings) of copy `copy`, moved `copy` ×
 * COPY_HEIGHTS up. Copies that shared their heights would interleave in every sort key of height:
 * a month's parts could then only be sorted when compacted, never concatenated as one listing's
 * parts are (MergeOrder.ts), and the bench would measure a sort no real crawl makes.
 */
export const copyHeights = (body: string, copy: number): string =>
  body.replace(/"(blockNumber|[A-Za-z]+BlockNumber)":"(\d+)"/g, (_m, field: string, n: string) => `"${field}":"${BigInt(n) + BigInt(copy) * COPY_HEIGHTS}"`)

/** The `copyKeys` of a dataset keyed by one id field of its records: that id made the copy's (copyId), heights moved (copyHeights). */
const copyKeysOf = (keyField: string) => {
  const key = new RegExp(`"${keyField}":"([^"]*)"`, "g")
  return (body: string, copy: number): string => copyHeights(body.replace(key, (_m, id: string) => `"${keyField}":"${copyId(id, copy)}"`), copy)
}

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
    copyKeys: copyKeysOf("txHash")
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
    copyKeys: copyKeysOf("blockHash")
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
