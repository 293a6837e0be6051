/**
 * `chainetl emulator` flags → emulator options. Kept apart from the command so `run --emulator`
 * and tests share the mapping. The flag names are public interface (docs/emulator.md).
 */
import { type Command, Options } from "@effect/cli"
import { Option } from "effect"
import type { EmulatorOptionsInput } from "@chainetl/emulator"

const num = (name: string, description: string) => Options.float(name).pipe(Options.withDescription(description), Options.optional)
const int = (name: string, description: string) => Options.integer(name).pipe(Options.withDescription(description), Options.optional)
const list = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.repeated)

export const emulatorFlags = {
  port: int("port", "Port to listen on (0 = any free port)"),
  host: Options.text("host").pipe(Options.withDescription("Interface to bind"), Options.optional),
  seed: int("seed", "Seed of the synthetic network (same seed, same data)"),
  scale: num("scale", "Size multiplier: 1 is small; 10000 gives millions of rows, generated lazily"),
  now: int("now", "Network time in Unix seconds (default: derived from the seed)"),
  tokenTtl: int("token-ttl", "Lifetime of metrics page tokens in seconds (default 86400)"),
  utxoChurn: Options.boolean("utxo-churn").pipe(Options.withDescription("avm.getUTXOs rule 6: pages overlap and the set changes between calls")),
  nodeNetwork: Options.choice("node-network", ["mainnet", "fuji"]).pipe(Options.withDescription("Network behind /ext/bc/X and /ext/bc/P"), Options.optional),
  auth: Options.choice("auth", ["optional", "required"]).pipe(Options.withDescription("required: 401 without x-service-api-key"), Options.optional),
  apiKeys: list("api-key", "A key the service accepts (repeat; none = any key)"),
  unprivilegedKeys: list("unprivileged-key", "A valid key without privilege: 403 (repeat)"),
  rateKeyless: num("rate-limit-keyless", "Requests/s for callers without a key (0 = off)"),
  rateKeyed: num("rate-limit-keyed", "Requests/s for callers with a key (0 = off)"),
  rateMetrics: num("rate-limit-metrics", "Requests/s on the metrics service (0 = off)"),
  faultSeed: int("fault-seed", "Seed of the fault draws"),
  fault5xx: num("fault-5xx", "Share of requests answered 500/502/503"),
  fault429: num("fault-429", "Share of requests that start a burst of 429s"),
  fault429Burst: int("fault-429-burst", "Consecutive 429s per burst"),
  faultRetryAfter: int("fault-retry-after", "Retry-After seconds on 429s"),
  faultLatency: int("fault-latency-ms", "Added latency per request in ms"),
  faultReset: num("fault-reset", "Share of requests whose connection is reset mid-body"),
  faultTruncate: num("fault-truncate", "Share of requests whose JSON body is cut short"),
  faultMalformed: num("fault-malformed", "Share of pages with one malformed record"),
  faultExtra: num("fault-extra-fields", "Share of pages whose records carry unknown fields")
}

export type EmulatorFlags = Command.Command.ParseConfig<typeof emulatorFlags>

const v = <A>(o: Option.Option<A>): A | undefined => Option.getOrUndefined(o)

/** Flag values → the emulator's option input (undefined = the emulator's default). */
export const toEmulatorInput = (f: EmulatorFlags): EmulatorOptionsInput => ({
  port: v(f.port),
  host: v(f.host),
  seed: v(f.seed),
  scale: v(f.scale),
  now: v(f.now),
  tokenTtlSeconds: v(f.tokenTtl),
  utxoChurn: f.utxoChurn,
  nodeNetwork: v(f.nodeNetwork),
  auth: {
    mode: v(f.auth),
    validKeys: f.apiKeys.length > 0 ? f.apiKeys : undefined,
    unprivilegedKeys: f.unprivilegedKeys.length > 0 ? f.unprivilegedKeys : undefined
  },
  rateLimit: { keylessPerSecond: v(f.rateKeyless), keyedPerSecond: v(f.rateKeyed), metricsPerSecond: v(f.rateMetrics) },
  faults: {
    seed: v(f.faultSeed),
    rate5xx: v(f.fault5xx),
    rate429: v(f.fault429),
    burst429: v(f.fault429Burst),
    retryAfterSeconds: v(f.faultRetryAfter),
    latencyMs: v(f.faultLatency),
    resetRate: v(f.faultReset),
    truncateRate: v(f.faultTruncate),
    malformedRate: v(f.faultMalformed),
    extraFieldsRate: v(f.faultExtra)
  }
})
