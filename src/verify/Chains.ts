/**
 * The heights and links of a block dataset (DatasetDef.chain), read from its view and its
 * checkpoints, checked by Heights.ts and Links.ts, each failure given its re-crawl: a node walk's
 * heights by a height backfill, a windowed listing's by the windows that hold the blocks around
 * them, a latest-first listing (evm_blocks, which fills what it lacks below its top) by its run
 * with those heights of its slice taken out first (their files removed, its count made theirs).
 */
import { quotedIdentifier as id, quotedString } from "@duckdb/node-api"
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import type { AnyDataset, ChainLinks } from "../crawl/Dataset.ts"
import { isComplete, openHoles } from "../crawl/Holes.ts"
import { windowOf } from "../crawl/Windows.ts"
import type { Finding, Repair } from "./Finding.ts"
import { countOf, gapText, type HeightGap, type Island, missingHeights } from "./Heights.ts"
import { type BrokenLink, type Fork, linkFindings } from "./Links.ts"
import type { Session } from "./Session.ts"
import { fillsBelowTop } from "./SliceFacts.ts"
import { FILE_COLUMN } from "../sink/CatalogSql.ts"
import { durationText, instantText } from "./Windows.ts"

const HEIGHT = /^[0-9]+$/

const listingOf = (chain: ChainLinks, r: Readonly<Record<string, unknown>>) => Object.fromEntries(chain.listing.map((c) => [c, String(r[c])]))
const keyOf = (l: Readonly<Record<string, string>>) => JSON.stringify(Object.entries(l).map(([k, v]) => [k, v.toLowerCase()]))

/**
 * A windowed listing's re-crawl of blocks missing between two times: the windows the span (after,
 * before) meets. A span some window does not cover is the windows check's failure (a backfill of
 * it): nothing here. Else the windows that are suspect (not complete, or their files do not hold
 * what their checkpoint committed) are the ones re-crawled; when none is, all the windows the span
 * meets are listed again whole.
 */
const windowRepairs = (
  dataset: string,
  states: ReadonlyArray<CheckpointState>,
  listing: Readonly<Record<string, string>>,
  after: number | undefined,
  before: number | undefined,
  suspect: (state: CheckpointState) => boolean
): ReadonlyArray<Repair> => {
  if (after === undefined && before === undefined) return []
  const lo = after ?? before!
  const hi = before ?? after!
  const mine = states.filter((s) => Object.entries(listing).every(([k, v]) => s.params[k]?.toLowerCase() === v.toLowerCase()))
  const meets = mine
    .map((s) => ({ s, w: windowOf(s.params) }))
    .filter((x): x is { s: CheckpointState; w: NonNullable<ReturnType<typeof windowOf>> } => x.w !== undefined && x.w.from <= hi && x.w.to > lo)
    .sort((a, b) => a.w.from - b.w.from)
  let reach = lo
  for (const { w } of meets) {
    if (w.from > reach) return []
    reach = Math.max(reach, w.to)
  }
  if (reach <= hi) return []
  const chosen = meets.some((x) => suspect(x.s)) ? meets.filter((x) => suspect(x.s)) : meets
  return chosen.map(({ s, w }) => {
    const base = { kind: "backfill" as const, dataset, from: instantText(w.from), to: instantText(w.to) }
    return isComplete(s) ? { ...base, window: durationText(w.to - w.from), refetch: true as const } : base
  })
}

/**
 * A height walk's re-crawl of rows that are wrong at `heights`: the span of the live files holding
 * them, refetched (`backfill --refetch` removes those files, then walks their heights again).
 */
export const heightRefetch = async (session: Session, filesView: string, d: AnyDataset, heights: ReadonlyArray<bigint>): Promise<Repair | undefined> => {
  if (d.chain === undefined || d.backfill !== "height" || heights.length === 0) return undefined
  const h = id(d.chain.height)
  const [span] = await session.all(
    `SELECT min(lo)::VARCHAR AS lo, max(hi)::VARCHAR AS hi FROM (SELECT min(${h}) AS lo, max(${h}) AS hi FROM ${filesView} GROUP BY "__file" HAVING bool_or(${h} IN (${heights.join(", ")})))`
  )
  if (span?.["lo"] === null || span?.["lo"] === undefined) return undefined
  return { kind: "backfill", dataset: d.name, from: String(span["lo"]), to: (BigInt(String(span["hi"])) + 1n).toString(), refetch: true }
}

/**
 * A listing that fills what it lacks below its top (evm_blocks, one slice per chain): the re-crawl
 * of heights [from, to] of its slice (`run --refetch-slice <slice>@<from>-<to>`), widened to the
 * span of the slice's live files holding any of `heights` so that no file reaches outside it.
 */
