import { Effect } from "effect"
import * as path from "node:path"
import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { fetchAll, query, runSpine } from "../../support/spine.ts"
import { NETWORKS } from "../../support/emulatorJob/groups.ts"
import { byKey, columnTypes, rejectReasons, uncommentedColumns } from "../../support/catalogReads.ts"
import { overRestClient } from "../../support/clientWraps.ts"

type Rec = Record<string, unknown>

const rewards = (r: unknown) => {
  if (r === undefined) return null
  const x = r as Rec
  return {
    validation_reward_amount: x["validationRewardAmount"],
    delegation_reward_amount: x["delegationRewardAmount"],
    reward_addresses: x["rewardAddresses"] ?? [],
    reward_tx_hash: x["rewardTxHash"] ?? null
  }
}

/** Route 7 fully, for every node id route 8 names on each network: the validations the dataset must hold. */
const expected = async (emu: RunningEmulator) => {
  const rows = []
  for (const network of NETWORKS) {
    const nodeIds = [...new Set((await fetchAll(`${emu.baseUrl}/v1/networks/${network}/delegators`, "delegators")).map((d) => String(d["nodeId"])))]
    for (const nodeId of nodeIds) {
      for (const v of await fetchAll(`${emu.baseUrl}/v1/networks/${network}/validators/${nodeId}`, "validators")) {
        const bls = v["blsCredentials"] as Rec | undefined
        const health = v["validatorHealth"] as Rec | undefined
        const geo = v["geolocation"] as Rec | null | undefined
        rows.push({
          network,
          tx_hash: v["txHash"],
          node_id: v["nodeId"],
          subnet_id: v["subnetId"],
          amount_staked: v["amountStaked"],
          delegation_fee: v["delegationFee"] ?? null,
          start: BigInt(v["startTimestamp"] as number),
          end: BigInt(v["endTimestamp"] as number),
          bls_public_key: bls?.["publicKey"] ?? null,
          validation_status: v["validationStatus"],
          delegator_count: v["delegatorCount"] ?? null,
          amount_delegated: v["amountDelegated"] ?? null,
          rewards: rewards(v["rewards"]),
          potential_rewards: rewards(v["potentialRewards"]),
          stake_percentage: v["stakePercentage"] ?? null,
          uptime_performance: v["uptimePerformance"] ?? null,
          avalanche_go_version: v["avalancheGoVersion"] ?? null,
          delegation_capacity: v["delegationCapacity"] ?? null,
          reachability_percent: health?.["reachabilityPercent"] ?? null,
          benched_c: health?.["benchedCChainRequestsPercent"] ?? null,
          city: geo?.["city"] ?? null,
          country_code: geo?.["countryCode"] ?? null,
          latitude: geo?.["latitude"] ?? null
        })
      }
    }
  }
  return rows.sort(byKey<Rec>("network", "tx_hash"))
}

const rewardsSql = (c: string) =>
  `CASE WHEN ${c} IS NULL THEN NULL ELSE {'validation_reward_amount': ${c}.validation_reward_amount::VARCHAR, 'delegation_reward_amount': ${c}.delegation_reward_amount::VARCHAR,
     'reward_addresses': ${c}.reward_addresses, 'reward_tx_hash': ${c}.reward_tx_hash} END AS ${c}`

const actual = async (catalog: string) =>
  (
    await query(
      catalog,
      `SELECT network, tx_hash, node_id, subnet_id, amount_staked::VARCHAR AS amount_staked, delegation_fee,
         epoch(start_timestamp)::BIGINT AS start, epoch(end_timestamp)::BIGINT AS "end", bls_public_key, validation_status,
         delegator_count, amount_delegated::VARCHAR AS amount_delegated, ${rewardsSql("rewards")}, ${rewardsSql("potential_rewards")},
         stake_percentage, uptime_performance, avalanche_go_version, delegation_capacity::VARCHAR AS delegation_capacity,
         validator_health.reachability_percent AS reachability_percent, validator_health.benched_c_chain_requests_percent AS benched_c,
         geolocation.city AS city, geolocation.country_code AS country_code, geolocation.latitude AS latitude
       FROM validators`
    )
  ).sort(byKey<Rec>("network", "tx_hash"))

