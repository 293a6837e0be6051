/** Flags of the end-to-end bench (`npm run bench -- --help` lists them). */
import * as fs from "node:fs"
import * as path from "node:path"
import { benchDatasets, type BenchDataset, type BenchSize, parseSize } from "./datasets.ts"
import { DEFAULT_METHODS, METHODS, type MethodName, REPO } from "./methods.ts"

export interface E2eArgs {
  readonly datasets: ReadonlyArray<BenchDataset>
  readonly sizes: ReadonlyArray<BenchSize>
  readonly methods: ReadonlyArray<MethodName>
  readonly repeat: number
  readonly partRows: number
  /** chainetl --part-mb; absent: chainetl's own default. */
  readonly partMb?: number
  readonly seed: number
  readonly cacheDir: string
  readonly resultsFile: string
  readonly cpuProf: boolean
  readonly rateLimit: number
  /** `incremental.<dataset>.window` of the windowed datasets' job (default 90d). */
  readonly window?: string
  /** Build each size from this size's recording, each record served size ÷ this size times (repeatedPages.ts). */
  readonly pagesOf?: BenchSize
  /**
   * With `pagesOf`: the larger case's pages are served as they are made, not recorded (proxy mode
   * "pass"), for sizes whose recording would not fit the disk; duckdb-only (it converts saved
   * pages) is not run.
   */
  readonly streamPages: boolean
  /** Another checkout of chainetl, built: the method `baseline` runs its CLI with chainetl's flags (A/B of two builds). */
  readonly baselineRepo?: string
}

export const USAGE = `npm run bench [-- flags]      end-to-end: chainetl vs the references on replayed emulator pages
  --sizes 100k,1m,5m        target rows per dataset (default 100k); --smoke = --sizes 2k --repeat 1
  --datasets a,b            evm_blocks, staking_transactions, primary_blocks (default all three)
  --methods a,b             chainetl, plain, duckdb-only, naive, baseline (default the first four)
  --repeat N                measured runs per method, interleaved; medians reported (default 3)
  --part-rows N             chainetl --part-rows (default 10000, its own default)
  --part-mb N               chainetl --part-mb (default: not passed, its own default 12)
  --rate-limit R            CHAINETL_RATE_LIMIT for chainetl (default 100000: no limiter, like the references)
  --seed N                  emulator seed (default 1)
  --window D                chainetl's window for staking_transactions and primary_blocks (default 90d; others
                            than 90d ask for pages not recorded yet: the warm-up run records them)
  --pages-of SIZE           build each size from the recording of SIZE (e.g. 100k, recorded by an earlier run),
                            every record served size/SIZE times, its copies side by side with keys of their
                            own: sizes the emulator would take hours to record (staking_transactions, primary_blocks)
  --stream-pages            with --pages-of: serve those pages as they are made instead of recording them (a
                            size whose recording would not fit the disk); every method still reads the same
                            pages; no warm-up run, no duckdb-only (it needs the pages saved)
  --baseline DIR            another checkout of chainetl, built (npm run build in it): the method baseline runs
                            its CLI with chainetl's flags on the same pages, interleaved (default methods then:
                            chainetl,baseline); the ratio chainetl/baseline compares two builds
  --cpu-prof                one more chainetl run per case under node --cpu-prof, top self time printed
  --cache-dir DIR           recordings, kept across runs (default bench/.cache)
  --results FILE            default bench/results.json
npm run bench -- --writers [--rows N] [--repeat N]   the Parquet writer bench (and planning)
npm run bench -- --planning-only [--years N]          the planning bench alone
npm run bench -- --startup                            the CLI's start-up CPU alone
npm run bench -- --file-cost [--repeat N]             CPU of one more file in the sink
npm run bench -- --http [--requests N] [--repeat N]   CPU of one request: chainetl's client, @effect/platform's, fetch
npm run bench -- --committed-keys [--rows N]          memory of a restart's committed keys: texts vs digests (default 1M)`

const value = (argv: ReadonlyArray<string>, name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`)
  if (i < 0) return undefined
  const v = argv[i + 1]
  if (v === undefined || v.startsWith("--")) throw new Error(`--${name} needs a value`)
  return v
}

const positiveInt = (argv: ReadonlyArray<string>, name: string, fallback: number): number => {
  const raw = value(argv, name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a positive integer, got '${raw}'`)
  return n
}

