import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEmulator, type RunningEmulator } from "../../src/index.ts"
import type { PrimaryNetwork } from "../../src/world/primary/index.ts"
import { validateResponse } from "../../../../test/support/openapi.ts"

let emu: RunningEmulator
let net: PrimaryNetwork

beforeAll(async () => {
  emu = await startEmulator({ seed: 7, rateLimit: { keylessPerSecond: 0, metricsPerSecond: 0 } })
  net = emu.world.primary.network("mainnet")
})

afterAll(async () => {
  await emu.close()
})

interface Answer {
  readonly status: number
  readonly body: any
}

const request = async (path: string, body?: unknown): Promise<Answer> => {
  const res = await fetch(emu.baseUrl + path, body === undefined ? {} : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } })
  return { status: res.status, body: await res.json() }
}

/** Walks a listing over HTTP and holds its first, a middle and its last page to the document. */
const walkValidated = async (template: string, path: string, key: string, body?: unknown): Promise<any[][]> => {
  const method = body === undefined ? "get" : "post"
  const pages: Answer[] = []
  let token: string | undefined
  do {
    const sep = path.includes("?") ? "&" : "?"
    const a = await request(path + (token ? `${sep}pageToken=${encodeURIComponent(token)}` : ""), body)
    expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(200)
    pages.push(a)
    token = a.body.nextPageToken
  } while (token !== undefined)
  expect(pages.length, "the listing should span at least three pages").toBeGreaterThanOrEqual(3)
  for (const i of [0, Math.floor(pages.length / 2), pages.length - 1]) {
    expect(validateResponse("data", template, method, 200, pages[i]?.body), `page ${i + 1}`).toEqual([])
  }
  return pages.map((p) => p.body[key])
}

const UTXOS = "/v1/networks/{network}/blockchains/{blockchainId}/utxos"
const STAKING = "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking"
/** The L1 txs route 4 lists: those behind the L1 validators active now. */
const L1_STAKING_TYPES = ["ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx", "IncreaseL1ValidatorBalanceTx"]
const nAvax = (amounts: ReadonlyArray<{ amount: string }>): bigint => amounts.reduce((sum, a) => sum + BigInt(a.amount), 0n)

