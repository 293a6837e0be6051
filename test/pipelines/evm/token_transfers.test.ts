import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import type { RunReport } from "../../../src/Runner.ts"
import { crawl, fetchAll } from "../../support/spine.ts"
import { unlimited } from "../../support/emulatorFixtures.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { evmJob } from "../../support/emulatorJob/groups.ts"
import { columnTypes, rows } from "../../support/catalogReads.ts"
import { served } from "../../support/emulatorAnswers.ts"

type Json = Record<string, any>

const byTransfer = (a: Json, b: Json): number => (a["tx_hash"] === b["tx_hash"] ? a["log_index"] - b["log_index"] : a["tx_hash"] < b["tx_hash"] ? -1 : 1)

/** The emulator's transfers of a contract in the compared columns, from its own route-6 pages (whole history). */
const expectedTransfers = async (emu: RunningEmulator, chain: string, address: string) =>
  (await fetchAll(`${emu.baseUrl}/v1/chains/${chain}/tokens/${address}/transfers`, "transfers"))
    .map((t: Json) => {
      const token = t["erc20Token"] ?? t["erc721Token"] ?? t["erc1155Token"]
      return {
        tx_hash: t["txHash"],
        log_index: t["logIndex"],
        block_number: t["blockNumber"],
        ts: t["blockTimestamp"],
        block_hash: t["blockHash"],
        from: `${t["from"].address}|${t["from"].name ?? ""}|${t["from"].symbol ?? ""}|${t["from"].decimals ?? ""}`,
        to: `${t["to"].address}|${t["to"].name ?? ""}|${t["to"].symbol ?? ""}|${t["to"].decimals ?? ""}`,
        erc_type: token.ercType,
        value: t["value"] ?? null,
        token: `${token.address}|${token.name ?? ""}|${token.symbol ?? ""}|${token.decimals ?? ""}|${token.tokenId ?? ""}|${token.price?.value ?? ""}`,
        metadata: token.metadata === undefined ? null : `${token.metadata.name}|${token.metadata.metadataLastUpdatedTimestamp}|${token.metadata.attributes ?? token.metadata.properties}`
      }
    })
    .sort(byTransfer)

const actualTransfers = async (out: string, chain: string, address: string) =>
  (await rows(
    out,
    `SELECT tx_hash, log_index, block_number::VARCHAR AS block_number, epoch(block_timestamp)::INTEGER AS ts, block_hash,
       concat_ws('|', from_address, coalesce(from_name, ''), coalesce(from_symbol, ''), coalesce(from_decimals::VARCHAR, '')) AS "from",
       concat_ws('|', to_address, coalesce(to_name, ''), coalesce(to_symbol, ''), coalesce(to_decimals::VARCHAR, '')) AS "to",
       erc_type, value,
       concat_ws('|', token_address, coalesce(token_name, ''), coalesce(token_symbol, ''), coalesce(token_decimals::VARCHAR, ''), coalesce(token_id, ''), coalesce(token_price, '')) AS token,
       CASE WHEN token_metadata IS NULL THEN NULL
            ELSE concat_ws('|', token_metadata.name, epoch(token_metadata.last_updated_at)::BIGINT::VARCHAR, coalesce(token_metadata.attributes, token_metadata.properties)) END AS metadata
     FROM token_transfers WHERE chain_id = '${chain}' AND token_address = '${address}'`
  )).sort(byTransfer)

/** Route-6 requests of windows [from, latest] walked at `size`: one per 100 transfers of a window, at least one. */
const windowRequests = (emu: RunningEmulator, chain: string, address: string, from: number, latest: number, size: number): number => {
  const c = emu.world.evm.chain(chain)!
  let requests = 0
  for (let start = from; start <= latest; start = (Math.floor(start / size) + 1) * size) {
    const end = Math.min((Math.floor(start / size) + 1) * size, latest + 1)
    const range = c.tokenTransfers(address, BigInt(start), BigInt(end))!
    requests += Math.max(1, Math.ceil((range.end - range.first) / 100))
  }
  return requests
}

