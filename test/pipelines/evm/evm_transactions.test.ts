import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import { crawl } from "../../support/spine.ts"
import { unlimited } from "../../support/emulatorFixtures.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { evmJob } from "../../support/emulatorJob/groups.ts"
import { columnTypes, rows } from "../../support/catalogReads.ts"
import { getJson, served } from "../../support/emulatorAnswers.ts"

type Json = Record<string, any>

const party = (a: Json) => `${a.address}|${a.name ?? ""}|${a.symbol ?? ""}|${a.decimals ?? ""}`
const partySql = (role: string) =>
  `concat_ws('|', ${role}_address, coalesce(${role}_name, ''), coalesce(${role}_symbol, ''), coalesce(${role}_decimals::VARCHAR, ''))`

/** The hashes the fan-out must look up on a chain: those of its token transfers and the job's. */
const wantedHashes = async (out: string, job: Job, chain: string): Promise<string[]> => {
  const found = (await rows(out, `SELECT DISTINCT lower(tx_hash) AS h FROM token_transfers WHERE chain_id = '${chain}'`)).map((r) => String(r["h"]))
  const named = job.transactionHashes.filter((t) => t.chainId === chain).map((t) => t.txHash.toLowerCase())
  return [...new Set([...found, ...named])].sort()
}

const details = async (emu: RunningEmulator, chain: string, hashes: ReadonlyArray<string>): Promise<Json[]> =>
  Promise.all(hashes.map((h) => getJson(emu, `/v1/chains/${chain}/transactions/${h}`)))

const expectedTx = (d: Json) => {
  const n = d["nativeTransaction"]
  const m = d["crosschainMessageInfo"]
  return {
    tx_hash: n.txHash,
    block: `${n.blockNumber}|${n.blockTimestamp}|${n.blockHash}|${n.blockIndex}`,
    status: `${n.txStatus}|${n.txType}`,
    gas: `${n.gasLimit}|${n.gasUsed}|${n.gasPrice}|${n.nonce}|${n.baseFeePerGas}|${n.maxFeePerGas ?? ""}|${n.maxPriorityFeePerGas ?? ""}`,
    from: party(n.from),
    to: party(n.to),
    method: `${n.method.callType}|${n.method.methodHash}|${n.method.methodName}`,
    value: n.value,
    input: n.input,
    prices: `${d.networkTokenDetails.networkToken.symbol}|${d.networkTokenDetails.currentPrice.value}|${d.networkTokenDetails.historicalPrice.value}`,
    message: m === undefined ? null : `${m.crosschainMessageId}|${m.direction}|${m.sourceChainId ?? ""}|${m.destinationChainId ?? ""}`,
    counts: `${d.erc20Transfers.length}|${d.erc721Transfers.length}|${d.erc1155Transfers.length}|${d.internalTransactions.length}`
  }
}

const actualTxs = (out: string, chain: string) =>
  rows(
    out,
    `SELECT tx_hash,
       concat_ws('|', block_number::VARCHAR, epoch(block_timestamp)::BIGINT::VARCHAR, block_hash, block_index::VARCHAR) AS block,
       tx_status || '|' || tx_type AS status,
       concat_ws('|', gas_limit::VARCHAR, gas_used::VARCHAR, gas_price::VARCHAR, nonce::VARCHAR, base_fee_per_gas::VARCHAR,
         coalesce(max_fee_per_gas::VARCHAR, ''), coalesce(max_priority_fee_per_gas::VARCHAR, '')) AS gas,
       ${partySql("from")} AS "from", ${partySql("to")} AS "to",
       concat_ws('|', method_call_type, method_hash, method_name) AS method, value, input,
       concat_ws('|', network_token_symbol, current_price, historical_price) AS prices,
       CASE WHEN crosschain_message_id IS NULL THEN NULL ELSE concat_ws('|', crosschain_message_id, crosschain_direction,
         coalesce(crosschain_source_chain_id, ''), coalesce(crosschain_destination_chain_id, '')) END AS message,
       concat_ws('|', erc20_transfer_count, erc721_transfer_count, erc1155_transfer_count, internal_transaction_count) AS counts
     FROM evm_transactions WHERE chain_id = '${chain}' ORDER BY tx_hash`
  )

