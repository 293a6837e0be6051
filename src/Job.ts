/**
 * What one run crawls: networks, chains, address sets, contracts, thresholds, metrics, datasets.
 * A job file is JSON (see pipelines/jobs/); every field has a default so `{}` is a valid job.
 * The schema is the documentation: each field says what reads it.
 */
import { Either, ParseResult, Schema } from "effect"
import { LosslessNumber, parse as parseLossless } from "lossless-json"
import { promises as fs } from "node:fs"
import { ConfigError } from "./Errors.ts"
import { closest } from "./DidYouMean.ts"
import { DURATION_PATTERN, INSTANT_PATTERN, parseInstant } from "./Time.ts"

export const Network = Schema.Literal("mainnet", "fuji")
export type Network = typeof Network.Type

const withDefault = <A, I>(schema: Schema.Schema<A, I, never>, value: () => A) =>
  Schema.optionalWith(schema, { default: value, exact: true })

/**
 * A JSON number written where the job means an exact integer (a chain id, a block window): job
 * files are parsed losslessly (numbers arrive as their text), so 43114 and "43114" are the same
 * and a 30-digit threshold keeps every digit. A JS number (a job built in code) must be a safe
 * integer, or it could already have lost digits.
 */
const NumberText = Schema.transformOrFail(Schema.Union(Schema.instanceOf(LosslessNumber), Schema.Number), Schema.String, {
  strict: true,
  decode: (n, _, ast) =>
    typeof n === "number"
      ? Number.isSafeInteger(n)
        ? ParseResult.succeed(String(n))
        : ParseResult.fail(new ParseResult.Type(ast, n, `a whole number, exact: write ${n} as a string (as a JSON number it is already rounded)`))
      : ParseResult.succeed(n.toString()),
  encode: (s) => ParseResult.succeed(new LosslessNumber(s))
})

/** A decimal string, or the same number written as a JSON number. */
const digits = (pattern: RegExp, message: string) =>
  Schema.Union(Schema.String, NumberText).pipe(Schema.pattern(pattern, { message: () => message }))

/** A JSON number the code needs as a JS number: exact only up to 2^53. */
const SafeInt = Schema.transformOrFail(Schema.Union(Schema.instanceOf(LosslessNumber), Schema.Number), Schema.Number, {
  strict: true,
  decode: (n, _, ast) => {
    const v = typeof n === "number" ? n : Number(n.toString())
    return Number.isSafeInteger(v) ? ParseResult.succeed(v) : ParseResult.fail(new ParseResult.Type(ast, n, `expected a whole number, got ${String(n)}`))
  },
  encode: (v) => ParseResult.succeed(v)
})

/** A positive JSON number (fractions allowed): a rate in requests per second. */
const PositiveRate = Schema.transformOrFail(Schema.Union(Schema.instanceOf(LosslessNumber), Schema.Number), Schema.Number, {
  strict: true,
  decode: (n, _, ast) => {
    const v = typeof n === "number" ? n : Number(n.toString())
    return Number.isFinite(v) && v > 0 ? ParseResult.succeed(v) : ParseResult.fail(new ParseResult.Type(ast, n, `expected a positive number of requests per second, got ${String(n)}`))
  },
  encode: (v) => ParseResult.succeed(v)
})

/**
 * apiKeys: the budget of each key by the name CHAINETL_API_KEYS gives it (`default` for
 * CHAINETL_API_KEY). Never the key itself: job files are committed and shared.
 */
export const KeyBudgetSettings = Schema.Struct({
  /** Requests per second this key may send, all processes sharing it together. */
  rate: Schema.optional(PositiveRate),
  /** Requests it may send at once after being idle. */
  burst: Schema.optional(SafeInt.pipe(Schema.greaterThanOrEqualTo(1, { message: () => "a whole number of at least 1" })))
})

