/**
 * Everything an emulator run can be told: the CLI builds an EmulatorOptionsInput from flags and
 * hands it to startEmulator, which completes it with resolveEmulatorOptions.
 */
import type { NetworkName } from "../world/constants.ts"

export interface AuthOptions {
  /** "optional": the key only raises the rate limit (the seed's chain-data routes); "required": no key → 401. */
  readonly mode: "optional" | "required"
  /** Keys that count as valid; empty means any key is valid. */
  readonly validKeys: ReadonlyArray<string>
  /** Valid keys without privilege: 403 (seed: Authentication, rule 3). */
  readonly unprivilegedKeys: ReadonlyArray<string>
}

/** Requests per second per bucket; 0 turns a limit off. */
export interface RateLimitOptions {
  readonly keylessPerSecond: number
  readonly keyedPerSecond: number
  readonly metricsPerSecond: number
  /** Bucket capacity; undefined means one second's worth of that bucket's rate. */
  readonly burst?: number | undefined
  /**
   * Requests/s of particular keys, instead of keyedPerSecond: the service gives each key its own
   * limit ("a key raises the limits"; keys of different plans differ). Set by tests.
   */
  readonly perKey?: Readonly<Record<string, number>> | undefined
}

/** Rates are probabilities in [0, 1]; everything 0 means a well-behaved service. */
export interface FaultOptions {
  /** Seeds every fault draw, independent of the world's seed so data and faults vary separately. */
  readonly seed: number
  /** Per request: answer 500, 502 or 503. */
  readonly rate5xx: number
  /** Per request: start a burst of 429s. */
  readonly rate429: number
  /** How many consecutive requests a 429 burst covers. */
  readonly burst429: number
  readonly retryAfterSeconds: number
  /** Added delay per request: between latencyMs and 1.5 × latencyMs. */
  readonly latencyMs: number
  /** Per request: send status, headers and part of the body, then destroy the socket. */
  readonly resetRate: number
  /** Per request: a 200 whose JSON body is cut short but whose framing is correct. */
  readonly truncateRate: number
  /** Per page (path + query): one record of the main array carries a malformed value. */
  readonly malformedRate: number
  /** Per page (path + query): records carry fields the official document does not list. */
  readonly extraFieldsRate: number
}

export interface EmulatorOptions {
  /** 0 = an ephemeral port chosen by the OS. */
  readonly port: number
  readonly host: string
  readonly seed: number
  readonly scale: number
  /** Network "now" in Unix seconds at start. */
  readonly now: number
  /** Lifetime of the metrics service's UUID page tokens (seed: 24 hours). */
  readonly tokenTtlSeconds: number
  readonly utxoChurn: boolean
  /** Which network the node's /ext/bc/X and /ext/bc/P aliases serve. */
  readonly nodeNetwork: NetworkName
  readonly auth: AuthOptions
  readonly rateLimit: RateLimitOptions
  readonly faults: FaultOptions
  /**
   * Test-only: note the arrival instant of every chain-data request per API key, read with
   * RunningEmulator.keyArrivals, so a test counts per key per window at the service.
   */
  readonly recordKeyArrivals: boolean
}

/** What callers may pass: any subset, nested groups included. */
export type EmulatorOptionsInput = Partial<Omit<EmulatorOptions, "auth" | "rateLimit" | "faults">> & {
  readonly auth?: Partial<AuthOptions>
  readonly rateLimit?: Partial<RateLimitOptions>
  readonly faults?: Partial<FaultOptions>
}

const JAN_1_2025 = 1_735_689_600

/** A fixed, hour-aligned 2025 instant per seed, so one seed always shows the same network. */
export const defaultNow = (seed: number): number => JAN_1_2025 + (Math.abs(Math.trunc(seed)) % 300) * 86_400

