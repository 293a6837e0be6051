import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { crawl, fetchAll, filesUnder } from "../../support/spine.ts"
import { unlimited } from "../../support/emulatorFixtures.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { evmJob } from "../../support/emulatorJob/groups.ts"
import { columnTypes, rows } from "../../support/catalogReads.ts"

/** The emulator's blocks of a chain in the compared columns, from its own route-10 pages. */
const expectedBlocks = async (emu: RunningEmulator, chain: string) =>
  (await fetchAll(`${emu.baseUrl}/v1/chains/${chain}/blocks`, "blocks"))
    .map((b) => ({
      chain_id: chain,
      block_number: b["blockNumber"],
      ts: b["blockTimestamp"],
      block_hash: b["blockHash"],
      parent_hash: b["parentHash"],
      tx_count: b["txCount"],
      gas: `${b["baseFee"]}/${b["gasUsed"]}/${b["gasLimit"]}/${b["gasCost"]}/${b["feesSpent"]}/${b["cumulativeTransactions"]}`
    }))
    .sort((a, b) => Number(BigInt(a.block_number as string) - BigInt(b.block_number as string)))

const actualBlocks = (out: string, chain: string) =>
  rows(
    out,
    `SELECT chain_id, block_number::VARCHAR AS block_number, epoch(block_timestamp)::INTEGER AS ts, block_hash, parent_hash, tx_count,
       base_fee::VARCHAR || '/' || gas_used::VARCHAR || '/' || gas_limit::VARCHAR || '/' || gas_cost::VARCHAR || '/' || fees_spent::VARCHAR || '/' || cumulative_transactions::VARCHAR AS gas
     FROM evm_blocks WHERE chain_id = '${chain}' ORDER BY evm_blocks.block_number`
  )

/** What the file's tests read: its own emulator (they move its clock and count what it served) and its first crawl. */
const it = crawledOnce("evm-blocks", unlimited(21), async ({ emu, out }) => {
  const job = evmJob(emu)
  await crawl(out, emu, job, ["evm_blocks"])
  return { emu, job, out }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("evm_blocks", { timeout: 120_000 }, () => {
  it("given the job's chains, when crawled, then every block equals the emulator's route-10 answer, genesis to latest", async ({ crawled: { emu, job, out } }) => {
    for (const chain of job.evmChains) {
      const expected = await expectedBlocks(emu, chain)
      expect(expected.length).toBe(emu.world.evm.chain(chain)!.latest() + 1)
      expect(await actualBlocks(out, chain)).toEqual(expected)
    }
  })

  it("given the catalog, when DuckDB describes evm_blocks, then heights and gas are DECIMAL(38,0), the time is a UTC timestamp and chain_id is text", async ({ crawled: { out } }) => {
    expect(await columnTypes(out, "evm_blocks")).toEqual({
      block_number: "DECIMAL(38,0)",
      block_timestamp: "TIMESTAMP WITH TIME ZONE",
      block_hash: "VARCHAR",
      parent_hash: "VARCHAR",
      tx_count: "INTEGER",
      base_fee: "DECIMAL(38,0)",
      gas_used: "DECIMAL(38,0)",
      gas_limit: "DECIMAL(38,0)",
      gas_cost: "DECIMAL(38,0)",
      fees_spent: "DECIMAL(38,0)",
      cumulative_transactions: "DECIMAL(38,0)",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE",
      chain_id: "VARCHAR",
      date: "DATE"
    })
  })

  it("given a finished crawl, when the clock moves an hour and the dataset runs again, then only the new blocks are listed and added, none twice", async ({ crawled: { emu, job, out } }) => {
    const chain = job.evmChains[0]!
    const before = emu.world.evm.chain(chain)!.latest()
    emu.advance(3600)
    const after = emu.world.evm.chain(chain)!.latest()
    expect(after).toBeGreaterThan(before)
    const report = await crawl(out, emu, job, ["evm_blocks"])
    const slice = report.slices.find((s) => s.params["chain_id"] === chain)!
    expect(slice.rows).toBe(after - before)
    // new blocks fit on one page: the listing stops at the first block it already had
    expect(slice.pages).toBe(1)
    expect(await actualBlocks(out, chain)).toEqual(await expectedBlocks(emu, chain))
  })

  it("given a hole in the committed blocks (a listing cut short), when the dataset runs again, then exactly the missing blocks are fetched and nothing is doubled", async ({ crawled: { emu, job, out } }) => {
    const chain = job.evmChains[1]!
    const dir = path.join(out, "evm_blocks", `chain_id=${chain}`)
    const days = [...new Set((await filesUnder(dir)).map((f) => f.split("/")[0]))].sort()
    expect(days.length).toBeGreaterThan(4)
    const hole = days[Math.floor(days.length / 2)]!
    const [missing] = await rows(out, `SELECT count(*)::INTEGER AS n FROM evm_blocks WHERE chain_id = '${chain}' AND date = '${hole.slice(5)}'`)
    await fs.rm(path.join(dir, hole), { recursive: true })
    const report = await crawl(out, emu, job, ["evm_blocks"])
    expect(report.slices.find((s) => s.params["chain_id"] === chain)!.rows).toBe(missing!["n"])
    expect(await actualBlocks(out, chain)).toEqual(await expectedBlocks(emu, chain))
  })
})
