import { describe, expect, it } from "vitest"
import { DECIMAL, resultKeys, useNode, type Json } from "./support.ts"

const RANDOM_ID = "2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFL"
const PRIMARY = "11111111111111111111111111111111LpoYY"

/** Every leaf of a validator record, booleans aside, is a string (seed: "all strings unless stated"). */
const expectAllStrings = (v: unknown, path = "validator"): void => {
  if (Array.isArray(v)) return v.forEach((x, i) => expectAllStrings(x, `${path}[${i}]`))
  if (typeof v === "object" && v !== null) return Object.entries(v).forEach(([k, x]) => expectAllStrings(x, `${path}.${k}`))
  if (path.endsWith(".connected")) return void expect(typeof v, path).toBe("boolean")
  expect(typeof v, path).toBe("string")
}

const PRIMARY_KEYS = [
  "txID",
  "startTime",
  "endTime",
  "nodeID",
  "weight",
  "validationRewardOwner",
  "delegationRewardOwner",
  "potentialReward",
  "delegationFee",
  "uptime",
  "connected",
  "signer",
  "delegatorCount",
  "delegatorWeight",
  "delegators"
]

describe("platform.* methods", () => {
  const node = useNode()

  it("given no params, when platform.getBlockchains is called, then X, C and every created L1 chain come back, never the P-chain", async () => {
    const { net } = node.current
    const got = await node.current.result("P", "platform.getBlockchains")
    expect(Object.keys(got)).toEqual(resultKeys("P", "platform.getBlockchains"))
    const chains = got.blockchains as Json[]
    for (const c of chains) expect(Object.keys(c)).toEqual(["id", "name", "subnetID", "vmID"])
    const ids = chains.map((c) => c.id)
    expect(ids).toEqual(expect.arrayContaining([net.blockchainIds.X, net.blockchainIds.C, ...net.l1View.chains().map((p) => net.served.of(p.chainId))]))
    expect(ids).not.toContain(net.blockchainIds.P)
    expect(chains.find((c) => c.id === net.blockchainIds.X)).toMatchObject({ name: "X-Chain", subnetID: PRIMARY })
  })

  it("given chain aliases and ids, when platform.getBlockchainStatus is called, then primary chains validate, L1 chains are created and others unknown", async () => {
    const { net } = node.current
    const status = async (blockchainID: string) => (await node.current.result("P", "platform.getBlockchainStatus", { blockchainID })).status
    expect(await status("X")).toBe("Validating")
    expect(await status(net.blockchainIds.C)).toBe("Validating")
    expect(await status(net.l1View.chains()[0]!.chainId)).toBe("Created")
    expect(await status(RANDOM_ID)).toBe("Unknown")
    expect(await node.current.failure("P", "platform.getBlockchainStatus", {})).toEqual({ code: -32000, message: "argument 'blockchainID' not given" })
    expect((await node.current.failure("P", "platform.getBlockchainStatus", { blockchainID: "not-an-id" })).code).toBe(-32000)
  })

  it("given no subnet, when platform.getCurrentSupply is called, then supply and P height come back as decimal strings, the supply growing with time", async () => {
    const { net, emu } = node.current
    const got = await node.current.result("P", "platform.getCurrentSupply")
    expect(Object.keys(got)).toEqual(resultKeys("P", "platform.getCurrentSupply"))
    expect(got).toEqual({ supply: net.supplyAt(net.now()).toString(), height: net.height("P").toString() })
    expect(got.supply).toMatch(DECIMAL)
    expect(await node.current.result("P", "platform.getCurrentSupply", { subnetID: PRIMARY })).toEqual(got)
    emu.advance(600)
    expect(BigInt((await node.current.result("P", "platform.getCurrentSupply", {})).supply as string)).toBeGreaterThan(BigInt(got.supply as string))
    expect(await node.current.failure("P", "platform.getCurrentSupply", { subnetID: RANDOM_ID })).toEqual({ code: -32000, message: "fetching current supply failed: not found" })
  })

  it("given no params, when platform.getCurrentValidators is called, then running primary validators come back with string fields and delegator totals but no delegator list", async () => {
    const { net } = node.current
    const got = await node.current.result("P", "platform.getCurrentValidators")
    expect(Object.keys(got)).toEqual(resultKeys("P", "platform.getCurrentValidators"))
    const validators = got.validators as Json[]
    expect(validators.length).toBeGreaterThan(0)
    const now = net.now()
    for (const v of validators) {
      expect(PRIMARY_KEYS.filter((k) => k !== "signer" && k !== "delegators").every((k) => k in v)).toBe(true)
      expect(Object.keys(v).every((k) => PRIMARY_KEYS.includes(k))).toBe(true)
      expect("delegators" in v).toBe(false)
      expect(Number(v.startTime)).toBeLessThanOrEqual(now)
      expect(Number(v.endTime)).toBeGreaterThan(now)
      expect(v.delegationFee).toMatch(/^\d+\.\d{4}$/)
      expectAllStrings(v)
    }
    const signed = validators.find((v) => "signer" in v)
    expect(Object.keys(signed?.signer as Json)).toEqual(["publicKey", "proofOfPosession"])
  })

  it("given one nodeID, when platform.getCurrentValidators is called, then that validator comes with its delegators, whose count and weight match the totals", async () => {
    const all = (await node.current.result("P", "platform.getCurrentValidators")).validators as Json[]
    const busiest = [...all].sort((a, b) => Number(b.delegatorCount) - Number(a.delegatorCount))[0]!
    const got = (await node.current.result("P", "platform.getCurrentValidators", { nodeIDs: [busiest.nodeID] })).validators as Json[]
    expect(got).toHaveLength(1)
    const v = got[0]!
    const delegators = v.delegators as Json[]
    expect(delegators.length).toBeGreaterThan(0)
    expect(String(delegators.length)).toBe(v.delegatorCount)
    expect(delegators.reduce((s, d) => s + BigInt(d.weight as string), 0n).toString()).toBe(v.delegatorWeight)
    for (const d of delegators) {
      expect(Object.keys(d)).toEqual(["txID", "startTime", "endTime", "weight", "nodeID", "rewardOwner", "potentialReward"])
      expect(d.nodeID).toBe(busiest.nodeID)
      expectAllStrings(d, "delegator")
    }
    const { delegators: _, ...rest } = v
    expect(rest).toEqual(busiest)
  })

  it("given known and unknown nodeIDs, when platform.getCurrentValidators is called, then the unknown ones are left out", async () => {
    const all = (await node.current.result("P", "platform.getCurrentValidators")).validators as Json[]
    const wanted = [all[0]!.nodeID, "NodeID-111111111111111111116DBWJs", all[2]!.nodeID]
    const got = (await node.current.result("P", "platform.getCurrentValidators", { nodeIDs: wanted })).validators as Json[]
    expect(got.map((v) => v.nodeID).sort()).toEqual([all[0]!.nodeID, all[2]!.nodeID].sort())
    expect((await node.current.failure("P", "platform.getCurrentValidators", { nodeIDs: ["node-7"] })).code).toBe(-32600)
    expect((await node.current.result("P", "platform.getCurrentValidators", { subnetID: RANDOM_ID })).validators).toEqual([])
  })

  it("given an L1 subnet, when platform.getCurrentValidators is called, then L1 records come back: validation id, BLS key, owners, balance, no endTime", async () => {
    const { net } = node.current
    const l1 = net.l1View.subnets().find((p) => net.l1View.converted(p))!
    const validators = (await node.current.result("P", "platform.getCurrentValidators", { subnetID: l1.subnetId })).validators as Json[]
    expect(validators.length).toBeGreaterThan(0)
    for (const v of validators) {
      expect(Object.keys(v).sort()).toEqual(["balance", "deactivationOwner", "minNonce", "nodeID", "publicKey", "remainingBalanceOwner", "startTime", "validationID", "weight"])
      expect(v.publicKey).toMatch(/^0x[0-9a-f]{96}$/)
      expectAllStrings(v, "l1Validator")
    }
  })

  it("given a wallet's P addresses, when platform.getBalance is called, then AVAX scalars, per-asset maps and UTXO ids agree with each other", async () => {
    const { net } = node.current
    const set = net.addressSets()[0]!
    const got = await node.current.result("P", "platform.getBalance", { addresses: set.p })
    expect(Object.keys(got).sort()).toEqual(resultKeys("P", "platform.getBalance").sort())
    const avax = net.avaxAssetId
    expect((got.balances as Json)[avax]).toBe(got.balance)
    expect(BigInt(got.unlocked as string) + BigInt(got.lockedStakeable as string) + BigInt(got.lockedNotStakeable as string)).toBe(BigInt(got.balance as string))
    for (const k of ["balance", "unlocked", "lockedStakeable", "lockedNotStakeable"]) expect(got[k]).toMatch(DECIMAL)
    const utxos = net.utxos("P", set.addresses, { view: "node" })
    expect((got.utxoIDs as Json[]).length).toBe(utxos.length)
    expect(utxos.reduce((s, u) => s + u.amount, 0n).toString()).toBe(got.balance)
    expect((await node.current.failure("P", "platform.getBalance", { addresses: [set.x[0]] })).message).toContain("mismatched chainIDs")
  })

  it("given a height, when platform.getBlockByHeight is called with json, then the BanffStandardBlock carries time, parentID, height, id and txs with signature-only credentials", async () => {
    const { net } = node.current
    let h = net.height("P")
    while (net.block("P", h)?.blockType !== "BanffStandardBlock") h--
    const got = await node.current.result("P", "platform.getBlockByHeight", { height: Number(h), encoding: "json" })
    expect(Object.keys(got)).toEqual(resultKeys("P", "platform.getBlockByHeight"))
    const block = got.block as Json
    const b = net.block("P", h)!
    // vms/platformvm/block/standard_block.go: BanffStandardBlock{Time, ApricotStandardBlock{CommonBlock{parentID, height, id}, txs}}
    expect(Object.keys(block)).toEqual(["time", "parentID", "height", "id", "txs"])
    expect(block).toMatchObject({ time: b.timestamp, parentID: net.served.of(b.parentId), height: Number(h), id: net.served.of(b.id) })
    const txs = block.txs as Json[]
    expect(txs.map((t) => t.id)).toEqual(b.txIds.map(net.served.of))
    for (const t of txs) for (const c of t.credentials as Json[]) expect(Object.keys(c)).toEqual(["signatures"])
    expect(await node.current.result("P", "platform.getBlock", { blockID: b.id, encoding: "json" })).toEqual(got)
    expect((await node.current.result("P", "platform.getBlock", { blockID: b.id })).block).toMatch(/^0x[0-9a-f]+$/)
  })

  it("given unknown P-chain blocks, when the block methods are called, then the node's not-found errors come back", async () => {
    const { net } = node.current
    const tip = net.height("P") + 10n
    expect(await node.current.failure("P", "platform.getBlockByHeight", { height: Number(tip) })).toEqual({ code: -32000, message: `couldn't get block at height ${tip}: not found` })
    expect(await node.current.failure("P", "platform.getBlock", { blockID: RANDOM_ID })).toEqual({ code: -32000, message: `couldn't get block with id ${RANDOM_ID}: not found` })
    const xBlock = net.block("X", 3n)!.id
    expect((await node.current.failure("P", "platform.getBlock", { blockID: xBlock })).message).toBe(`couldn't get block with id ${xBlock}: not found`)
  })
})
