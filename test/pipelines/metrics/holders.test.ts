import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import type { RunReport } from "../../../src/Runner.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { filesUnder, query, runSpine } from "../../support/spine.ts"
import { columnTypes } from "../../support/catalogReads.ts"
import { metricsJob } from "../../support/emulatorJob/groups.ts"
import { pages } from "../../support/emulatorAnswers.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("holders")

const byKey = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  `${a["chain_id"]}|${a["contract_address"]}|${a["holder_address"]}`.localeCompare(`${b["chain_id"]}|${b["contract_address"]}|${b["holder_address"]}`)

/** Route 14 read by hand for every entry of the job, at the route's largest page. */
const expectedTokenHolders = async (emu: RunningEmulator, job: Job, snapshot: string) => {
  const rows: Array<Record<string, unknown>> = []
  for (const h of job.tokenHolders) {
    const url = `${emu.metricsUrl}/v2/chains/${h.chainId}/contracts/${h.address}/balances`
    for (const body of await pages(url, "addresses", { threshold: h.threshold, pageSize: "5000" })) {
      for (const a of body["addresses"] as Array<{ address: string; sortKey: number | bigint }>) {
        rows.push({ chain_id: h.chainId, snapshot_date: snapshot, contract_address: h.address.toLowerCase(), threshold: h.threshold, holder_address: a.address, sort_key: String(a.sortKey) })
      }
    }
  }
  return rows.sort(byKey)
}

/** Route 18 read by hand: holders, and the collection fields of the page they came on. */
const expectedNftHolders = async (emu: RunningEmulator, job: Job, snapshot: string) => {
  const rows: Array<Record<string, unknown>> = []
  for (const c of job.nftContracts) {
    const url = `${emu.metricsUrl}/v2/chains/${c.chainId}/contracts/${c.address}/nfts:listHolders`
    for (const body of await pages(url, "addresses", { pageSize: "5000" })) {
      for (const a of body["addresses"] as Array<{ address: string; sortKey: number | bigint }>) {
        rows.push({
          chain_id: c.chainId,
          snapshot_date: snapshot,
          contract_address: c.address.toLowerCase(),
          holder_address: a.address,
          sort_key: String(a.sortKey),
          nft_collection_name: body["nftCollectionName"],
          nft_symbol: body["nftSymbol"],
          total_holders: body["totalHolders"],
          total_tokens: Number(body["totalTokens"])
        })
      }
    }
  }
  return rows.sort(byKey)
}

