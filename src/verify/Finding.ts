/**
 * What `chainetl verify` finds, and the command that re-crawls it. A finding is plain data (the
 * checks are pure: they take facts read from the output and return findings), so the text, the
 * JSON, the metrics and `--repair` all read the same list.
 */

export const CHECKS = ["heights", "links", "windows", "slices", "exactly-once", "freshness"] as const
export type Check = (typeof CHECKS)[number]

/**
 * How a failure is re-crawled: a backfill of exactly the heights or the window (`refetch`: the
 * window's parts are removed first and it is listed whole again, for rows that are wrong rather
 * than missing), the dataset's nightly run (listings that fill their own gaps, freshness), or the
 * nightly run with one slice crawled again whole (`run --refetch-slice`: a slice of a dataset
 * that takes no range, whose files lost rows its checkpoint committed), or only some heights of it
 * (`--refetch-slice <slice>@<from>-<to>`: a listing that fills what it lacks below its top).
 */
export type Repair =
  | {
      readonly kind: "backfill"
      readonly dataset: string
      /** As the CLI takes them: heights, or UTC instants. */
      readonly from: string
      readonly to: string
      /** The size of the window to cut, so the backfill makes exactly [from, to) one window. */
      readonly window?: string
      readonly refetch?: true
    }
  | { readonly kind: "run"; readonly dataset: string }
  | {
      readonly kind: "refetch-slice"
      readonly dataset: string
      readonly slice: string
      /** Only these heights (both included) of a listing that fills what it lacks below its top (evm_blocks). */
      readonly heights?: { readonly from: string; readonly to: string }
      /** Slices re-crawled with it, whole (compaction merged their rows with its). */
      readonly with?: ReadonlyArray<string>
    }

export interface Finding {
  readonly dataset: string
  readonly check: Check
  /** The listing it concerns (`network`, `blockchain`…), empty for the whole dataset. */
  readonly listing: Readonly<Record<string, string>>
  /** One sentence naming what is wrong: the heights, the window, the key, the file. */
  readonly what: string
  /** Undefined when no crawl mends it; `fix` then says what does. */
  readonly repair?: Repair
  readonly fix?: string
}

/** A note that is no failure (a day a finished window covers without rows: the service listed nothing). */
export interface Note {
  readonly dataset: string
  readonly listing: Readonly<Record<string, string>>
  readonly what: string
}

/** Where the commands point: the output as given, and the job file when one was. */
export interface CommandContext {
  readonly out: string
  readonly job?: string
}

const quote = (s: string): string => (/^[A-Za-z0-9_./:@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** `--refetch-slice`'s value: the slice id, and `@<from>-<to>` for some heights of it. */
export const refetchSliceText = (r: Extract<Repair, { kind: "refetch-slice" }>): string => `${r.slice}${r.heights === undefined ? "" : `@${r.heights.from}-${r.heights.to}`}`

/** Every `--refetch-slice` value of the repair: its slice, then those re-crawled with it. */
export const refetchSliceTexts = (r: Extract<Repair, { kind: "refetch-slice" }>): ReadonlyArray<string> => [refetchSliceText(r), ...(r.with ?? [])]

/** The exact command line of a repair. */
export const commandOf = (r: Repair, ctx: CommandContext): string => {
  const where = [`--out ${quote(ctx.out)}`, ...(ctx.job === undefined ? [] : [`--job ${quote(ctx.job)}`])].join(" ")
  if (r.kind === "run") return `chainetl run ${r.dataset} ${where}`
  if (r.kind === "refetch-slice") return `chainetl run ${r.dataset} ${refetchSliceTexts(r).map((t) => `--refetch-slice ${quote(t)}`).join(" ")} ${where}`
  const window = r.window === undefined ? "" : ` --window ${r.window}`
  return `chainetl backfill ${r.dataset} --from ${r.from} --to ${r.to}${window}${r.refetch === true ? " --refetch" : ""} ${where}`
}

/** Each repair once, in the order first met: two findings of one window re-crawl it once. */
export const repairsOf = (findings: ReadonlyArray<Finding>): ReadonlyArray<Repair> => {
  const seen = new Map<string, Repair>()
  for (const f of findings) if (f.repair !== undefined) seen.set(JSON.stringify(f.repair), seen.get(JSON.stringify(f.repair)) ?? f.repair)
  return [...seen.values()]
}

/** `network=mainnet/blockchain=p-chain`, or the dataset alone. */
export const listingText = (listing: Readonly<Record<string, string>>): string =>
  Object.entries(listing)
    .map(([k, v]) => `${k}=${v}`)
    .join("/")
