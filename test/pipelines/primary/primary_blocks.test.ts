/**
 * primary_blocks reads every column but its Hive keys from the record, as its schema declares
 * (`from`): held here to route 12's own pages, so a wire spelling declared wrong (a JSON integer
 * read as a decimal string) shows as rejects instead of silently thinning the dataset.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dataset } from "../../../pipelines/primary_blocks.ts"
import { makeSlice } from "../../../src/crawl/Slice.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { parseJsonLossless } from "../../../src/source/LosslessJson.ts"
import { toRows } from "../../../src/transform/ToRows.ts"

type Rec = Record<string, unknown>

describe("primary_blocks from route 12's pages", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => {
    await emu?.close()
  })

  /** One page of the chain's newest blocks, parsed as the client parses it (integers past 2^53 stay exact). */
  const page = async (blockchain: string): Promise<Rec[]> => {
    const res = await fetch(`${emu.baseUrl}/v1/networks/mainnet/blockchains/${blockchain}/blocks?pageSize=100`)
    return (parseJsonLossless(await res.text()) as { blocks: Rec[] }).blocks
  }

  for (const blockchain of ["p-chain", "x-chain", "c-chain"]) {
    it(`given a page of ${blockchain} blocks, when mapped, then no record is rejected and every column holds its field's exact value`, async () => {
      const records = await page(blockchain)
      const slice = makeSlice("primary_blocks", { network: "mainnet", blockchain })
      const { mapped, rejects } = toRows(dataset, slice, records, { runId: "r1", ingestedAt: new Date(0), page: 1 })
      expect(rejects.map((r) => r["reason"])).toEqual([])
      expect(mapped).toHaveLength(records.length)
      records.forEach((b, i) => {
        const p = b["proposerDetails"] as Rec | undefined
        const big = (v: unknown) => (v === undefined ? null : BigInt(v as string | number | bigint))
        expect(mapped[i]!.row).toMatchObject({
          network: "mainnet",
          blockchain,
          block_number: BigInt(b["blockNumber"] as string),
          block_hash: b["blockHash"],
          block_timestamp: new Date((b["blockTimestamp"] as number) * 1000),
          tx_count: b["txCount"],
          transactions: b["transactions"],
          block_size_bytes: big(b["blockSizeBytes"]),
          l1_validators_accrued_fees: big(b["l1ValidatorsAccruedFees"]),
          active_l1_validators: big(b["activeL1Validators"]),
          current_supply: big(b["currentSupply"]),
          proposer_node_id: p?.["proposerNodeId"] ?? null,
          proposer_p_chain_height: big(p?.["proposerPChainHeight"])
        })
      })
      if (blockchain === "p-chain") expect(mapped.some((m) => m.row["l1_validators_accrued_fees"] !== null)).toBe(true)
    })
  }
})