describe("token_holders and nft_holders through the spine", () => {
  let emu: RunningEmulator
  let out: string
  let job: Job
  let report: RunReport
  let snapshot: string

  beforeAll(async () => {
    emu = await startEmulator({ seed: 40, rateLimit: { metricsPerSecond: 0 } })
    out = await tempOut()
    job = metricsJob(emu)
    report = await Effect.runPromise(runSpine(out, emu, { datasets: ["token_holders", "nft_holders"], job }))
    // snapshots are dated by the run's as-of, which follows the emulator's clock
    snapshot = new Date(emu.clock.now() * 1000).toISOString().slice(0, 10)
  }, 60_000)
  afterAll(async () => {
    await emu.close()
  })

  it("given the emulator's ERC-20s at their median holder balance, when the run finishes, then token_holders equal route 14's answers", async () => {
    expect(report.status).toBe("succeeded")
    expect(report.slices.reduce((n, s) => n + s.rejects, 0)).toBe(0)
    // four ERC-20s on each C-Chain
    expect(job.tokenHolders).toHaveLength(8)
    const want = await expectedTokenHolders(emu, job, snapshot)
    const got = (
      await query(
        path.join(out, "catalog.duckdb"),
        `SELECT chain_id, strftime(snapshot_date, '%Y-%m-%d') AS snapshot_date, contract_address, threshold, holder_address, sort_key FROM token_holders`
      )
    ).sort(byKey)
    expect(want.length).toBeGreaterThan(8 * 50)
    expect(got).toEqual(want)
    // balances past 2^53 arrive as exact JSON integers and are kept digit for digit
    const big = got.filter((r) => BigInt(r["sort_key"] as string) > 2n ** 53n)
    expect(big.length).toBeGreaterThan(0)
    // and some of them no double could spell: they did not pass through a JS number on the way
    expect(big.some((r) => String(r["sort_key"]) !== BigInt(Number(r["sort_key"])).toString())).toBe(true)
    const doubles = await query(path.join(out, "catalog.duckdb"), `SELECT sort_key, sort_key_double FROM token_holders`)
    for (const r of doubles) expect(r["sort_key_double"]).toBe(Number(r["sort_key"]))
    // the threshold filtered: some holders of each token are left out
    const everyone = (await pages(`${emu.metricsUrl}/v2/chains/43114/contracts/${job.tokenHolders[0]!.address}/balances`, "addresses", { threshold: "0", pageSize: "5000" }))
      .flatMap((b) => b["addresses"] as unknown[])
    expect(got.filter((r) => r["contract_address"] === job.tokenHolders[0]!.address.toLowerCase() && r["chain_id"] === "43114").length).toBeLessThan(everyone.length)
  })

  it("given the emulator's NFT collections, when the run finishes, then nft_holders equal route 18's holders with the collection's name, symbol and totals on each row", async () => {
    expect(job.nftContracts).toHaveLength(10)
    const want = await expectedNftHolders(emu, job, snapshot)
    const got = (
      await query(
        path.join(out, "catalog.duckdb"),
        `SELECT chain_id, strftime(snapshot_date, '%Y-%m-%d') AS snapshot_date, contract_address, holder_address, sort_key,
           nft_collection_name, nft_symbol, total_holders::INTEGER AS total_holders, total_tokens::INTEGER AS total_tokens FROM nft_holders`
      )
    ).sort(byKey)
    expect(want.length).toBeGreaterThan(10 * 20)
    expect(got).toEqual(want)
    // the totals a notebook reads agree with the rows themselves
    const check = await query(
      path.join(out, "catalog.duckdb"),
      `SELECT contract_address, count(*)::INTEGER AS n, sum(sort_key::HUGEINT)::INTEGER AS tokens, any_value(total_holders)::INTEGER AS th, any_value(total_tokens)::INTEGER AS tt
       FROM nft_holders GROUP BY chain_id, contract_address`
    )
    for (const c of check) expect([c["n"], c["tokens"]]).toEqual([c["th"], c["tt"]])
  })

  it("given a finished run, when DuckDB describes both views, then columns carry the declared types", async () => {
    expect(await columnTypes(out, "token_holders")).toEqual({
      contract_address: "VARCHAR",
      threshold: "VARCHAR",
      holder_address: "VARCHAR",
      sort_key: "VARCHAR",
      sort_key_double: "DOUBLE",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE",
      chain_id: "VARCHAR",
      snapshot_date: "DATE"
    })
    expect(await columnTypes(out, "nft_holders")).toEqual({
      contract_address: "VARCHAR",
      holder_address: "VARCHAR",
      sort_key: "VARCHAR",
      sort_key_double: "DOUBLE",
      nft_collection_name: "VARCHAR",
      nft_symbol: "VARCHAR",
      total_holders: "BIGINT",
      total_tokens: "BIGINT",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE",
      chain_id: "VARCHAR",
      snapshot_date: "DATE"
    })
  })

  it("given a finished snapshot, when the job runs again the same day, then nothing is fetched again and no row is doubled", async () => {
    const parts = await filesUnder(path.join(out, "token_holders"))
    for (const p of parts) expect(p).toMatch(new RegExp(`^chain_id=4311[34]/snapshot_date=${snapshot}/part-[a-z0-9-]+-\\d{6}\\.parquet$`))
    const count = async () => query(path.join(out, "catalog.duckdb"), "SELECT (SELECT count(*) FROM token_holders)::INTEGER AS t, (SELECT count(*) FROM nft_holders)::INTEGER AS n")
    const before = await count()
    const again = await Effect.runPromise(runSpine(out, emu, { datasets: ["token_holders", "nft_holders"], job }))
    expect(again.slices.every((s) => s.status === "skipped")).toBe(true)
    expect(await count()).toEqual(before)
  })
})
