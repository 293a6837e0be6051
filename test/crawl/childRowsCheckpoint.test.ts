/**
 * A checkpoint's child-table counts (`childRows`, CommitPart.ts) read back as the other counts
 * are: a saved one whole, one that is not an object of counts named as the checkpoint's problem.
 */
import { describe, expect, it } from "vitest"
import { checkpointProblem, initialState } from "../../src/crawl/Checkpoint.ts"
import { advance } from "../../src/crawl/CommitPart.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"

const slice = makeSlice("evm_transactions", { chain: "43113" })
const committed = advance(
  initialState(slice, "run-1"),
  [{ staged: [3, 2], partBytes: 0, rejects: [], holes: 0, holeKeys: [], unknownFields: new Map(), next: undefined, receivedAt: 1 }],
  3,
  0,
  "continue",
  "always",
  1_700_000_000,
  { evm_erc20_transfers: 2 }
)
const read = (childRows: unknown) => checkpointProblem(JSON.parse(JSON.stringify({ ...committed, childRows })), "evm_transactions", slice.id)

describe("childRows in a checkpoint", () => {
  it("given a checkpoint saved with its child rows, when read back, then it is whole; without them (an older one) too", () => {
    expect(committed.childRows).toEqual({ evm_erc20_transfers: 2 })
    expect(read(committed.childRows)).toBeUndefined()
    expect(read(undefined)).toBeUndefined()
  })

  it("given child rows that are not counts, when read back, then the field is named with what it should be", () => {
    for (const bad of [{ evm_erc20_transfers: -1 }, { evm_erc20_transfers: "2" }, [2], 2, null]) {
      expect(read(bad)).toBe(`"childRows" is ${JSON.stringify(bad)}, expected an object of non-negative integers`)
    }
  })
})