export const fillRefetch = async (
  session: Session,
  filesView: string,
  d: AnyDataset,
  listing: Readonly<Record<string, string>>,
  span: { readonly from: bigint; readonly to: bigint },
  heights: ReadonlyArray<bigint>,
  states: ReadonlyArray<CheckpointState>
): Promise<Repair | undefined> => {
  const slice = states.find((s) => Object.entries(listing).every(([k, v]) => s.params[k]?.toLowerCase() === v.toLowerCase()))
  if (d.chain === undefined || slice === undefined) return undefined
  const h = id(d.chain.height)
  const where = Object.entries(listing).map(([k, v]) => `${id(k)}::VARCHAR = ${quotedString(v)}`).join(" AND ")
  const [files] = heights.length === 0 ? [] : await session.all(
    `SELECT min(lo)::VARCHAR AS lo, max(hi)::VARCHAR AS hi FROM (SELECT min(${h}) AS lo, max(${h}) AS hi FROM ${filesView} WHERE ${where === "" ? "true" : where} GROUP BY ${id(FILE_COLUMN)} HAVING bool_or(${h} IN (${heights.join(", ")})))`
  )
  const lo = files?.["lo"] === null || files?.["lo"] === undefined ? span.from : BigInt(String(files["lo"])) < span.from ? BigInt(String(files["lo"])) : span.from
  const hi = files?.["hi"] === null || files?.["hi"] === undefined ? span.to : BigInt(String(files["hi"])) > span.to ? BigInt(String(files["hi"])) : span.to
  return { kind: "refetch-slice", dataset: d.name, slice: slice.slice, heights: { from: lo.toString(), to: hi.toString() } }
}

/**
 * The height a walk's slice (the nightly walk or a backfill cell) wrote up to at least: it writes
 * each height once, from its `from` up, so n rows reach `from` + n - 1 (below its `to`).
 */
const walkedTo = (s: CheckpointState): bigint | undefined => {
  const from = s.params["from"]
  if (from === undefined || !HEIGHT.test(from) || s.rowsCommitted <= 0) return undefined
  const top = BigInt(from) + BigInt(s.rowsCommitted) - 1n
  const to = s.params["to"]
  return to !== undefined && HEIGHT.test(to) && top >= BigInt(to) ? BigInt(to) - 1n : top
}

export interface ChainResult {
  readonly findings: ReadonlyArray<Finding>
  /** Heights missing over all listings. */
  readonly missing: bigint
}