/** One crawl from the worker's shared emulator, made for the file's first test that asks and read by the others. */
const it = crawledOnce("validators", "shared", async ({ emu, out }) => ({ out, report: await Effect.runPromise(runSpine(out, emu, { datasets: ["delegators", "validators"] })) }))

// the first test that asks for the crawl also waits for it: twice the default time
describe("validators (route 7 per node id) through the spine", { timeout: 120_000 }, () => {
  it("given delegators of this snapshot, when validators runs, then it holds every validation of every delegated-to node, each in its status variant", async ({ emulator: emu, crawled: { out, report } }) => {
    expect(report.status).toBe("succeeded")
    const want = await expected(emu)
    expect([...new Set(want.map((v) => v.validation_status))]).toEqual(expect.arrayContaining(["active", "completed"]))
    // one key (node) stands for several rows
    expect(new Set(want.map((v) => `${v.network}/${v.node_id}`)).size).toBeLessThan(want.length)
    expect(await actual(path.join(out, "catalog.duckdb"))).toEqual(want)
    expect(await rejectReasons(out, "validators")).toEqual([])
  })

  it("given a run, when DuckDB describes validators, then amounts are exact, rewards and health are structs and every column is commented", async ({ crawled: { out } }) => {
    const types = await columnTypes(out, "validators")
    expect(types).toMatchObject({
      network: "VARCHAR",
      snapshot_date: "DATE",
      amount_staked: "DECIMAL(38,0)",
      delegation_capacity: "DECIMAL(38,0)",
      delegator_count: "INTEGER",
      stake_percentage: "DOUBLE",
      start_timestamp: "TIMESTAMP WITH TIME ZONE"
    })
    expect(types["rewards"]).toBe("STRUCT(validation_reward_amount DECIMAL(38,0), delegation_reward_amount DECIMAL(38,0), reward_addresses VARCHAR[], reward_tx_hash VARCHAR)")
    expect(types["geolocation"]).toMatch(/^STRUCT\(city VARCHAR, .*latitude DOUBLE, longitude DOUBLE\)$/)
    expect(await uncommentedColumns(out, "validators")).toEqual([])
  })

  it("given route 7 answering two validations a page, when validators runs, then each node is paged through to the same rows", async ({ emulator: emu, out: small }) => {
    const calls: string[] = []
    const twoAPage = overRestClient((real) => ({
      ...real,
      get: (service, p, q) => {
        if (!p.includes("/validators/")) return real.get(service, p, q)
        calls.push(`${p} ${q?.["pageToken"] ?? ""}`)
        return real.get(service, p, { ...q, pageSize: 2 })
      }
    }))
    await Effect.runPromise(runSpine(small, emu, { datasets: ["delegators"] }))
    const paged = await Effect.runPromise(runSpine(small, emu, { datasets: ["validators"] }, twoAPage))
    expect(paged.status).toBe("succeeded")
    const want = await expected(emu)
    // one first page per node, and follow-up pages beyond them
    const firstPages = calls.filter((c) => c.endsWith(" "))
    expect(firstPages.length).toBe(new Set(want.map((v) => `${v.network}/${v.node_id}`)).size)
    expect(calls.length).toBeGreaterThan(firstPages.length)
    expect(await actual(path.join(small, "catalog.duckdb"))).toEqual(want)
  })

  it("given a finished snapshot, when the same day runs again, then no node is asked again", async ({ emulator: emu, crawled: { out } }) => {
    const again = await Effect.runPromise(runSpine(out, emu, { datasets: ["validators"] }))
    expect(again.slices.map((s) => s.status)).toEqual(["skipped", "skipped"])
  })
})