const ChainId = digits(/^[0-9]{1,20}$/, "an EVM chain id (decimal digits), e.g. 43114")
const EvmAddress = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/, { message: () => "a 0x-prefixed 20-byte hex address" }))
const EvmTxHash = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{64}$/, { message: () => "a 0x-prefixed 32-byte hex hash" }))
const DecimalString = digits(/^[0-9]{1,78}$/, "a decimal integer")
const Height = digits(/^[0-9]{1,20}$/, "a block height (decimal digits)")
const WindowSize = digits(/^[1-9][0-9]{0,19}$/, "a window size of at least 1 (decimal digits)")
const PrimaryChain = Schema.Literal("p-chain", "x-chain", "c-chain")

export const AddressSet = Schema.Struct({
  /** Names the set in slice ids and partitions. */
  name: Schema.String.pipe(Schema.pattern(/^[a-z0-9_-]{1,40}$/, { message: () => "lowercase letters, digits, _ or -, at most 40" })),
  network: Network,
  /** utxos: the REST blockchain; avm_utxos: x-chain only. */
  blockchain: PrimaryChain,
  /** Bech32 addresses with or without the chain prefix, e.g. X-avax1… or avax1… */
  addresses: Schema.Array(Schema.String).pipe(Schema.minItems(1))
})

export const ContractRef = Schema.Struct({ chainId: ChainId, address: EvmAddress })
export const TokenHolderQuery = Schema.Struct({
  chainId: ChainId,
  address: EvmAddress,
  /** Minimum balance in the token's smallest unit (route 14 `threshold`). */
  threshold: DecimalString
})
export const HeightRange = Schema.Struct({
  /** Inclusive. */
  from: Height,
  /** Exclusive; absent = up to the latest height at run time. */
  to: Schema.optional(Height)
})

/** chain_metrics: metric names (absent = all) and the time window (Unix seconds; absent = all history). */
export const MetricsWindow = Schema.Struct({
  metrics: Schema.optional(Schema.Array(Schema.String)),
  startTimestamp: Schema.optional(SafeInt.pipe(Schema.nonNegative())),
  endTimestamp: Schema.optional(SafeInt.pipe(Schema.nonNegative()))
})

const Duration = Schema.String.pipe(Schema.pattern(DURATION_PATTERN, { message: () => 'a duration: a whole number and s, m, h or d, e.g. "1d" or "6h"' }))
const instantMessage = 'a UTC date "2025-01-31" or instant "2025-01-31T12:00:00Z" that the calendar has'
const Instant = Schema.String.pipe(
  Schema.pattern(INSTANT_PATTERN, { message: () => instantMessage }),
  Schema.filter((t) => parseInstant(t) !== undefined, { message: () => instantMessage })
)

/** Windowed datasets (primary_blocks, staking_transactions): overrides of the pipeline's defaults. */
export const IncrementalSettings = Schema.Struct({
  /** Size of new windows (each its own slice and checkpoint). */
  window: Schema.optional(Duration),
  /** How far back a rerun refetches: a window is final once a run has completed it this long after its end. */
  lookback: Schema.optional(Duration),
  /** Where the nightly run starts; older history is left to `chainetl backfill`. */
  since: Schema.optional(Instant)
})

