import { beforeAll, describe, expect, it } from "vitest"
import type { TxRecord } from "../../src/world/primary/types.ts"
import { DECIMAL, resultKeys, useNode, type Json } from "./support.ts"

const RANDOM_ID = "2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFL"

describe("avm.* methods", () => {
  const node = useNode()
  /** The first revealed X-chain tx of each type. */
  const firstOfType = new Map<string, TxRecord>()

  beforeAll(() => {
    const { net } = node.current
    for (let h = 0n; h <= net.height("X"); h++) for (const tx of net.blockTxs("X", h)) if (!firstOfType.has(tx.type)) firstOfType.set(tx.type, tx)
  })
  const txOf = (type: string): TxRecord => {
    const tx = firstOfType.get(type)
    if (!tx) throw new Error(`no ${type} on the X-chain`)
    return tx
  }

  it("given no params, when avm.getHeight is called, then the last accepted height comes back as a decimal string and grows with the clock", async () => {
    const { net, emu } = node.current
    const before = await node.current.result("X", "avm.getHeight")
    expect(Object.keys(before)).toEqual(resultKeys("X", "avm.getHeight"))
    expect(before.height).toBe(net.height("X").toString())
    expect(before.height).toMatch(DECIMAL)
    emu.advance(60)
    expect((await node.current.result("X", "avm.getHeight", {})).height).toBe((BigInt(before.height as string) + 3n).toString())
  })

  it("given no params, when avm.getTxFee is called, then both fees come back as decimal strings of nAVAX", async () => {
    const fees = await node.current.result("X", "avm.getTxFee")
    expect(fees).toEqual({ txFee: "1000000", createAssetTxFee: "10000000" })
    expect(Object.keys(fees)).toEqual(resultKeys("X", "avm.getTxFee"))
  })

  it("given AVAX by alias or id and a minted asset, when avm.getAssetDescription is called, then name, symbol and a string denomination come back", async () => {
    const { net } = node.current
    const avax = { assetID: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z", name: "Avalanche", symbol: "AVAX", denomination: "9" }
    expect(await node.current.result("X", "avm.getAssetDescription", { assetID: "AVAX" })).toEqual(avax)
    expect(await node.current.result("X", "avm.getAssetDescription", { assetID: avax.assetID })).toEqual(avax)
    const minted = net.assetList()[1]!
    const got = await node.current.result("X", "avm.getAssetDescription", { assetID: minted.assetId })
    // a minted asset's id is its CreateAssetTx's id, which the node serves as the hash of its bytes
    expect(got).toEqual({ assetID: net.served.of(minted.assetId), name: minted.name, symbol: minted.symbol, denomination: String(minted.denomination) })
    expect(Object.keys(got)).toEqual(resultKeys("X", "avm.getAssetDescription"))
  })

  it("given unknown or wrong ids, when avm.getAssetDescription is called, then the node's -32000 errors come back", async () => {
    const fail = (assetID: string) => node.current.failure("X", "avm.getAssetDescription", { assetID })
    expect(await fail(RANDOM_ID)).toEqual({ code: -32000, message: "not found" })
    expect(await fail(txOf("BaseTx").id)).toEqual({ code: -32000, message: "transaction doesn't create an asset" })
    expect(await fail("GOLD")).toEqual({ code: -32000, message: "asset 'GOLD' not found" })
  })

  it("given an address, when avm.getBalance is called for AVAX, then the balance sums its own unlocked 1-of-1 AVAX outputs and lists their ids", async () => {
    const { net } = node.current
    const set = net.addressSets()[0]!
    const now = BigInt(net.now())
    const mine = net
      .utxos("X", [set.addresses[0]!], { view: "node" })
      .filter((u) => u.assetId === net.avaxAssetId && u.owners.addresses.length === 1 && u.owners.locktime <= now)
    const got = await node.current.result("X", "avm.getBalance", { address: set.x[0], assetID: "AVAX" })
    expect(got).toEqual({
      balance: mine.reduce((s, u) => s + u.amount, 0n).toString(),
      utxoIDs: mine.map((u) => ({ txID: net.served.of(u.txId), outputIndex: u.outputIndex }))
    })
    const partial = await node.current.result("X", "avm.getBalance", { address: set.x[0], assetID: net.avaxAssetId, includePartial: true })
    expect(BigInt(partial.balance as string)).toBeGreaterThanOrEqual(BigInt(got.balance as string))
  })

  it("given an address, when avm.getAllBalances is called, then each asset's balance equals avm.getBalance for it, AVAX first under its alias", async () => {
    const { net } = node.current
    const address = net.addressSets()[1]!.x[0]!
    const { balances } = (await node.current.result("X", "avm.getAllBalances", { address })) as { balances: Array<{ asset: string; balance: string }> }
    expect(balances.length).toBeGreaterThan(0)
    expect(balances[0]!.asset).toBe("AVAX")
    for (const b of balances) {
      expect(Object.keys(b)).toEqual(["asset", "balance"])
      expect(b.balance).toMatch(DECIMAL)
      expect((await node.current.result("X", "avm.getBalance", { address, assetID: b.asset })).balance).toBe(b.balance)
    }
  })

  it("given a bad address, when the balance methods are called, then the node's parse error comes back", async () => {
    const got = await node.current.failure("X", "avm.getAllBalances", { address: "nowhere" })
    expect(got).toEqual({ code: -32000, message: `problem parsing address 'nowhere': couldn't parse address "nowhere": no separator found in address` })
    expect((await node.current.failure("X", "avm.getBalance", { address: "X-avax1xyz", assetID: "AVAX" })).code).toBe(-32000)
  })

  it("given a height, when avm.getBlockByHeight is called with json, then the StandardBlock's fields come back as Go's json.Marshal writes them: numbers for height and time", async () => {
    const { net } = node.current
    const got = await node.current.result("X", "avm.getBlockByHeight", { height: "5", encoding: "json" })
    expect(Object.keys(got)).toEqual(resultKeys("X", "avm.getBlockByHeight"))
    expect(got.encoding).toBe("json")
    const block = got.block as Json
    const b5 = net.block("X", 5n)!
    // vms/avm/block/standard_block.go: parentID, height, time, merkleRoot, txs, id
    expect(Object.keys(block)).toEqual(["parentID", "height", "time", "merkleRoot", "txs", "id"])
    expect(block).toMatchObject({ parentID: net.served.of(net.block("X", 4n)!.id), height: 5, time: b5.timestamp, id: net.served.of(b5.id) })
    expect((block.txs as Json[]).map((t) => t.id)).toEqual(b5.txIds.map(net.served.of))
    for (const tx of block.txs as Json[]) expect(Object.keys(tx)).toEqual(["unsignedTx", "credentials", "id"])
    const byNumber = await node.current.result("X", "avm.getBlockByHeight", { height: 5, encoding: "json" })
    expect(byNumber).toEqual(got)
  })

  it("given a block id, when avm.getBlock is called, then it is the block at that id, hex by default", async () => {
    const { net } = node.current
    const b = net.block("X", 7n)!
    const json = await node.current.result("X", "avm.getBlock", { blockID: b.id, encoding: "json" })
    expect((json.block as Json).height).toBe(7)
    const hex = await node.current.result("X", "avm.getBlock", { blockID: b.id })
    expect(hex.encoding).toBe("hex")
    expect(hex.block).toMatch(/^0x[0-9a-f]+$/)
    expect(hex).toEqual(await node.current.result("X", "avm.getBlockByHeight", { height: "7" }))
  })

  it("given unknown or malformed block ids and heights, when the block methods are called, then the node's errors come back", async () => {
    const { net } = node.current
    const tip = net.height("X") + 1n
    expect(await node.current.failure("X", "avm.getBlockByHeight", { height: tip.toString() })).toEqual({ code: -32000, message: `couldn't get block at height ${tip}: not found` })
    expect(await node.current.failure("X", "avm.getBlock", { blockID: RANDOM_ID })).toEqual({ code: -32000, message: `couldn't get block with id ${RANDOM_ID}: not found` })
    expect((await node.current.failure("X", "avm.getBlock", { blockID: "zzz" })).code).toBe(-32600)
    expect((await node.current.failure("X", "avm.getBlockByHeight", { height: "-1" })).code).toBe(-32600)
    expect((await node.current.failure("X", "avm.getBlock", { blockID: net.block("X", 3n)!.id, encoding: "cbor" })).code).toBe(-32600)
  })

  it("given txs of every X-chain type, when avm.getTx is called with json, then unsignedTx carries the seed's fields with amounts as JSON numbers (Go's uint64)", async () => {
    const { net } = node.current
    const json = async (tx: TxRecord): Promise<Json> => {
      const got = await node.current.result("X", "avm.getTx", { txID: tx.id, encoding: "json" })
      expect(Object.keys(got)).toEqual(resultKeys("X", "avm.getTx"))
      expect((got.tx as Json).id).toBe(node.current.net.served.of(tx.id))
      return (got.tx as Json).unsignedTx as Json
    }
    const base = await json(txOf("BaseTx"))
    expect(base).toMatchObject({ networkID: 1, blockchainID: net.blockchainIds.X, memo: expect.stringMatching(/^0x/) })
    const out = (base.outputs as Json[])[0]!
    expect(out).toMatchObject({ assetID: expect.any(String), fxID: "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ" })
    expect(Number.isInteger((out.output as Json).amount)).toBe(true)
    expect(Number.isInteger((out.output as Json).locktime)).toBe(true)
    expect((out.output as Json).addresses).toEqual(expect.arrayContaining([expect.stringMatching(/^X-avax1/)]))
    const input = (base.inputs as Json[])[0]!
    expect(Object.keys(input)).toEqual(["txID", "outputIndex", "assetID", "fxID", "input"])
    expect(Number.isInteger((input.input as Json).amount)).toBe(true)
    expect(await json(txOf("ExportTx"))).toMatchObject({ destinationChain: net.blockchainIds.P, exportedOutputs: expect.any(Array) })
    expect(await json(txOf("ImportTx"))).toMatchObject({ sourceChain: net.blockchainIds.P, importedInputs: expect.any(Array) })
    const created = txOf("CreateAssetTx")
    expect(await json(created)).toMatchObject({ name: created.asset?.name, symbol: created.asset?.symbol, initialStates: expect.any(Array) })
  })

  it("given unknown, missing or P-chain tx ids, when avm.getTx and avm.getTxStatus are called, then not found, nil id and Unknown come back", async () => {
    const { net } = node.current
    const pTx = net.blockTxs("P", net.height("P") - 2n).concat(net.blockTxs("P", net.height("P") - 1n), net.blockTxs("P", net.height("P")))[0]!
    expect(await node.current.failure("X", "avm.getTx", { txID: RANDOM_ID })).toEqual({ code: -32000, message: "not found" })
    expect(await node.current.failure("X", "avm.getTx", { txID: pTx.id })).toEqual({ code: -32000, message: "not found" })
    expect(await node.current.failure("X", "avm.getTx", {})).toEqual({ code: -32000, message: "nil transaction ID" })
    expect(await node.current.result("X", "avm.getTxStatus", { txID: txOf("BaseTx").id })).toEqual({ status: "Accepted" })
    expect(await node.current.result("X", "avm.getTxStatus", { txID: RANDOM_ID })).toEqual({ status: "Unknown" })
    expect(await node.current.failure("X", "avm.getTxStatus", {})).toEqual({ code: -32000, message: "nil transaction ID" })
  })

  it("given an avm method on the P endpoint, when called, then the method does not exist there", async () => {
    expect((await node.current.failure("P", "avm.getHeight")).code).toBe(-32601)
  })
})