describe("primary-network routes over HTTP, held to the official document", () => {
  it("given route 3 on the p-chain, when every page is fetched, then first, middle and last pages are PChainUtxo listings", async () => {
    const set = net.addressSets()[0]!
    const pages = await walkValidated(UTXOS, `/v1/networks/mainnet/blockchains/p-chain/utxos?addresses=${set.p.join(",")}&includeSpent=true&pageSize=100`, "utxos")
    const all = pages.flat()
    expect(all.some((u) => u.utxoType === "STAKE" && u.staked === true)).toBe(true)
    expect(all.some((u) => u.rewardType === "VALIDATOR")).toBe(true)
    expect(all.some((u) => u.consumingTxHash !== undefined)).toBe(true)
  })

  it("given route 2 on the x-chain, when every page is fetched, then first, middle and last pages are Utxo listings with several assets", async () => {
    const set = net.addressSets()[1]!
    const pages = await walkValidated(UTXOS, `/v1/networks/mainnet/blockchains/x-chain/utxos?pageSize=20&includeSpent=true`, "utxos", { addresses: set.x.join(",") })
    expect(new Set(pages.flat().map((u) => u.asset.symbol)).size).toBeGreaterThan(1)
  })

  it("given route 2 filtered by an X-chain asset and a minimum amount, when listed, then only that asset at or above the minimum comes back", async () => {
    const set = net.addressSets()[1]!
    const asset = net.assetList()[1]!
    const a = await request(`/v1/networks/mainnet/blockchains/x-chain/utxos?assetId=${asset.assetId}&minUtxoAmount=5&pageSize=1024`, { addresses: set.x.join(",") })
    expect(a.status).toBe(200)
    expect(validateResponse("data", UTXOS, "post", 200, a.body)).toEqual([])
    for (const u of a.body.utxos) {
      expect(u.asset.assetId).toBe(net.served.of(asset.assetId))
      expect(BigInt(u.asset.amount)).toBeGreaterThanOrEqual(5n)
    }
  })

  it("given an address without UTXOs, when listed, then the answer is an empty list with chainInfo (the document's oneOf cannot tell its two list shapes apart when empty)", async () => {
    const a = await request("/v1/networks/mainnet/blockchains/p-chain/utxos?addresses=avax1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqxpdk7q")
    expect(a).toEqual({ status: 200, body: { utxos: [], chainInfo: { chainName: "p-chain", network: "mainnet" } } })
    // both ListPChainUtxosResponse and ListUtxosResponse accept an empty list, so "exactly one" fails
    expect(validateResponse("data", UTXOS, "get", 200, a.body)).toEqual(["(body) must match exactly one schema in oneOf"])
  })

  it("given route 4, when every page is fetched, then the staking transactions validate, carry their UTXOs and amounts, and include the L1 ones", async () => {
    const pages = await walkValidated(STAKING, "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?pageSize=15", "transactions")
    const all = pages.flat()
    const tx = all.find((t) => t.txType === "AddPermissionlessValidatorTx")
    expect(tx.amountStaked[0].symbol).toBe("AVAX")
    expect(tx.emittedUtxos.some((u: any) => u.utxoType === "STAKE")).toBe(true)
    expect(new Set(all.map((t) => t.txType))).toEqual(new Set(["AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx", ...L1_STAKING_TYPES]))
  })

  it("given route 4 filtered by each L1 tx type, when listed, then exactly the world's active ones of that type come back, valid, with L1 details and the balance they lock apart from the fee", async () => {
    for (const type of L1_STAKING_TYPES) {
      const a = await request(`/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?txTypes=${type}&pageSize=100`)
      expect(a.status).toBe(200)
      expect(validateResponse("data", STAKING, "get", 200, a.body), type).toEqual([])
      expect(a.body.nextPageToken, type).toBeUndefined()
      const want = net.activeStakingEntries().filter((e) => e.txType === type).map((e) => net.served.of(e.txId))
      expect(want.length, type).toBeGreaterThan(0)
      expect(a.body.transactions.map((t: any) => t.txHash).sort()).toEqual(want.sort())
      for (const t of a.body.transactions) {
        expect(t.txType).toBe(type)
        expect(t.subnetId).toBe(t.l1ValidatorDetails[0].subnetId)
        expect(t.amountStaked).toEqual([])
        // the funding input pays the fee and the balance moved into the validators, nothing else
        expect(nAvax(t.consumedUtxos)).toBe(nAvax(t.amountBurned) + nAvax(t.amountL1ValidatorBalanceBurned))
        expect(nAvax(t.amountL1ValidatorBalanceBurned)).toBe(t.l1ValidatorDetails.reduce((sum: bigint, d: any) => sum + BigInt(d.balanceChange), 0n))
        expect(t.l1ValidatorDetails.every((d: any) => d.weight > 0 && d.remainingBalance > 0)).toBe(true)
      }
    }
  })

  it("given route 4's conversion of the EVM world's L1, when read, then it names that chain, the manager contract and each initial validator as created", async () => {
    const l1 = net.l1s.l1(0)!
    const a = await request(`/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?txTypes=ConvertSubnetToL1Tx&pageSize=100`)
    const t = a.body.transactions.find((x: any) => x.txHash === net.served.of(l1.conversionTxId))
    // the chain's id is its CreateChainTx's, served as that tx's hash on every route (route 17 included)
    const chain = emu.world.evm.chains().find((c) => c.info.network === "mainnet" && !c.info.isCChain)!
    expect(t.l1ValidatorManagerDetails).toEqual({ blockchainId: net.served.of(chain.info.blockchainId), contractAddress: l1.managerAddress })
    const initial = Array.from({ length: l1.initialValidators }, (_, v) => net.l1s.validator(l1, v)!)
    expect(t.l1ValidatorDetails).toEqual(
      initial.map((v) => ({
        validationId: v.validationId,
        validationIdHex: v.validationIdHex,
        nodeId: v.nodeId,
        subnetId: net.served.of(l1.subnetId),
        weight: Number(v.weight),
        remainingBalance: Number(v.balance),
        balanceChange: Number(v.balance),
        blsCredentials: { publicKey: v.signer.publicKey, proofOfPossession: v.signer.proofOfPossession }
      }))
    )
  })

  it("given route 4 narrowed to the address funding an L1 validator's txs, when listed, then its registration comes back and every tx consumes that address's UTXO", async () => {
    const reg = net.activeStakingEntries().find((e) => e.txType === "RegisterL1ValidatorTx")!
    const address = net.ctx.bech32Of(reg.addresses()[0]!)
    const a = await request(`/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?addresses=${address}&pageSize=100`)
    expect(a.status).toBe(200)
    expect(a.body.transactions.map((t: any) => t.txHash)).toContain(net.served.of(reg.txId))
    for (const t of a.body.transactions) expect(t.consumedUtxos.flatMap((u: any) => u.addresses)).toContain(address)
  })

  it("given route 4 narrowed to a validator's reward address and one tx type, when listed, then only that owner's txs of that type come back", async () => {
    const v = net.stakingView.currentValidations()[0]!
    const address = net.ctx.bech32Of(net.ctx.address(v.validation.node.wallet, 0))
    const type = v.validation.permissionless ? "AddPermissionlessValidatorTx" : "AddValidatorTx"
    const a = await request(`/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?addresses=${address}&txTypes=${type}&pageSize=100`)
    expect(a.status).toBe(200)
    expect(a.body.transactions.map((t: any) => t.txHash)).toContain(net.served.of(v.txId))
    for (const t of a.body.transactions) {
      expect(t.txType).toBe(type)
      expect(t.rewardAddresses).toEqual([address])
    }
  })

  it("given route 7 for a long-lived node, when every page is fetched, then completed, active and pending variants validate", async () => {
    const node = net.stakingView.nodes().find((n) => n.index % 9 === 4 && net.stakingView.validationsOf(n).length >= 3)!
    const pages = await walkValidated("/v1/networks/{network}/validators/{nodeId}", `/v1/networks/mainnet/validators/${node.nodeId}?pageSize=1`, "validators")
    expect(new Set(pages.flat().map((v) => v.validationStatus)).has("completed")).toBe(true)
    for (const status of ["active", "pending", "completed", "removed"]) {
      const a = await request(`/v1/networks/mainnet/validators/${node.nodeId}?validationStatus=${status}`)
      expect(validateResponse("data", "/v1/networks/{network}/validators/{nodeId}", "get", 200, a.body)).toEqual([])
      for (const v of a.body.validators) expect(v.validationStatus).toBe(status)
    }
  })

  it("given route 8, when every page is fetched, then the delegators validate in all their statuses", async () => {
    const pages = await walkValidated("/v1/networks/{network}/delegators", "/v1/networks/mainnet/delegators?pageSize=100", "delegators")
    expect(new Set(pages.flat().map((d) => d.delegationStatus))).toEqual(new Set(["completed", "active", "pending"]))
  })

  it("given route 12 on each chain alias and id, when every page is fetched, then the blocks validate, newest first", async () => {
    await walkValidated("/v1/networks/{network}/blockchains/{blockchainId}/blocks", "/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=100", "blocks")
    await walkValidated("/v1/networks/{network}/blockchains/{blockchainId}/blocks", `/v1/networks/mainnet/blockchains/${net.blockchainIds.X}/blocks?pageSize=60`, "blocks")
    const end = emu.clock.now()
    const c = await walkValidated("/v1/networks/{network}/blockchains/{blockchainId}/blocks", `/v1/networks/testnet/blockchains/c-chain/blocks?pageSize=10&startTimestamp=${end - 86_400}&endTimestamp=${end}`, "blocks")
    const first = c[0]?.[0]
    expect(first.blockHash).toBe(emu.world.evm.cChain("fuji").block(BigInt(first.blockNumber))?.blockHash)
  })

  it("given route 13, when every page is fetched with inactive validators, then the L1 validators validate and the default hides inactive ones", async () => {
    const pages = await walkValidated("/v1/networks/{network}/l1Validators", "/v1/networks/mainnet/l1Validators?pageSize=10&includeInactiveL1Validators=true", "validators")
    const all = pages.flat()
    expect(all.some((v) => v.remainingBalance === 0)).toBe(true)
    const active = await request("/v1/networks/mainnet/l1Validators?pageSize=100")
    expect(active.body.validators.every((v: any) => v.remainingBalance > 0 && v.weight > 0)).toBe(true)
    expect(active.body.blockHeight).toBe(net.height("P").toString())
    const one = all[0]
    const byId = await request(`/v1/networks/mainnet/l1Validators?l1ValidationId=${one.validationIdHex}&includeInactiveL1Validators=true&subnetId=${one.subnetId}&nodeId=${one.nodeId}`)
    expect(byId.body.validators.map((v: any) => v.validationId)).toEqual([one.validationId])
  })

  it("given route 1 for an L1 conversion and a registration, when asked, then a signed warp message of the P-chain validates", async () => {
    const conversion = net.l1s.l1(0)!.conversionTxId
    const a = await request(`/v1/signatureAggregator/mainnet/aggregateSignatures/${conversion}`)
    expect(a.status).toBe(200)
    expect(validateResponse("data", "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}", "get", a.status, a.body)).toEqual([])
    // codec 0, network id 1, source chain = the P-chain (all zeros)
    expect(a.body.signedMessage.slice(0, 4 + 8 + 64)).toBe("0000" + "00000001" + "00".repeat(32))
  })

  interface ErrorCase {
    readonly what: string
    readonly reason: RegExp
    readonly status: number
    readonly template: string
    readonly path: string
    readonly body?: unknown
  }

  const errorCases: ReadonlyArray<ErrorCase> = [
    { what: "an unknown network", reason: /network must be one of/, status: 400, template: UTXOS, path: "/v1/networks/devnet/blockchains/p-chain/utxos?addresses=avax1x" },
    { what: "an unknown chain", reason: /blockchainId must be one of/, status: 400, template: "/v1/networks/{network}/blockchains/{blockchainId}/blocks", path: "/v1/networks/mainnet/blockchains/q-chain/blocks" },
    { what: "a fuji chain id on mainnet", reason: /blockchainId must be one of/, status: 400, template: "/v1/networks/{network}/blockchains/{blockchainId}/blocks", path: "/v1/networks/mainnet/blockchains/2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm/blocks" },
    { what: "the x-chain for staking", reason: /blockchainId must be one of p-chain/, status: 400, template: "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking", path: "/v1/networks/mainnet/blockchains/x-chain/transactions:listStaking" },
    { what: "an unknown tx type", reason: /unknown: MintTx/, status: 400, template: "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking", path: "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?txTypes=MintTx" },
    { what: "a page size of 0", reason: /pageSize/, status: 400, template: "/v1/networks/{network}/delegators", path: "/v1/networks/mainnet/delegators?pageSize=0" },
    { what: "a page size of 101", reason: /pageSize/, status: 400, template: "/v1/networks/{network}/delegators", path: "/v1/networks/mainnet/delegators?pageSize=101" },
    { what: "a forged page token", reason: /page token/, status: 400, template: "/v1/networks/{network}/delegators", path: "/v1/networks/mainnet/delegators?pageToken=bm90LWEtdG9rZW4" },
    { what: "a bad sort order", reason: /sortOrder must be one of asc, desc/, status: 400, template: "/v1/networks/{network}/delegators", path: "/v1/networks/mainnet/delegators?sortOrder=up" },
    { what: "a bad delegation status", reason: /delegationStatus must be one of/, status: 400, template: "/v1/networks/{network}/delegators", path: "/v1/networks/mainnet/delegators?delegationStatus=removed" },
    { what: "a reversed time window", reason: /must not be after endTimestamp/, status: 400, template: "/v1/networks/{network}/blockchains/{blockchainId}/blocks", path: "/v1/networks/mainnet/blockchains/p-chain/blocks?startTimestamp=20&endTimestamp=10" },
    { what: "a negative timestamp", reason: /startTimestamp must be an integer >= 0/, status: 400, template: "/v1/networks/{network}/blockchains/{blockchainId}/blocks", path: "/v1/networks/mainnet/blockchains/p-chain/blocks?startTimestamp=-1" },
    { what: "a fuji address on mainnet", reason: /not a mainnet address/, status: 400, template: UTXOS, path: "/v1/networks/mainnet/blockchains/p-chain/utxos?addresses=fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq2nffjl" },
    { what: "no addresses", reason: /addresses is required/, status: 400, template: UTXOS, path: "/v1/networks/mainnet/blockchains/p-chain/utxos" },
    { what: "an assetId on the p-chain", reason: /X-chain only/, status: 400, template: UTXOS, path: `/v1/networks/mainnet/blockchains/p-chain/utxos?addresses=avax1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqxpdk7q&assetId=FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z` },
    { what: "a POST without addresses", reason: /addresses is required/, status: 400, template: UTXOS, path: "/v1/networks/mainnet/blockchains/p-chain/utxos", body: {} },
    { what: "a malformed node id", reason: /NodeID-/, status: 400, template: "/v1/networks/{network}/validators/{nodeId}", path: "/v1/networks/mainnet/validators/node-1" },
    { what: "an unknown node id", reason: /no primary-network validator/, status: 404, template: "/v1/networks/{network}/validators/{nodeId}", path: "/v1/networks/mainnet/validators/NodeID-A6onFGyJjA37EZ7kYHANMR1PFRT8NmXrF" },
    { what: "an unknown subnet", reason: /no L1 subnet/, status: 404, template: "/v1/networks/{network}/l1Validators", path: "/v1/networks/mainnet/l1Validators?subnetId=2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM" },
    { what: "an unknown tx hash", reason: /no P-chain transaction/, status: 404, template: "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}", path: "/v1/signatureAggregator/mainnet/aggregateSignatures/2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM" },
    { what: "a malformed tx hash", reason: /cb58 transaction hash/, status: 400, template: "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}", path: "/v1/signatureAggregator/mainnet/aggregateSignatures/0xabc" },
  ]

  it.each(errorCases)("given $what, when requested, then the answer is the documented error status $status with an explaining message", async ({ status, template, path, body, reason }) => {
    const a = await request(path, body)
    expect(a.status, JSON.stringify(a.body)).toBe(status)
    expect(a.body.message).toMatch(reason)
    expect(validateResponse("data", template, body === undefined ? "get" : "post", status, a.body)).toEqual([])
  })

  it("given route 1 on a staking tx, when asked, then it is refused with 400 as not L1-related", async () => {
    const tx = net.stakingView.currentValidations()[0]!.txId
    const a = await request(`/v1/signatureAggregator/mainnet/aggregateSignatures/${tx}`)
    expect([a.status, a.body.error]).toEqual([400, "Bad Request"])
  })
})