export const JobSchema = Schema.Struct({
  /** Every primary-network dataset runs once per network. */
  networks: withDefault(Schema.Array(Network).pipe(Schema.minItems(1)), () => ["mainnet", "fuji"] as const),
  /** Datasets to run; absent = every dataset except the legacy ones. CLI arguments win. */
  datasets: Schema.optional(Schema.Array(Schema.String)),
  /** primary_blocks (route 12). */
  primaryBlockchains: withDefault(Schema.Array(PrimaryChain), () => ["p-chain", "x-chain", "c-chain"] as const),
  /** evm_blocks, chains, chain_metrics, avg_tps: EVM chain ids. */
  evmChains: withDefault(Schema.Array(ChainId), () => ["43114", "43113"]),
  /** utxos (REST routes 2/3) and avm_utxos (avm.getUTXOs). */
  addressSets: withDefault(Schema.Array(AddressSet), () => []),
  /** utxos: also list spent UTXOs. */
  includeSpent: withDefault(Schema.Boolean, () => false),
  /** avm_utxos: also fetch atomic UTXOs exported to the X-chain from these chains. */
  atomicSourceChains: withDefault(Schema.Array(Schema.Literal("P", "C")), () => ["P", "C"] as const),
  /** token_transfers (and through them evm_transactions, nft_tokens), contract_metadata. */
  tokenContracts: withDefault(Schema.Array(ContractRef), () => []),
  /** token_transfers: blocks per slice; a closed window is final and never crawled again. */
  transferBlockWindow: withDefault(WindowSize, () => "10000"),
  /** evm_transactions: hashes to fetch besides those found in token_transfers. */
  transactionHashes: withDefault(Schema.Array(Schema.Struct({ chainId: ChainId, txHash: EvmTxHash })), () => []),
  /** native_balances: addresses whose native balance is snapshotted. */
  nativeBalances: withDefault(Schema.Array(ContractRef), () => []),
  /** native_balances: price currency (route 9 `currency`). */
  currency: withDefault(
    Schema.Literal("usd", "eur", "aud", "cad", "chf", "clp", "cny", "czk", "dkk", "gbp", "hkd", "huf", "jpy", "nzd"),
    () => "usd" as const
  ),
  /** nft_holders. */
  nftContracts: withDefault(Schema.Array(ContractRef), () => []),
  /** token_holders (route 14). */
  tokenHolders: withDefault(Schema.Array(TokenHolderQuery), () => []),
  /** chain_metrics: metric names (absent = all) and the time window (Unix seconds; absent = all history). */
  metrics: withDefault(MetricsWindow, (): typeof MetricsWindow.Type => ({})),
  /** current_validators: subnets besides the primary network. */
  subnets: withDefault(Schema.Array(Schema.String), () => []),
  /** node_x_blocks / node_p_blocks: heights per slice window, and an optional fixed range. */
  nodeHeightWindow: withDefault(WindowSize, () => "1000"),
  nodeXHeights: Schema.optional(HeightRange),
  nodePHeights: Schema.optional(HeightRange),
  /** Per windowed dataset name: window size, lookback and nightly start (docs/operations.md#nightly-and-backfill). */
  incremental: withDefault(Schema.Record({ key: Schema.String, value: IncrementalSettings }), (): Record<string, typeof IncrementalSettings.Type> => ({})),
  /**
   * Per dataset name: how old its newest data may be before `chainetl verify` fails it, a duration
   * such as "26h" (docs/operations.md, Verify); datasets not named have no freshness check.
   */
  freshness: withDefault(Schema.Record({ key: Schema.String, value: Duration }), (): Record<string, string> => ({})),
  /**
   * Per time-ordered dataset name: its partition grain, "day" (Hive key `date`) or "month" (Hive
   * key `month`, `date` kept as a column); absent = the grain its pipeline file chose.
   */
  partitionGrain: withDefault(Schema.Record({ key: Schema.String, value: Schema.Literal("day", "month") }), (): Record<string, "day" | "month"> => ({})),
  /** Per API key name (CHAINETL_API_KEYS): its budget; keys not named get CHAINETL_RATE_LIMIT (docs/configuration.md#several-api-keys). */
  apiKeys: withDefault(
    Schema.Record({
      key: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_.-]{1,40}$/, { message: () => "a key name: letters, digits, _ . - (at most 40)" })),
      value: KeyBudgetSettings
    }),
    (): Record<string, typeof KeyBudgetSettings.Type> => ({})
  ),
  /** legacy_balances: deprecated node methods, off unless enabled. */
  legacy: withDefault(
    Schema.Struct({
      enabled: withDefault(Schema.Boolean, () => false),
      /** X-/P-chain addresses for avm.getBalance/getAllBalances and platform.getBalance. */
      addresses: withDefault(Schema.Array(Schema.Struct({ network: Network, address: Schema.String })), () => [])
    }),
    () => ({ enabled: false, addresses: [] })
  )
})

export type Job = typeof JobSchema.Type

const decodeJob = Schema.decodeUnknownEither(JobSchema, { errors: "all", onExcessProperty: "error" })

