import { Effect } from "effect"
import { describe, expect } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { runSpine } from "../../support/spine.ts"
import { type Rec, columnTypes, plain, rows, sortBy, uncommentedColumns } from "../../support/catalogReads.ts"
import { call } from "../../support/emulatorAnswers.ts"
import { newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"

const PRIMARY = "11111111111111111111111111111111LpoYY"
const SNAPSHOTS = ["current_validators", "current_supply", "tx_fees", "blockchains"]

const owner = (o: Rec | undefined) =>
  o === undefined ? null : { locktime: String(o["locktime"]), threshold: Number(o["threshold"]), addresses: o["addresses"] }

/** platform.getCurrentValidators per subnet, delegators from the one-node answer (plain fetch). */
const expectedValidators = async (emu: RunningEmulator, subnets: string[]) => {
  const out: Rec[] = []
  for (const subnet of subnets) {
    for (const v of (await call(emu, "P", "platform.getCurrentValidators", { subnetID: subnet }))["validators"] as Rec[]) {
      let delegators: Rec[] | null = v["validationID"] !== undefined || v["delegatorCount"] === "0" ? [] : null
      if (delegators === null) {
        const alone = (await call(emu, "P", "platform.getCurrentValidators", { subnetID: subnet, nodeIDs: [v["nodeID"]] }))["validators"] as Rec[]
        delegators = (alone[0]?.["delegators"] as Rec[] | undefined) ?? null
      }
      out.push({
        subnet_id: subnet,
        node_id: v["nodeID"],
        tx_id: v["txID"] ?? null,
        validation_id: v["validationID"] ?? null,
        start: v["startTime"] ?? null,
        end: v["endTime"] ?? null,
        weight: v["weight"] ?? null,
        potential_reward: v["potentialReward"] ?? null,
        delegation_fee: v["delegationFee"] ?? null,
        uptime: v["uptime"] === undefined ? null : Number(v["uptime"]),
        connected: v["connected"] ?? null,
        signer_public_key: (v["signer"] as Rec | undefined)?.["publicKey"] ?? null,
        validation_reward_owner: owner(v["validationRewardOwner"] as Rec | undefined),
        public_key: v["publicKey"] ?? null,
        remaining_balance_owner: owner(v["remainingBalanceOwner"] as Rec | undefined),
        balance: v["balance"] ?? null,
        delegator_count: v["delegatorCount"] === undefined ? null : Number(v["delegatorCount"]),
        delegators: (delegators ?? []).map((d) => `${d["txID"]}:${d["weight"]}:${d["startTime"]}:${d["endTime"]}:${d["potentialReward"]}`).join(",")
      })
    }
  }
  return sortBy(out, (r) => `${r["subnet_id"]}|${r["node_id"]}`)
}

const actualValidators = async (out: string) =>
  plain(
    await rows(
      out,
      `SELECT subnet_id, node_id, tx_id, validation_id, epoch(start_time)::BIGINT::VARCHAR AS start, epoch(end_time)::BIGINT::VARCHAR AS "end",
         weight::VARCHAR AS weight, potential_reward::VARCHAR AS potential_reward, delegation_fee, uptime, connected, signer_public_key,
         validation_reward_owner, public_key, remaining_balance_owner, balance::VARCHAR AS balance, delegator_count,
         array_to_string(list_transform(delegators, d -> d.tx_id || ':' || d.weight::VARCHAR || ':' || epoch(d.start_time)::BIGINT::VARCHAR || ':'
           || epoch(d.end_time)::BIGINT::VARCHAR || ':' || d.potential_reward::VARCHAR), ',') AS delegators
       FROM current_validators`,
      (r) => `${r["subnet_id"]}|${r["node_id"]}`
    )
  ) as Rec[]

/** The file's crawl from the worker's shared emulator (these tests only read from it), made for the first test that asks. */
const it = crawledOnce("node-snapshots", "shared", async ({ emu, out }) => {
  const calls = newCalls()
  const job = nodeJob(emu)
  const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: SNAPSHOTS }, overRpc(calls)))
  expect(report.status).toBe("succeeded")
  return { job, out, calls }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("node snapshots (current_validators, current_supply, tx_fees, blockchains) through the spine", { timeout: 120_000 }, () => {
  it("given the primary network and one L1, when current_validators runs, then each validator is a row equal to the node's, with the delegators it lists for that node alone", async ({ emulator: emu, crawled: { job, out, calls } }) => {
    expect(job.subnets).toHaveLength(1)
    const want = await expectedValidators(emu, [PRIMARY, ...job.subnets])
    const withDelegations = want.filter((v) => v["delegators"] !== "").length
    expect(withDelegations).toBeGreaterThan(0)
    expect(want.some((v) => v["validation_id"] !== null)).toBe(true)
    expect(await actualValidators(out)).toEqual(want)
    // the list per subnet, then one call per validator with delegations
    expect(calls.count("platform.getCurrentValidators")).toBe(2 + withDelegations)
  })

  it("given the run, when current_supply, tx_fees and blockchains are read, then they equal the node's answers", async ({ emulator: emu, crawled: { job, out } }) => {
    const supply = []
    for (const subnet of [PRIMARY, ...job.subnets]) {
      const s = await call(emu, "P", "platform.getCurrentSupply", { subnetID: subnet })
      supply.push({ subnet_id: subnet, supply: s["supply"], height: s["height"] })
    }
    expect(await rows(out, "SELECT subnet_id, supply::VARCHAR AS supply, height::VARCHAR AS height FROM current_supply", (r) => String(r["subnet_id"]))).toEqual(
      sortBy(supply, (r) => r.subnet_id)
    )
    const fee = await call(emu, "X", "avm.getTxFee")
    expect(await rows(out, "SELECT tx_fee::VARCHAR AS tx_fee, create_asset_tx_fee::VARCHAR AS create FROM tx_fees", () => "")).toEqual([
      { tx_fee: fee["txFee"], create: fee["createAssetTxFee"] }
    ])
    const chains = []
    for (const b of (await call(emu, "P", "platform.getBlockchains"))["blockchains"] as Rec[]) {
      const status = (await call(emu, "P", "platform.getBlockchainStatus", { blockchainID: b["id"] }))["status"]
      chains.push({ blockchain_id: b["id"], name: b["name"], subnet_id: b["subnetID"], vm_id: b["vmID"], status })
    }
    expect(new Set(chains.map((c) => c.status))).toEqual(new Set(["Validating", "Created"]))
    expect(await rows(out, "SELECT blockchain_id, name, subnet_id, vm_id, status FROM blockchains", (r) => String(r["blockchain_id"]))).toEqual(
      sortBy(chains, (c) => String(c.blockchain_id))
    )
  })

  it("given a run, when DuckDB describes the snapshots, then quantities are exact, owners and delegators nested, keys network and snapshot_date, every column commented", async ({ crawled: { out } }) => {
    const v = await columnTypes(out, "current_validators")
    expect(v).toMatchObject({
      network: "VARCHAR",
      snapshot_date: "DATE",
      node_id: "VARCHAR",
      subnet_id: "VARCHAR",
      weight: "DECIMAL(38,0)",
      start_time: "TIMESTAMP WITH TIME ZONE",
      uptime: "DOUBLE",
      connected: "BOOLEAN",
      validation_reward_owner: "STRUCT(locktime BIGINT, threshold INTEGER, addresses VARCHAR[])"
    })
    expect(v["delegators"]).toMatch(/^STRUCT\(tx_id VARCHAR, start_time TIMESTAMP WITH TIME ZONE, .*weight DECIMAL\(38,0\).*\)\[\]$/)
    expect(await columnTypes(out, "current_supply")).toMatchObject({ network: "VARCHAR", snapshot_date: "DATE", supply: "DECIMAL(38,0)", height: "BIGINT" })
    expect(await columnTypes(out, "tx_fees")).toMatchObject({ tx_fee: "DECIMAL(38,0)", create_asset_tx_fee: "DECIMAL(38,0)" })
    expect(await columnTypes(out, "blockchains")).toMatchObject({ blockchain_id: "VARCHAR", status: "VARCHAR", snapshot_date: "DATE" })
    for (const d of SNAPSHOTS) expect(await uncommentedColumns(out, d)).toEqual([])
  })

  it("given a finished snapshot, when the same day runs again, then no node call is made", async ({ emulator: emu, crawled: { job, out } }) => {
    const again = newCalls()
    const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: SNAPSHOTS }, overRpc(again)))
    expect(report.slices.every((s) => s.status === "skipped")).toBe(true)
    expect(again.log).toEqual([])
  })

  it("given a node on fuji, when the job puts mainnet first, then node slices fail naming both networks; with fuji first, rows are fuji's", async ({ crawled: { job }, folder }) => {
    const fuji = await startEmulator({ seed: 11, nodeNetwork: "fuji" })
    try {
      const wrong = await folder("node-snapshots")
      const failed = await Effect.runPromise(runSpine(wrong, fuji, { job: { ...job, networks: ["mainnet", "fuji"] }, datasets: ["tx_fees"] }))
      expect(failed.status).toBe("failed")
      expect(failed.slices[0]?.error).toContain('the node serves fuji, but node datasets crawl the job\'s first network, mainnet: put "fuji" first')
      const right = await folder("node-snapshots")
      const ok = await Effect.runPromise(runSpine(right, fuji, { job: { ...job, networks: ["fuji", "mainnet"], subnets: [] }, datasets: ["tx_fees", "current_supply"] }))
      expect(ok.status).toBe("succeeded")
      expect(await rows(right, "SELECT DISTINCT network FROM current_supply", () => "")).toEqual([{ network: "fuji" }])
      const fujiSupply = await call(fuji, "P", "platform.getCurrentSupply", { subnetID: PRIMARY })
      expect(await rows(right, `SELECT supply::VARCHAR AS supply FROM current_supply WHERE subnet_id = '${PRIMARY}'`, () => "")).toEqual([{ supply: fujiSupply["supply"] }])
    } finally {
      await fuji.close()
    }
  })
})
