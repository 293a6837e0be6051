/**
 * Parent links: each block's parent must be the id of the block one height down (a chain that
 * does not link was written from two forks, or a row was altered), and a height holds one block.
 * The facts are the rows where that fails, read by SQL; this names them by listing, with their
 * heights. Pure.
 */
import type { Finding } from "./Finding.ts"
import { gapText, rangesOf } from "./Heights.ts"

/** A block whose parent is not the id of the block below it. */
export interface BrokenLink {
  readonly listing: Readonly<Record<string, string>>
  readonly height: bigint
  readonly parent: string
  /** The id of the block one height down. */
  readonly below: string
}

/** A height holding more than one block. */
export interface Fork {
  readonly listing: Readonly<Record<string, string>>
  readonly height: bigint
  readonly blocks: number
}

const SHOWN = 5

const byListing = <T extends { readonly listing: Readonly<Record<string, string>> }>(items: ReadonlyArray<T>): ReadonlyArray<ReadonlyArray<T>> => {
  const groups = new Map<string, T[]>()
  for (const i of items) {
    const k = JSON.stringify(i.listing)
    groups.set(k, [...(groups.get(k) ?? []), i])
  }
  return [...groups.values()]
}

const heightsText = (heights: ReadonlyArray<bigint>): string => {
  const ranges = rangesOf(heights)
  return `${ranges.slice(0, SHOWN).map(([from, to]) => gapText({ from, to })).join(", ")}${ranges.length > SHOWN ? `, … (${ranges.length - SHOWN} more ranges)` : ""}`
}

/** One finding per listing whose chain does not link, and one per listing with forks; `repair` picks each one's re-crawl. */
export const linkFindings = (
  dataset: string,
  columns: { readonly id: string; readonly parent: string },
  broken: ReadonlyArray<BrokenLink>,
  forks: ReadonlyArray<Fork>
): ReadonlyArray<Omit<Finding, "repair"> & { readonly heights: ReadonlyArray<bigint> }> => [
  ...byListing(broken).map((links) => {
    const first = links[0]!
    return {
      dataset,
      check: "links" as const,
      listing: first.listing,
      heights: links.map((l) => l.height),
      what: `the chain does not link at heights ${heightsText(links.map((l) => l.height))}: the ${columns.parent} of ${first.height} is ${first.parent}, the ${columns.id} of the block at ${first.height - 1n} is ${first.below}`
    }
  }),
  ...byListing(forks).map((fs) => ({
    dataset,
    check: "links" as const,
    listing: fs[0]!.listing,
    heights: fs.map((f) => f.height),
    what: `more than one block at heights ${heightsText(fs.map((f) => f.height))} (${fs[0]!.blocks} at ${fs[0]!.height})`
  }))
]