/** Every child row of the details, as the child tables should hold them. */
const expectedChildren = (ds: ReadonlyArray<Json>) => {
  const byTx = (key: string, f: (t: Json, i: number) => string) =>
    ds.flatMap((d) => (d[key] as Json[]).map((t, i) => `${d.nativeTransaction.txHash}|${d.nativeTransaction.blockNumber}|${f(t, i)}`)).sort()
  return {
    erc20: byTx("erc20Transfers", (t) => `${t.logIndex}|${party(t.from)}|${party(t.to)}|${t.value}|${t.erc20Token.address}|${t.erc20Token.symbol}|${t.erc20Token.price.value}`),
    erc721: byTx("erc721Transfers", (t) => `${t.logIndex}|${party(t.from)}|${party(t.to)}|${t.erc721Token.address}|${t.erc721Token.tokenId}|${t.erc721Token.ownerAddress ?? ""}|${t.erc721Token.metadata.name}`),
    erc1155: byTx("erc1155Transfers", (t) => `${t.logIndex}|${party(t.from)}|${party(t.to)}|${t.value}|${t.erc1155Token.address}|${t.erc1155Token.tokenId}|${t.erc1155Token.metadata.name}`),
    internal: byTx("internalTransactions", (t, i) => `${i}|${party(t.from)}|${party(t.to)}|${t.internalTxType}|${t.value}|${t.isReverted}|${t.gasUsed}|${t.gasLimit}`)
  }
}

const actualChildren = async (out: string, chain: string) => {
  const lines = async (table: string, tail: string) =>
    (await rows(out, `SELECT tx_hash || '|' || block_number::VARCHAR || '|' || ${tail} AS line FROM ${table} WHERE chain_id = '${chain}'`)).map((r) => String(r["line"])).sort()
  return {
    erc20: await lines("evm_erc20_transfers", `concat_ws('|', log_index, ${partySql("from")}, ${partySql("to")}, value, token_address, token_symbol, token_price)`),
    erc721: await lines("evm_erc721_transfers", `concat_ws('|', log_index, ${partySql("from")}, ${partySql("to")}, token_address, token_id, coalesce(token_owner_address, ''), token_metadata.name)`),
    erc1155: await lines("evm_erc1155_transfers", `concat_ws('|', log_index, ${partySql("from")}, ${partySql("to")}, value, token_address, token_id, token_metadata.name)`),
    internal: await lines("evm_internal_transactions", `concat_ws('|', trace_index, ${partySql("from")}, ${partySql("to")}, internal_tx_type, value, is_reverted, gas_used::VARCHAR, gas_limit::VARCHAR)`)
  }
}