/** The defaults, i.e. the job of `{}`. */
export const defaultJob: Job = Either.getOrThrow(decodeJob({}))

const jobFields = Object.keys(JobSchema.fields)

/**
 * Schema issues as a person reads them: one line per field path (a union reports one issue per
 * member: they are merged into "expected A or B, got X"), what was expected and what was got.
 */
const describeIssues = (issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>): string => {
  const byPath = new Map<string, { expected: Array<string>; got: string | undefined; other: Array<string>; unexpected: boolean; key: unknown }>()
  for (const issue of issues) {
    const where = issue.path.join(".") || "(root)"
    const entry = byPath.get(where) ?? { expected: [], got: undefined, other: [], unexpected: false, key: issue.path[issue.path.length - 1] }
    byPath.set(where, entry)
    const m = /^Expected (.*), actual (.*)$/s.exec(issue.message)
    if (issue._tag === "Unexpected") entry.unexpected = true
    else if (m !== null) {
      if (m[1] !== "undefined") entry.expected.push(m[1] as string)
      entry.got = m[2]
    } else if (!entry.other.includes(issue.message)) entry.other.push(issue.message)
  }
  return [...byPath.entries()]
    .map(([where, e]) => {
      if (e.unexpected && typeof e.key === "string" && !where.includes(".")) return `${where}: not a job field${suggestion(e.key, jobFields)}`
      if (e.unexpected) return `${where}: not expected here`
      if (e.other.length === 1 && e.other[0] === "is missing") return `${where}: missing`
      if (e.other.length > 0) return `${where}: ${e.other.join("; ")}${e.got === undefined ? "" : `, got ${e.got}`}`
      const literals = e.expected.map((x) => /^"(.*)"$/.exec(x)?.[1]).filter((x): x is string => x !== undefined)
      const near = e.got === undefined ? "" : suggestion(e.got.replace(/^"|"$/g, ""), literals)
      return `${where}: expected ${e.expected.join(" or ")}, got ${e.got ?? "nothing"}${near}`
    })
    .join("; ")
}

const suggestion = (got: string, known: ReadonlyArray<string>): string => {
  const near = closest(got, known)
  return near === undefined ? "" : ` (did you mean ${near}?)`
}

/** Validates a parsed job; errors name the field path (once), what was expected and what was got. */
export const parseJob = (raw: unknown, source: string): Either.Either<Job, ConfigError> =>
  Either.mapLeft(decodeJob(raw), (error) =>
    new ConfigError({
      reason: "Invalid",
      field: source,
      detail: describeIssues(ParseResult.ArrayFormatter.formatErrorSync(error)),
      fix: "correct the job file (docs/configuration.md#job-files)"
    })
  )

/** "position 19" of a JSON syntax error → "line 3, column 8". */
const lineColumn = (text: string, message: string): string => {
  const m = /at position (\d+)/.exec(message)
  if (m === null) return message
  const pos = Number(m[1])
  const before = text.slice(0, pos)
  const line = before.split("\n").length
  const column = pos - before.lastIndexOf("\n")
  return `line ${line}, column ${column}: ${message.replace(/ at position \d+/, "")}`
}

/** Reads and validates a JSON job file; numbers are read losslessly (see NumberText). */
export const loadJobFile = async (file: string): Promise<Either.Either<Job, ConfigError>> => {
  let text: string
  try {
    text = await fs.readFile(file, "utf8")
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory, not a file" : code === "EACCES" ? "permission denied" : (e as Error).message
    return Either.left(new ConfigError({ reason: "Missing", field: "--job", detail: `cannot read ${file}: ${why}`, fix: "pass the path of an existing job file" }))
  }
  let raw: unknown
  try {
    raw = parseLossless(text, null, (value) => new LosslessNumber(value))
  } catch (e) {
    return Either.left(new ConfigError({ reason: "Invalid", field: file, detail: `not JSON: ${lineColumn(text, (e as Error).message)}`, fix: "make the job file valid JSON" }))
  }
  return parseJob(raw, file)
}