export const chainChecks = async (
  session: Session,
  view: string,
  filesView: string,
  d: AnyDataset,
  chain: ChainLinks,
  states: ReadonlyArray<CheckpointState>,
  suspect: (state: CheckpointState) => boolean = () => false
): Promise<ChainResult> => {
  const cols = chain.listing.map(id).join(", ")
  const h = id(chain.height)
  const time = chain.time === undefined ? "NULL::BIGINT" : `epoch(${id(chain.time)})::BIGINT`
  const islandRows = await session.all(
    `SELECT ${cols}, min(h)::VARCHAR AS lo, max(h)::VARCHAR AS hi, arg_min(t, h) AS lo_t, arg_max(t, h) AS hi_t
     FROM (SELECT ${cols}, h, t, h - row_number() OVER (PARTITION BY ${cols} ORDER BY h) AS g
           FROM (SELECT ${cols}, ${h} AS h, min(${time}) AS t FROM ${view} WHERE ${h} IS NOT NULL GROUP BY ALL))
     GROUP BY ${cols}, g ORDER BY ${cols}, min(h)`
  )
  const byListing = new Map<string, { listing: Record<string, string>; islands: Island[]; holes: bigint[]; floor?: bigint; ceiling?: bigint }>()
  const entry = (listing: Record<string, string>) => {
    const k = keyOf(listing)
    const e = byListing.get(k) ?? { listing, islands: [], holes: [] }
    byListing.set(k, e)
    return e
  }
  for (const r of islandRows) {
    const t = (v: unknown) => (v === null || v === undefined ? {} : { v: Number(v) })
    const lo = t(r["lo_t"]).v
    const hi = t(r["hi_t"]).v
    entry(listingOf(chain, r)).islands.push({ lo: BigInt(String(r["lo"])), hi: BigInt(String(r["hi"])), ...(lo === undefined ? {} : { loTime: lo }), ...(hi === undefined ? {} : { hiTime: hi }) })
  }
  for (const s of states) {
    const listing = listingOf(chain, s.params)
    if (chain.listing.some((c) => s.params[c] === undefined)) continue
    const e = entry(listing)
    if (openHoles(s) !== 0) e.holes.push(...(s.holeKeys ?? []).filter((k) => HEIGHT.test(k)).map(BigInt))
    // a height walk was asked for every height from its range's start
    const from = s.params["from"]
    if (d.backfill === "height" && from !== undefined && HEIGHT.test(from)) e.floor = e.floor === undefined || BigInt(from) < e.floor ? BigInt(from) : e.floor
    const top = d.backfill === "height" ? walkedTo(s) : undefined
    if (top !== undefined && (e.ceiling === undefined || top > e.ceiling)) e.ceiling = top
  }
  const findings: Finding[] = []
  let missing = 0n
  for (const { listing, islands, holes, floor, ceiling } of byListing.values()) {
    const gaps = missingHeights(islands, holes, floor, ceiling)
    missing += countOf(gaps)
    for (const g of gaps) {
      const fill = fillsBelowTop(d) ? await fillRefetch(session, filesView, d, listing, { from: g.from, to: g.to }, [], states) : undefined
      const repairs = fill !== undefined ? [fill] : repairsOfGap(d, states, listing, g, suspect)
      const what = `heights ${gapText(g)} are missing (${g.to - g.from + 1n} block(s))${g.top === true ? `: the checkpoints say heights up to ${g.to} were written, the files hold none above ${g.from - 1n}` : ""}`
      if (repairs.length === 0) findings.push({ dataset: d.name, check: "heights", listing, what, fix: d.windows === undefined ? "no crawl can ask for these heights again" : "re-crawled by the backfill of the window the windows check names" })
      for (const repair of repairs) findings.push({ dataset: d.name, check: "heights", listing, what, repair })
    }
  }
  const broken = (
    await session.all(
      `SELECT ${chain.listing.map((c) => `c.${id(c)}`).join(", ")}, c.h::VARCHAR AS h, c.parent, p.id AS below, c.t
       FROM (SELECT ${cols}, ${h} AS h, ${id(chain.id)} AS id, ${id(chain.parent)} AS parent, ${time} AS t FROM ${view}) c
       JOIN (SELECT ${cols}, ${h} AS h, ${id(chain.id)} AS id FROM ${view}) p ON ${chain.listing.map((c) => `c.${id(c)} = p.${id(c)}`).join(" AND ")} AND p.h = c.h - 1
       WHERE c.parent <> p.id ORDER BY ALL LIMIT 1000`
    )
  ).map((r): BrokenLink & { readonly t: number | undefined } => ({ listing: listingOf(chain, r), height: BigInt(String(r["h"])), parent: String(r["parent"]), below: String(r["below"]), t: r["t"] === null ? undefined : Number(r["t"]) }))
  const forks = (
    await session.all(`SELECT ${cols}, ${h}::VARCHAR AS h, count(DISTINCT ${id(chain.id)})::INTEGER AS n FROM ${view} GROUP BY ALL HAVING count(DISTINCT ${id(chain.id)}) > 1 ORDER BY ALL LIMIT 1000`)
  ).map((r): Fork => ({ listing: listingOf(chain, r), height: BigInt(String(r["h"])), blocks: Number(r["n"]) }))
  for (const f of linkFindings(d.name, chain, broken, forks)) {
    const { heights, ...finding } = f
    const times = broken.filter((b) => keyOf(b.listing) === keyOf(f.listing) && heights.includes(b.height)).map((b) => b.t).filter((t): t is number => t !== undefined)
    const walk = fillsBelowTop(d)
      ? await fillRefetch(session, filesView, d, f.listing, { from: heights.reduce((a, b) => (b < a ? b : a)), to: heights.reduce((a, b) => (b > a ? b : a)) }, heights, states)
      : await heightRefetch(session, filesView, d, heights)
    const repairs = walk !== undefined ? [walk] : d.windows === undefined ? [] : [...new Map(times.flatMap((t) => windowRepairs(d.name, states, f.listing, t, t, () => true)).map((r) => [JSON.stringify(r), r])).values()]
    if (repairs.length === 0) findings.push({ ...finding, fix: "the part holding these blocks must be deleted and its heights crawled again (a backfill of them, or the next run)" })
    for (const repair of repairs) findings.push({ ...finding, repair })
  }
  return { findings, missing }
}

const repairsOfGap = (
  d: AnyDataset,
  states: ReadonlyArray<CheckpointState>,
  listing: Readonly<Record<string, string>>,
  g: HeightGap,
  suspect: (state: CheckpointState) => boolean
): ReadonlyArray<Repair> => {
  // above every height held, a done cell may span them: --refetch sets back the cells inside the range
  if (d.backfill === "height") return [{ kind: "backfill", dataset: d.name, from: g.from.toString(), to: (g.to + 1n).toString(), ...(g.top === true ? { refetch: true as const } : {}) }]
  if (d.windows !== undefined) return windowRepairs(d.name, states, listing, g.after, g.before, suspect)
  // a listing that takes no range but fills what it lacks below its top (evm_blocks)
  return d.rerun === "always" ? [{ kind: "run", dataset: d.name }] : []
}
