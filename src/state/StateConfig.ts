/**
 * Where checkpoints and the writer lock live: `CHAINETL_STATE_URL` unset keeps them in the
 * output folder (`<out>/_state`, the embedded default); `postgres://…` puts them in PostgreSQL.
 *
 * The URL usually carries a password, so it is held as `Redacted` from the moment it is read and
 * no error built here quotes it: a bad value is described by its scheme alone.
 */
import { Config, Effect, Either, Option, Redacted } from "effect"
import { ConfigError } from "../Errors.ts"

export const STATE_URL_ENV = "CHAINETL_STATE_URL"

const EXAMPLE = "postgres://user:password@host:5432/database"
const fix = `export ${STATE_URL_ENV}=${EXAMPLE}, or unset it to keep checkpoints in <out>/_state`

/** Scheme of a value that failed, never the rest of it (it may hold a password). */
const schemeOf = (raw: string): string => {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(raw.trim())
  return m === null ? "a value that is not a URL" : `a URL of scheme '${m[1]}:'`
}

/** `none` when unset or empty (the file store); the URL when it is a postgres(ql):// URL. */
export const parseStateUrl = (
  raw: Redacted.Redacted<string> | undefined
): Either.Either<Option.Option<Redacted.Redacted<string>>, ConfigError> => {
  const text = raw === undefined ? "" : Redacted.value(raw).trim()
  if (text === "") return Either.right(Option.none())
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return Either.left(new ConfigError({ reason: "Invalid", field: STATE_URL_ENV, detail: `expected a postgres:// URL, got ${schemeOf(text)}`, fix }))
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return Either.left(new ConfigError({ reason: "Invalid", field: STATE_URL_ENV, detail: `expected a postgres:// URL, got ${schemeOf(text)}`, fix }))
  }
  if (url.hostname === "" && !url.searchParams.has("host")) {
    return Either.left(new ConfigError({ reason: "Invalid", field: STATE_URL_ENV, detail: "the postgres:// URL names no host", fix }))
  }
  return Either.right(Option.some(Redacted.make(text)))
}

/**
 * The URL with its password masked: what an error may say about where it tried to connect. The
 * user name, host, port and database are not secrets and are what a user checks first.
 */
export const describeStateUrl = (url: Redacted.Redacted<string>): string => {
  try {
    const u = new URL(Redacted.value(url))
    const user = u.username === "" ? "" : `${decodeURIComponent(u.username)}@`
    return `${u.protocol}//${user}${u.host}${u.pathname}`
  } catch {
    return "<unparseable URL>"
  }
}

/** The environment's choice, validated. */
export const loadStateUrl: Effect.Effect<Option.Option<Redacted.Redacted<string>>, ConfigError> = Config.option(Config.redacted(STATE_URL_ENV)).pipe(
  Effect.mapError(
    () => new ConfigError({ reason: "Invalid", field: STATE_URL_ENV, detail: "could not be read from the environment", fix })
  ),
  Effect.flatMap((raw) => parseStateUrl(Option.getOrUndefined(raw)))
)

export const stateUrlFix = fix
