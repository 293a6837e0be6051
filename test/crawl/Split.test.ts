/**
 * Long listings cut into windows of their own (src/crawl/Split.ts): the cap a listing may take, how
 * many pieces, pieces that tile the window exactly, and which windows are left as they are.
 */
import { describe, expect, it } from "vitest"
import { makeSlice, type Slice } from "../../src/crawl/Slice.ts"
import { windowOf } from "../../src/crawl/Windows.ts"
import { cutLongListings, cutSlice, listingCap, MAX_PIECES, piecesOf, pieceGuess, tile } from "../../src/crawl/Split.ts"

const DAY = 86_400
const DEC_1 = Date.parse("2024-12-01T00:00:00Z") / 1000

const window = (from: number, to: number, lookback = 2 * DAY): Slice => ({
  ...makeSlice("primary_blocks", { network: "mainnet", blockchain: "c-chain", from: new Date(from * 1000).toISOString().replace(".000Z", "Z"), to: new Date(to * 1000).toISOString().replace(".000Z", "Z") }, to + lookback),
  fetchFrom: from
})

describe("listingCap", () => {
  it("given 600 requests at 20/s and a 300 ms round trip, when capped, then a listing may take the rate's 30 s in round trips: 100 pages", () => {
    expect(listingCap(600, 20, 300, 0)).toBe(100)
  })

  it("given a short run, when capped, then a listing may still take the minimum seconds' worth of round trips", () => {
    expect(listingCap(10, 20, 300, 60)).toBe(200)
  })

  it("given a round trip too long for even one page within the rate's part, when capped, then the cap is one page", () => {
    expect(listingCap(3, 150, 465, 0)).toBe(1)
  })
})

describe("piecesOf", () => {
  it("given 11 pages and a cap of 3, when cut, then into 4 (a power of two, each under the cap)", () => {
    expect(piecesOf(11, 3, 14 * DAY)).toBe(4)
  })

  it("given pages under the cap, when cut, then the window stays whole", () => {
    expect(piecesOf(5, 5, DAY)).toBe(1)
  })

  it("given a window of 4 minutes and a cap of one page, when cut, then its pieces stay a minute long at least", () => {
    expect(piecesOf(1_000, 1, 240)).toBe(4)
  })

  it("given pages far past the cap, when cut, then into MAX_PIECES at most", () => {
    expect(piecesOf(1_000_000, 1, 365 * DAY)).toBe(MAX_PIECES)
  })
})

describe("tile and cutSlice", () => {
  it("given a window of a length the pieces do not divide, when tiled in 3, then the pieces are whole seconds that meet end to start and end where it ends", () => {
    const pieces = tile({ from: 100, to: 200 }, 3)
    expect(pieces).toEqual([
      { from: 100, to: 133 },
      { from: 133, to: 166 },
      { from: 166, to: 200 }
    ])
  })

  it("given a two-week window, when cut in 4, then each piece is a slice of its own bounds, listed from its start, final as long after its end as the window was", () => {
    const w = window(DEC_1, DEC_1 + 14 * DAY)
    const pieces = cutSlice(w, 4)
    expect(pieces.map((p) => [p.params["from"], p.params["to"]])).toEqual([
      ["2024-12-01T00:00:00Z", "2024-12-04T12:00:00Z"],
      ["2024-12-04T12:00:00Z", "2024-12-08T00:00:00Z"],
      ["2024-12-08T00:00:00Z", "2024-12-11T12:00:00Z"],
      ["2024-12-11T12:00:00Z", "2024-12-15T00:00:00Z"]
    ])
    expect(pieces.map((p) => p.fetchFrom)).toEqual(pieces.map((p) => windowOf(p.params)!.from))
    expect(pieces.map((p) => p.finalAfter! - windowOf(p.params)!.to)).toEqual([2 * DAY, 2 * DAY, 2 * DAY, 2 * DAY])
    // the listing's other params are kept, and every piece has an id of its own
    expect(pieces.every((p) => p.params["blockchain"] === "c-chain" && p.dataset === "primary_blocks")).toBe(true)
    expect(new Set(pieces.map((p) => p.id)).size).toBe(4)
  })
})

describe("cutLongListings", () => {
  const long = window(DEC_1, DEC_1 + 14 * DAY)
  const short = window(DEC_1 + 14 * DAY, DEC_1 + 15 * DAY)
  const guesses = new Map([
    [long.id, { low: 2, high: 40, likely: 11 }],
    [short.id, { low: 1, high: 1, likely: 1 }]
  ])

  it("given a new window of 11 likely pages and a cap of 3, when cut, then it becomes 4 windows of 3 likely pages each and the short one stays", () => {
    const c = cutLongListings([long, short], guesses, 3, new Set())
    expect(c.cut).toBe(1)
    expect(c.into).toBe(4)
    expect(c.slices.map((s) => s.params["from"])).toEqual(["2024-12-01T00:00:00Z", "2024-12-04T12:00:00Z", "2024-12-08T00:00:00Z", "2024-12-11T12:00:00Z", "2024-12-15T00:00:00Z"])
    expect(c.guesses.has(long.id)).toBe(false)
    expect(c.slices.slice(0, 4).map((s) => c.guesses.get(s.id))).toEqual(Array(4).fill({ low: 1, high: 10, likely: 3 }))
    expect(c.guesses.get(short.id)).toEqual({ low: 1, high: 1, likely: 1 })
  })

  it("given the same window named by a checkpoint, when cut, then it keeps its bounds (it resumes its own listing)", () => {
    const c = cutLongListings([long, short], guesses, 3, new Set([long.id]))
    expect(c.slices).toEqual([long, short])
    expect(c.cut).toBe(0)
  })

  it("given a window topped up from its last completion, or one without a guess, when cut, then it is left whole", () => {
    const toppedUp = { ...long, fetchFrom: DEC_1 + 10 * DAY }
    expect(cutLongListings([toppedUp], guesses, 3, new Set()).slices).toEqual([toppedUp])
    expect(cutLongListings([long], new Map(), 3, new Set()).slices).toEqual([long])
  })

  it("given a piece's share of a guess, when its window is cut in 4, then its pages are a quarter rounded up, one at least", () => {
    expect(pieceGuess({ low: 2, high: 3, likely: 2 }, 4)).toEqual({ low: 1, high: 1, likely: 1 })
    expect(pieceGuess({ low: 2, high: 9 }, 1)).toEqual({ low: 2, high: 9 })
  })
})