const list = <A>(argv: ReadonlyArray<string>, name: string, all: ReadonlyArray<A>, nameOf: (a: A) => string, fallback: ReadonlyArray<A>): A[] => {
  const raw = value(argv, name)
  if (raw === undefined) return [...fallback]
  return raw.split(",").map((n) => {
    const found = all.find((a) => nameOf(a) === n.trim())
    if (found === undefined) throw new Error(`--${name}: '${n}' is not one of ${all.map(nameOf).join(", ")}`)
    return found
  })
}

/** The flags the end-to-end bench takes, those with a value first (USAGE). */
const VALUE_FLAGS = ["sizes", "datasets", "methods", "repeat", "part-rows", "part-mb", "rate-limit", "seed", "window", "pages-of", "baseline", "cache-dir", "results"]
const SWITCHES = ["smoke", "stream-pages", "cpu-prof"]

/**
 * Refuses a flag the bench does not take, naming the nearest it does: a misspelt `--size 20k`
 * once ran the default size instead, a 34-minute recording nobody asked for.
 */
const refuseUnknown = (argv: ReadonlyArray<string>) => {
  const known = [...VALUE_FLAGS, ...SWITCHES]
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (!a.startsWith("--")) continue
    const name = a.slice(2)
    if (VALUE_FLAGS.includes(name)) i++
    else if (!SWITCHES.includes(name)) {
      const near = known.filter((k) => k.startsWith(name) || name.startsWith(k))
      throw new Error(`${a} is not a flag of npm run bench${near.length === 0 ? "" : `: did you mean ${near.map((k) => `--${k}`).join(" or ")}?`} (npm run bench -- --help)`)
    }
  }
}

export const parseE2eArgs = (argv: ReadonlyArray<string>): E2eArgs => {
  refuseUnknown(argv)
  const smoke = argv.includes("--smoke")
  const window = value(argv, "window")
  const partMb = value(argv, "part-mb") === undefined ? undefined : positiveInt(argv, "part-mb", 1)
  const pagesOf = value(argv, "pages-of")
  const streamPages = argv.includes("--stream-pages")
  if (streamPages && pagesOf === undefined) throw new Error("--stream-pages serves the pages of --pages-of: give --pages-of SIZE too")
  const baseline = value(argv, "baseline")
  const baselineRepo = baseline === undefined ? undefined : path.resolve(baseline)
  if (baselineRepo !== undefined && !fs.existsSync(path.join(baselineRepo, "dist", "cli", "bin.js"))) {
    throw new Error(`--baseline ${baseline}: no built chainetl there (dist/cli/bin.js); run npm install or npm run build in it`)
  }
  const fallback = baselineRepo !== undefined ? (["chainetl", "baseline"] as const) : streamPages ? DEFAULT_METHODS.filter((m) => m !== "duckdb-only") : DEFAULT_METHODS
  const methods = list(argv, "methods", METHODS, (m) => m, fallback)
  if (streamPages && methods.includes("duckdb-only")) throw new Error("--stream-pages saves no pages, which duckdb-only converts: leave it out of --methods")
  if (baselineRepo === undefined && methods.includes("baseline")) throw new Error("--methods baseline needs --baseline DIR (the other checkout)")
  return {
    datasets: list(argv, "datasets", benchDatasets, (d) => d.name, benchDatasets),
    sizes: (value(argv, "sizes") ?? (smoke ? "2k" : "100k")).split(",").map(parseSize),
    methods,
    streamPages,
    ...(baselineRepo === undefined ? {} : { baselineRepo }),
    repeat: positiveInt(argv, "repeat", smoke ? 1 : 3),
    partRows: positiveInt(argv, "part-rows", 10_000),
    seed: Number(value(argv, "seed") ?? 1),
    cacheDir: path.resolve(value(argv, "cache-dir") ?? path.join(REPO, "bench", ".cache")),
    resultsFile: path.resolve(value(argv, "results") ?? path.join(REPO, "bench", "results.json")),
    cpuProf: argv.includes("--cpu-prof"),
    rateLimit: positiveInt(argv, "rate-limit", 100_000),
    ...(window === undefined ? {} : { window }),
    ...(partMb === undefined ? {} : { partMb }),
    ...(pagesOf === undefined ? {} : { pagesOf: parseSize(pagesOf) })
  }
}
