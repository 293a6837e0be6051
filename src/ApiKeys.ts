/**
 * The API keys of the chain-data service and each key's budget. Secrets come only from the
 * environment; a job file gives budgets to keys by name, so it can be committed and shared.
 *
 * - `CHAINETL_API_KEY=secret`: one key, named `default` (unchanged from before several keys).
 * - `CHAINETL_API_KEYS=alpha=secret1,beta=secret2`: several keys, each with a name (what the job,
 *   logs and reports call it) and its secret. Commas or whitespace separate entries; the first
 *   `=` separates name and secret.
 * Both set is refused: which one meant what would be a guess.
 *
 * A key the job gives no budget gets the defaults (CHAINETL_RATE_LIMIT requests/s and the
 * burst the per-host limiter would have), so one key behaves exactly as before.
 */
import { Either, Redacted } from "effect"
import { createHash } from "node:crypto"
import { ConfigError } from "./Errors.ts"

export const API_KEY_ENV = "CHAINETL_API_KEY"
export const API_KEYS_ENV = "CHAINETL_API_KEYS"
/** The name CHAINETL_API_KEY's key goes by in logs, reports and the job's `apiKeys`. */
export const DEFAULT_KEY_NAME = "default"

export const KEY_NAME = /^[A-Za-z0-9_.-]{1,40}$/

export interface KeyBudget {
  /** Requests per second: the ceiling the rate climbs back to after a 429 halved it. */
  readonly rate: number
  /** Tokens the key's bucket may save up: the most requests sent at once after a pause. */
  readonly burst: number
}

export interface ApiKey extends KeyBudget {
  readonly name: string
  readonly secret: Redacted.Redacted<string>
  /**
   * Identifies the key in shared state (PostgreSQL): a SHA-256 digest of the secret, never the
   * secret. Keyed by the secret, not the name, because the service budgets the secret: two
   * processes calling one key by two names still share its budget.
   */
  readonly id: string
}

/** What the job says of one key (src/Job.ts `apiKeys`). */
export interface KeyBudgetInput {
  readonly rate?: number | undefined
  readonly burst?: number | undefined
}

export const keyId = (secret: Redacted.Redacted<string>): string =>
  `sha256:${createHash("sha256").update("chainetl api key\0").update(Redacted.value(secret)).digest("hex").slice(0, 32)}`

const keysFix = `export ${API_KEYS_ENV}=alpha=<key>,beta=<key> (names: letters, digits, _ . -)`

const invalid = (field: string, detail: string, fix: string) => new ConfigError({ reason: "Invalid", field, detail, fix })

/** `alpha=s1,beta=s2` as name/secret pairs; never quotes a secret in its errors. */
export const parseKeyList = (raw: Redacted.Redacted<string>): Either.Either<ReadonlyArray<{ readonly name: string; readonly secret: Redacted.Redacted<string> }>, ConfigError> => {
  const entries = Redacted.value(raw).split(/[\s,]+/).filter((e) => e !== "")
  const keys: Array<{ name: string; secret: Redacted.Redacted<string> }> = []
  for (const [i, entry] of entries.entries()) {
    const eq = entry.indexOf("=")
    const name = eq < 0 ? "" : entry.slice(0, eq)
    const secret = eq < 0 ? "" : entry.slice(eq + 1)
    if (eq < 0 || !KEY_NAME.test(name)) {
      // the entry may be a bare secret: say which entry, never what it holds
      return Either.left(invalid(API_KEYS_ENV, `entry ${i + 1} is not name=key with a name of letters, digits, _ . - (at most 40)`, keysFix))
    }
    if (secret === "") return Either.left(invalid(API_KEYS_ENV, `key '${name}' has an empty secret`, keysFix))
    if (keys.some((k) => k.name === name)) return Either.left(invalid(API_KEYS_ENV, `key name '${name}' is given twice`, "give each key its own name"))
    if (keys.some((k) => Redacted.value(k.secret) === secret)) {
      const first = keys.find((k) => Redacted.value(k.secret) === secret)!.name
      return Either.left(invalid(API_KEYS_ENV, `keys '${first}' and '${name}' are the same key (one budget at the service, counted twice here)`, "list each key once"))
    }
    keys.push({ name, secret: Redacted.make(secret) })
  }
  return Either.right(keys)
}

/**
 * The keys of the environment with their budgets. `budgets` (the job's `apiKeys`, errors named
 * `budgetsField`) may only name keys the environment has: a budget for a key that is not there
 * is a job written for another environment, and crawling without it would be a surprise.
 */
export const resolveApiKeys = (input: {
  readonly single: Redacted.Redacted<string> | undefined
  readonly list: Redacted.Redacted<string> | undefined
  readonly budgets: Readonly<Record<string, KeyBudgetInput>> | undefined
  readonly budgetsField: string
  readonly defaults: KeyBudget
}): Either.Either<ReadonlyArray<ApiKey>, ConfigError> =>
  Either.gen(function* () {
    const single = input.single === undefined || Redacted.value(input.single) === "" ? undefined : input.single
    const list = input.list === undefined || Redacted.value(input.list).trim() === "" ? undefined : input.list
    if (single !== undefined && list !== undefined) {
      return yield* Either.left(
        invalid(`${API_KEY_ENV}, ${API_KEYS_ENV}`, "both are set", `unset ${API_KEY_ENV} and list every key in ${API_KEYS_ENV} (its key as ${DEFAULT_KEY_NAME}=<key> keeps its name)`)
      )
    }
    const named = list !== undefined ? yield* parseKeyList(list) : single !== undefined ? [{ name: DEFAULT_KEY_NAME, secret: single }] : []
    const budgets = input.budgets ?? {}
    for (const name of Object.keys(budgets)) {
      if (!named.some((k) => k.name === name)) {
        const have = named.length === 0 ? "no key is set" : `the keys set are ${named.map((k) => k.name).join(", ")}`
        return yield* Either.left(
          invalid(`${input.budgetsField}: apiKeys.${name}`, `a budget for key '${name}', but ${have}`, `add ${name}=<key> to ${API_KEYS_ENV}, or remove apiKeys.${name} from the job`)
        )
      }
    }
    return named.map((k): ApiKey => {
      const b = budgets[k.name] ?? {}
      const rate = b.rate ?? input.defaults.rate
      return { name: k.name, secret: k.secret, id: keyId(k.secret), rate, burst: b.burst ?? input.defaults.burst }
    })
  })

/** Cuts every key's secret out of a text (a service may echo the key in its error message). */
export const scrubKeys = (keys: ReadonlyArray<ApiKey>) => (text: string): string =>
  keys.reduce((t, k) => t.split(Redacted.value(k.secret)).join("<redacted>"), text)