/** What the file's tests read: its own emulator (they move its clock and count what it served) and its first crawl. */
const it = crawledOnce("evm-transactions", unlimited(23), async ({ emu, out }) => {
  const job = evmJob(emu)
  await crawl(out, emu, job, ["token_transfers", "evm_transactions"])
  return { emu, job, out }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("evm_transactions and its transfer tables", { timeout: 120_000 }, () => {
  it("given token transfers and named hashes, when the fan-out ran, then each wanted hash is one row equal to the emulator's route-11 detail", async ({ crawled: { emu, job, out } }) => {
    for (const chain of [...new Set(job.transactionHashes.map((t) => t.chainId))]) {
      const hashes = await wantedHashes(out, job, chain)
      expect(hashes.length).toBeGreaterThan(0)
      expect(await actualTxs(out, chain)).toEqual((await details(emu, chain, hashes)).map(expectedTx))
    }
  })

  it("given the details, when the child tables are read, then they hold exactly each detail's transfers and internal transactions, and agree with the parent's counts", async ({ crawled: { emu, job, out } }) => {
    const chain = job.tokenContracts[0]!.chainId
    const ds = await details(emu, chain, await wantedHashes(out, job, chain))
    const expected = expectedChildren(ds)
    expect(expected.erc20.length).toBeGreaterThan(10)
    expect(expected.erc721.length).toBeGreaterThan(10)
    expect(expected.erc1155.length).toBeGreaterThan(10)
    expect(expected.internal.length).toBeGreaterThan(0)
    expect(await actualChildren(out, chain)).toEqual(expected)
    const mismatches = await rows(
      out,
      `SELECT t.tx_hash FROM evm_transactions t
       LEFT JOIN (SELECT tx_hash, count(*) AS n FROM evm_erc20_transfers GROUP BY tx_hash) a USING (tx_hash)
       LEFT JOIN (SELECT tx_hash, count(*) AS n FROM evm_erc721_transfers GROUP BY tx_hash) b USING (tx_hash)
       LEFT JOIN (SELECT tx_hash, count(*) AS n FROM evm_erc1155_transfers GROUP BY tx_hash) c USING (tx_hash)
       LEFT JOIN (SELECT tx_hash, count(*) AS n FROM evm_internal_transactions GROUP BY tx_hash) i USING (tx_hash)
       WHERE t.erc20_transfer_count <> coalesce(a.n, 0) OR t.erc721_transfer_count <> coalesce(b.n, 0)
          OR t.erc1155_transfer_count <> coalesce(c.n, 0) OR t.internal_transaction_count <> coalesce(i.n, 0)`
    )
    expect(mismatches).toEqual([])
  })

  it("given the catalog, when DuckDB describes the five tables, then amounts are DECIMAL(38,0), values uint256 text pairs and parties flat columns", async ({ crawled: { out } }) => {
    expect(await columnTypes(out, "evm_transactions")).toMatchObject({
      block_number: "DECIMAL(38,0)",
      block_timestamp: "TIMESTAMP WITH TIME ZONE",
      tx_hash: "VARCHAR",
      gas_price: "DECIMAL(38,0)",
      nonce: "DECIMAL(38,0)",
      value: "VARCHAR",
      value_double: "DOUBLE",
      from_address: "VARCHAR",
      to_decimals: "INTEGER",
      erc20_transfer_count: "INTEGER",
      chain_id: "VARCHAR",
      date: "DATE"
    })
    expect(await columnTypes(out, "evm_erc20_transfers")).toMatchObject({ tx_hash: "VARCHAR", block_number: "DECIMAL(38,0)", value: "VARCHAR", value_double: "DOUBLE", token_decimals: "INTEGER", chain_id: "VARCHAR", date: "DATE" })
    expect((await columnTypes(out, "evm_erc721_transfers"))["token_metadata"]).toMatch(/^STRUCT\(index_status VARCHAR, /)
    expect(await columnTypes(out, "evm_erc1155_transfers")).toMatchObject({ token_id: "VARCHAR", value: "VARCHAR", value_double: "DOUBLE" })
    expect(await columnTypes(out, "evm_internal_transactions")).toMatchObject({ trace_index: "INTEGER", is_reverted: "BOOLEAN", gas_used: "DECIMAL(38,0)", value_double: "DOUBLE" })
  })

  it("given a finished fan-out, when the clock moves and token_transfers finds new hashes, then the next run looks up only those and writes no hash twice", async ({ folder, ownEmulator }) => {
    // its own emulator and output: moving the file's emulator's clock would change the prices the other tests compare
    const own = await ownEmulator(unlimited(23))
    await movedClock(own, evmJob(own), await folder("evm-transactions"))
    // three crawls of the group's transactions
  }, 180_000)

  const movedClock = async (emu: RunningEmulator, job: Job, out: string) => {
    await crawl(out, emu, job, ["token_transfers", "evm_transactions"])
    const chain = job.tokenContracts[0]!.chainId
    const before = new Set(await wantedHashes(out, job, chain))
    emu.advance(3 * 86_400)
    await crawl(out, emu, job, ["token_transfers"])
    const fresh = (await wantedHashes(out, job, chain)).filter((h) => !before.has(h))
    expect(fresh.length).toBeGreaterThan(0)
    const requests = served(emu)
    const report = await crawl(out, emu, job, ["evm_transactions"])
    // nextKeys reads the output, not the service: every request is one route-11 lookup
    expect(served(emu) - requests).toBe(fresh.length)
    expect(report.slices.reduce((n, s) => n + s.rows, 0)).toBe(fresh.length)
    const [dup] = await rows(out, `SELECT count(*)::INTEGER AS n, count(DISTINCT tx_hash)::INTEGER AS d FROM evm_transactions WHERE chain_id = '${chain}'`)
    expect(dup).toEqual({ n: before.size + fresh.length, d: before.size + fresh.length })
    // the earlier rows keep the current price of their own fetch: compare the new ones whole
    const added = new Set(fresh)
    expect((await actualTxs(out, chain)).filter((r) => added.has(String(r["tx_hash"])))).toEqual((await details(emu, chain, fresh)).map(expectedTx))
    // and a run with nothing new asks nothing
    const idle = served(emu)
    await crawl(out, emu, job, ["evm_transactions"])
    expect(served(emu) - idle).toBe(0)
  }

  it("given a named hash the service does not know, when looked up, then it becomes a reject and later runs do not ask for it again", async ({ crawled: { emu, job, out } }) => {
    const chain = job.tokenContracts[0]!.chainId
    const unknown = `0x${"ab".repeat(32)}`
    const withUnknown: Job = { ...job, transactionHashes: [...job.transactionHashes, { chainId: chain, txHash: unknown }] }
    const first = served(emu)
    await crawl(out, emu, withUnknown, ["evm_transactions"])
    expect(served(emu) - first).toBe(1)
    const rejects = await rows(out, "SELECT raw, reason FROM _rejects WHERE dataset = 'evm_transactions'")
    expect(rejects).toHaveLength(1)
    expect(JSON.parse(String(rejects[0]!["raw"]))).toEqual({ key: unknown })
    expect(String(rejects[0]!["reason"])).toMatch(/^not found: GET data \/v1\/chains\/\d+\/transactions\/0xabab.* answered 404$/)
    const again = served(emu)
    await crawl(out, emu, withUnknown, ["evm_transactions"])
    expect(served(emu) - again).toBe(0)
    expect(await rows(out, "SELECT count(*)::INTEGER AS n FROM _rejects")).toEqual([{ n: 1 }])
  })

  it("given a hash named on the wrong chain and answered 404 there, when it is then named on its own chain, then it is looked up there once", async ({ crawled: { emu, job }, folder }) => {
    const own = job.transactionHashes.find((t) => t.chainId !== job.tokenContracts[0]!.chainId)!
    const wrong = job.tokenContracts[0]!.chainId
    const fresh = await folder("evm-transactions")
    const only = (chainId: string): Job => ({ ...job, tokenContracts: [], transactionHashes: [{ chainId, txHash: own.txHash }] })
    await crawl(fresh, emu, only(wrong), ["evm_transactions"])
    expect(await rows(fresh, "SELECT count(*)::INTEGER AS n FROM _rejects")).toEqual([{ n: 1 }])
    const requests = served(emu)
    await crawl(fresh, emu, only(own.chainId), ["evm_transactions"])
    expect(served(emu) - requests).toBe(1)
    expect(await rows(fresh, "SELECT chain_id, tx_hash FROM evm_transactions")).toEqual([{ chain_id: own.chainId, tx_hash: own.txHash }])
  })
})