/** What the file's tests read: its own emulator (they move its clock and count what it served) and its first crawl. */
interface Crawled {
  readonly emu: RunningEmulator
  readonly job: Job
  readonly out: string
  readonly window: number
  /** The file's first crawl, with what the emulator had then: the tests may run in any order, and one moves its clock. */
  readonly first: { readonly report: RunReport; readonly byRun: number; readonly latest: ReadonlyMap<string, number> }
}
const it = crawledOnce<Crawled>("token-transfers", unlimited(22), async ({ emu, out }) => {
  const job = evmJob(emu)
  const window = Number(job.transferBlockWindow)
  const before = served(emu)
  const report = await crawl(out, emu, job, ["token_transfers"])
  const first = { report, byRun: served(emu) - before, latest: new Map(job.tokenContracts.map(({ chainId }) => [chainId, emu.world.evm.chain(chainId)!.latest()])) }
  return { emu, job, out, window, first }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("token_transfers", { timeout: 120_000 }, () => {
  it("given one contract per standard and windows of 256 blocks, when crawled, then each window is one page and the rows equal the emulator's whole transfer history", async ({ crawled: { emu, job, out, window, first } }) => {
    const { report, byRun } = first
    let requests = 0
    for (const { chainId, address } of job.tokenContracts) {
      const latest = first.latest.get(chainId)!
      const slice = report.slices.find((s) => s.params["address"] === address)!
      expect(slice.pages).toBe(Math.ceil((latest + 1) / window))
      // the history as it was at the crawl (a later test may have moved the clock and crawled again)
      const upToLatest = (xs: Json[]) => xs.filter((t) => Number(t["block_number"]) <= latest)
      const expected = upToLatest(await expectedTransfers(emu, chainId, address))
      expect(expected.length).toBeGreaterThan(50)
      expect(slice.rows).toBe(expected.length)
      expect(upToLatest(await actualTransfers(out, chainId, address))).toEqual(expected)
      requests += 1 + windowRequests(emu, chainId, address, 0, latest, window)
    }
    // per contract: the latest block from route 10, then route 6 window by window
    expect(byRun).toBe(requests)
  })

  it("given the catalog, when DuckDB describes token_transfers, then values are exact text beside a double, heights DECIMAL(38,0), parties flat and NFT metadata a struct", async ({ crawled: { out } }) => {
    const types = await columnTypes(out, "token_transfers")
    expect(types).toMatchObject({
      block_number: "DECIMAL(38,0)",
      block_timestamp: "TIMESTAMP WITH TIME ZONE",
      tx_hash: "VARCHAR",
      log_index: "INTEGER",
      from_address: "VARCHAR",
      from_decimals: "INTEGER",
      to_address: "VARCHAR",
      value: "VARCHAR",
      value_double: "DOUBLE",
      token_price: "VARCHAR",
      token_id: "VARCHAR",
      chain_id: "VARCHAR",
      date: "DATE"
    })
    expect(types["token_metadata"]).toMatch(/^STRUCT\(index_status VARCHAR, last_updated_at TIMESTAMP WITH TIME ZONE, .*attributes VARCHAR, properties VARCHAR\)$/)
  })

  it("given a finished crawl, when the clock moves a week, then the next run asks only for windows after the last committed block and adds each new transfer once", async ({ crawled: { emu, job, out, window } }) => {
    const chainId = job.tokenContracts[0]!.chainId
    const latestBefore = emu.world.evm.chain(chainId)!.latest()
    const committedMax = new Map<string, number>()
    for (const { address } of job.tokenContracts) {
      const [r] = await rows(out, `SELECT max(block_number)::INTEGER AS m FROM token_transfers WHERE token_address = '${address}'`)
      committedMax.set(address, r!["m"] as number)
    }
    emu.advance(7 * 86_400)
    const latest = emu.world.evm.chain(chainId)!.latest()
    expect(latest).toBeGreaterThan(latestBefore + window)
    const before = served(emu)
    const report = await crawl(out, emu, job, ["token_transfers"])
    const byRun = served(emu) - before
    let requests = 0
    for (const { address } of job.tokenContracts) {
      const from = committedMax.get(address)! + 1
      requests += 1 + windowRequests(emu, chainId, address, from, latest, window)
      const slice = report.slices.find((s) => s.params["address"] === address)!
      const added = emu.world.evm.chain(chainId)!.tokenTransfers(address, BigInt(from), BigInt(latest + 1))!
      expect(added.end - added.first).toBeGreaterThan(0)
      expect(slice.rows).toBe(added.end - added.first)
      expect(await actualTransfers(out, chainId, address)).toEqual(await expectedTransfers(emu, chainId, address))
    }
    expect(byRun).toBe(requests)
  })

  it("given the ERC-20 whose amounts pass 10^38, when crawled, then every value is the emulator's exact decimal text and its double the nearest number", async ({ crawled: { emu, job }, folder }) => {
    // the C-Chains carry it
    const chainId = "43113"
    const inu = emu.world.evm.chain(chainId)!.tokens().find((t) => t.ercType === "ERC-20" && t.symbol.endsWith("INU"))!
    const hugeOut = await folder("token-transfers")
    await crawl(hugeOut, emu, { ...job, tokenContracts: [{ chainId, address: inu.address }] }, ["token_transfers"])
    const expected = await expectedTransfers(emu, chainId, inu.address)
    expect(await actualTransfers(hugeOut, chainId, inu.address)).toEqual(expected)
    expect(expected.some((t) => String(t.value).length > 38)).toBe(true)
    for (const r of await rows(hugeOut, "SELECT value, value_double FROM token_transfers")) expect(r["value_double"]).toBe(Number(r["value"]))
  })
})
