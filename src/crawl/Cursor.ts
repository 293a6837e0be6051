/**
 * A listing's cursor with a type: a page token kept as the service sent it, or a value of the
 * listing's own (a height walk's `{next, end, islands}`, a route and its token) that the checkpoint
 * keeps as text.
 *
 * - **Rules.** A listing declares how its cursor reads (`cursor` on the listing): a page token or
 *   key as it was handed out (`tokenCursor`, which restListing and keyedListing declare), or a
 *   value of its own, written with `cursorListing`, whose fetch is then handed the value decoded
 *   and returns the next one, never text it parses itself. The checkpoint stores the encoded text,
 *   and the crawler hands the codec to the checkpoint store, which decodes the cursor when it reads
 *   the checkpoint (Checkpoint.ts `checkpointProblem`): once per slice, before any request. A
 *   cursor the listing cannot read is a broken checkpoint like any other bad field: the slice fails
 *   with the error naming the file and the fix, the file is not written over, and the refetch
 *   marker is left (Refetch.ts), so deleting the file refetches the slice without doubling a row.
 *   A listing that wraps another's cursor in its own declares its own codec.
 * - **Memory.** A cursor is a few fields; its text is decoded once more at each page's fetch (a
 *   JSON parse of that text and a check of its fields), nothing is kept between pages.
 * - **Failure modes.** A checkpoint's cursor that does not decode fails its slice as above. A
 *   cursor handed to the fetch that does not decode did not come through a checkpoint store that
 *   checks (a store that ignores the codec, a test's fake) or the codec does not read what it
 *   writes: that is a defect of the program, not of the data, and dies naming the listing's slice.
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import type { SinkError, SourceError } from "../Errors.ts"
import type { Listing, Page } from "./Dataset.ts"
import type { Slice } from "./Slice.ts"

/** How a listing's cursor is kept as text: `decode` gives the value or what is wrong with the text. */
export interface CursorCodec<C> {
  readonly decode: (text: string) => Either.Either<C, string>
  readonly encode: (cursor: C) => string
}

/** The problem of a cursor's text for this codec; undefined when it decodes. */
export const cursorProblem =
  <C>(codec: CursorCodec<C>) =>
  (text: string): string | undefined =>
    Either.match(codec.decode(text), { onLeft: (problem) => problem, onRight: () => undefined })

const describe = (e: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(e)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
    .join("; ")

/**
 * A cursor kept as the JSON of `schema`'s encoded side: the fields are written in the schema's
 * order, so the same value is always the same text (the listing guard compares page tokens as text).
 */
export const jsonCursor = <C, I>(schema: Schema.Schema<C, I, never>): CursorCodec<C> => {
  const json = Schema.parseJson(schema)
  const decode = Schema.decodeUnknownEither(json)
  const encode = Schema.encodeSync(json)
  return { decode: (text) => Either.mapLeft(decode(text), describe), encode }
}

/** A service's page token (or a keyed listing's last key), kept as it was sent: any text but the empty one, which no listing hands out. */
export const tokenCursor: CursorCodec<string> = {
  decode: (text) => (text === "" ? Either.left("an empty page token") : Either.right(text)),
  encode: (token) => token
}

/**
 * A block height or a count as exact decimal text (never a JS number), as a cursor carries it:
 * an optional minus for a walk's "nothing yet" (-1) and no leading zero, so BigInt reads it.
 */
export const DecimalText = Schema.String.pipe(Schema.pattern(/^-?(0|[1-9][0-9]*)$/, { message: () => "expected an integer as decimal text" }))

/** A page whose next cursor is a value of the listing's own. */
export interface CursorPage<C> extends Omit<Page, "next"> {
  /** The following page's cursor; undefined when this was the last one. */
  readonly next: C | undefined
}

/** A listing over cursors of type C: the crawler's Listing, with the fetch typed and the codec declared. */
export interface CursorListingSpec<R, C> extends Omit<Listing<R>, "fetch"> {
  readonly cursor: CursorCodec<C>
  /** The page at `cursor` (undefined: the first page). */
  readonly fetch: (slice: Slice, cursor: C | undefined) => Effect.Effect<CursorPage<C>, SourceError | SinkError, R>
}

/** A Listing that declares how its cursor reads (see the header): the crawler hands the codec to the checkpoint store. */
export type CursorListing<R> = Listing<R> & { readonly cursor?: CursorCodec<unknown> }

/** The listing's cursor codec, when it declares one (a plain page token needs none). */
export const cursorCodecOf = <R>(listing: Listing<R>): CursorCodec<unknown> | undefined => (listing as CursorListing<R>).cursor

/** The Listing the crawler runs: its cursor text decoded for `spec.fetch`, the next cursor encoded. */
export const cursorListing = <R, C>(spec: CursorListingSpec<R, C>): Listing<R> & { readonly cursor: CursorCodec<C> } => ({
  ...spec,
  fetch: (slice, text) =>
    Effect.flatMap(text === undefined ? Effect.succeed(undefined) : decodedOrDie(spec.cursor, slice, text), (at) =>
      Effect.map(spec.fetch(slice, at), (page) => ({ ...page, next: page.next === undefined ? undefined : spec.cursor.encode(page.next) }))
    )
})

const decodedOrDie = <C>(codec: CursorCodec<C>, slice: Slice, text: string): Effect.Effect<C> =>
  Either.match(codec.decode(text), {
    onRight: (c) => Effect.succeed(c),
    onLeft: (problem) =>
      Effect.dieMessage(`${slice.dataset} ${slice.id}: cursor ${JSON.stringify(text.slice(0, 200))} does not decode (${problem}), though checkpoints are checked when read`)
  })