export const defaultEmulatorOptions: EmulatorOptions = {
  port: 0,
  host: "127.0.0.1",
  seed: 1,
  scale: 1,
  now: defaultNow(1),
  tokenTtlSeconds: 86_400,
  utxoChurn: false,
  nodeNetwork: "mainnet",
  recordKeyArrivals: false,
  auth: { mode: "optional", validKeys: [], unprivilegedKeys: [] },
  rateLimit: { keylessPerSecond: 200, keyedPerSecond: 1000, metricsPerSecond: 200, burst: undefined },
  faults: {
    seed: 0,
    rate5xx: 0,
    rate429: 0,
    burst429: 3,
    retryAfterSeconds: 1,
    latencyMs: 0,
    resetRate: 0,
    truncateRate: 0,
    malformedRate: 0,
    extraFieldsRate: 0
  }
}

const check = (ok: boolean, what: string): void => {
  if (!ok) throw new RangeError(`emulator option ${what}`)
}

const isRate = (x: number): boolean => Number.isFinite(x) && x >= 0 && x <= 1
const isCount = (x: number): boolean => Number.isInteger(x) && x >= 0

/** Completes and checks options; `now` follows the seed unless given. Throws RangeError on nonsense. */
export const resolveEmulatorOptions = (input: EmulatorOptionsInput = {}): EmulatorOptions => {
  const d = defaultEmulatorOptions
  const seed = input.seed ?? d.seed
  const options: EmulatorOptions = {
    ...d,
    ...definedOnly(input),
    now: input.now ?? defaultNow(seed),
    auth: { ...d.auth, ...definedOnly(input.auth ?? {}) },
    rateLimit: { ...d.rateLimit, ...definedOnly(input.rateLimit ?? {}) },
    faults: { ...d.faults, ...definedOnly(input.faults ?? {}) }
  }
  const { faults: f, rateLimit: r } = options
  check(isCount(options.port) && options.port <= 65_535, `port must be 0..65535, got ${options.port}`)
  check(Number.isInteger(options.seed), `seed must be an integer, got ${options.seed}`)
  check(Number.isFinite(options.scale) && options.scale > 0, `scale must be > 0, got ${options.scale}`)
  check(Number.isInteger(options.now) && options.now >= 0, `now must be Unix seconds, got ${options.now}`)
  check(Number.isFinite(options.tokenTtlSeconds) && options.tokenTtlSeconds > 0, "tokenTtlSeconds must be > 0")
  check(options.nodeNetwork === "mainnet" || options.nodeNetwork === "fuji", "nodeNetwork must be mainnet or fuji")
  check(options.auth.mode === "optional" || options.auth.mode === "required", "auth.mode must be optional or required")
  for (const k of ["keylessPerSecond", "keyedPerSecond", "metricsPerSecond"] as const) {
    check(Number.isFinite(r[k]) && r[k] >= 0, `rateLimit.${k} must be >= 0`)
  }
  check(r.burst === undefined || (Number.isFinite(r.burst) && r.burst >= 1), "rateLimit.burst must be >= 1")
  for (const [k, perSecond] of Object.entries(r.perKey ?? {})) check(Number.isFinite(perSecond) && perSecond >= 0, `rateLimit.perKey of a key must be >= 0, got ${perSecond} for key #${Object.keys(r.perKey ?? {}).indexOf(k) + 1}`)
  for (const k of ["rate5xx", "rate429", "resetRate", "truncateRate", "malformedRate", "extraFieldsRate"] as const) {
    check(isRate(f[k]), `faults.${k} must be in [0, 1], got ${f[k]}`)
  }
  check(f.rate5xx + f.rate429 + f.resetRate + f.truncateRate <= 1, "faults: per-request rates must sum to <= 1")
  check(Number.isInteger(f.seed), "faults.seed must be an integer")
  check(isCount(f.burst429) && f.burst429 >= 1, "faults.burst429 must be an integer >= 1")
  check(isCount(f.retryAfterSeconds) && f.retryAfterSeconds >= 1, "faults.retryAfterSeconds must be an integer >= 1")
  check(Number.isFinite(f.latencyMs) && f.latencyMs >= 0, "faults.latencyMs must be >= 0")
  return options
}

/** Drops keys explicitly set to undefined so they do not erase defaults when spread. */
const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
