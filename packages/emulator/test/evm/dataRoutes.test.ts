import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEmulator, type RunningEmulator } from "../../src/index.ts"
import type { EvmChain, EvmTransaction } from "../../src/world/evm/index.ts"
import { validateResponse } from "../../../../test/support/openapi.ts"
import { allPages, getJson, getValid } from "./http.ts"

const T = {
  transfers: "/v1/chains/{chainId}/tokens/{address}/transfers",
  balance: "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
  blocks: "/v1/chains/{chainId}/blocks",
  tx: "/v1/chains/{chainId}/transactions/{txHash}",
  nft: "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}",
  contract: "/v1/chains/{chainId}/addresses/{address}",
  chain: "/v1/chains/{chainId}"
}

let emu: RunningEmulator
let c: EvmChain

const findTx = (pred: (t: EvmTransaction) => boolean): EvmTransaction => {
  for (let h = c.latestHeight(); h > 0n; h--) for (const t of c.transactionsOf(h)) if (pred(t)) return t
  throw new Error("no such transaction")
}

beforeAll(async () => {
  emu = await startEmulator({ seed: 4, rateLimit: { keylessPerSecond: 0, metricsPerSecond: 0 } })
  c = emu.world.evm.chain("43114")!
})
afterAll(() => emu.close())

describe("EVM chain-data routes over HTTP", () => {
  it("given route 10, when every page is followed, then each block comes exactly once, newest first, and pages match the document", async () => {
    const l1 = emu.world.evm.chains()[3]!
    const pages = await allPages(emu, "data", T.blocks, `/v1/chains/${l1.info.evmChainId}/blocks?pageSize=100`, "blocks")
    const numbers = pages.flat().map((b) => BigInt(b.blockNumber))
    expect(numbers.length).toBe(Number(l1.latestHeight()) + 1)
    expect(numbers[0]).toBe(l1.latestHeight())
    expect(numbers.at(-1)).toBe(0n)
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBe(numbers[i - 1]! - 1n)
    expect(pages.slice(0, -1).every((p) => p.length === 100)).toBe(true)
    const first = pages[0]![0]
    expect(first.cumulativeTransactions).toBe(l1.block(l1.latestHeight())!.cumulativeTransactions.toString())
  })

  it("given route 10 by blockchain id with default size, when read, then 10 blocks come with a token", async () => {
    const a = await getValid(emu, "data", T.blocks, `/v1/chains/${c.info.blockchainId}/blocks`)
    expect(a.body.blocks).toHaveLength(10)
    expect(typeof a.body.nextPageToken).toBe("string")
    expect((await getJson(`${emu.baseUrl}/v1/chains/43114/blocks?pageSize=101`)).status).toBe(400)
  })

  it("given route 6 with startBlock inclusive and endBlock exclusive, when paged, then exactly the transfers of blocks [start, end) come, newest first", async () => {
    for (const token of c.tokens().filter((_, i) => i === 0 || i === 4 || i === 7)) {
      const start = 400n
      const end = 900n
      const expected = []
      for (let h = end - 1n; h >= start; h--) {
        const txs = c.transactionsOf(h)
        for (const tx of [...txs].reverse()) for (const x of [...tx.tokenTransfers].reverse()) if (x.token.address === token.address) expected.push(`${x.txHash}:${x.logIndex}`)
      }
      const pages = await allPages(emu, "data", T.transfers, `/v1/chains/43114/tokens/${token.address}/transfers?startBlock=${start}&endBlock=${end}&pageSize=25`, "transfers")
      const got = pages.flat()
      expect(got.map((x) => `${x.txHash}:${x.logIndex}`)).toEqual(expected)
      expect(got.every((x) => BigInt(x.blockNumber) >= start && BigInt(x.blockNumber) < end)).toBe(true)
      expect(expected.length).toBeGreaterThan(10)
    }
  })

  it("given route 6 with only one bound, when read, then the range runs to the latest block or from genesis", async () => {
    const token = c.tokens()[0]!
    const onlyEnd = (await allPages(emu, "data", T.transfers, `/v1/chains/43114/tokens/${token.address}/transfers?endBlock=3&pageSize=100`, "transfers")).flat()
    expect(onlyEnd.every((x) => BigInt(x.blockNumber) < 3n)).toBe(true)
    expect(onlyEnd.at(-1).from.address).toBe("0x0000000000000000000000000000000000000000")
    const latest = c.latestHeight()
    const onlyStart = (await getValid(emu, "data", T.transfers, `/v1/chains/43114/tokens/${token.address}/transfers?startBlock=${latest - 50n}&pageSize=100`)).body.transfers
    expect(onlyStart.length).toBeGreaterThan(0)
    expect(onlyStart.every((x: { blockNumber: string }) => BigInt(x.blockNumber) >= latest - 50n)).toBe(true)
    expect((await getJson(`${emu.baseUrl}/v1/chains/43114/tokens/${token.address}/transfers?startBlock=9&endBlock=3`)).status).toBe(400)
    expect((await getJson(`${emu.baseUrl}/v1/chains/43114/tokens/${token.address}/transfers?startBlock=abc`)).status).toBe(400)
  })

  it("given transactions of every kind, when route 11 answers, then bodies match the document and the seed's fields are filled", async () => {
    const kinds: Array<(t: EvmTransaction) => boolean> = [
      (t) => t.method.callType === "CONTRACT_CREATION",
      (t) => t.internalTransactions.some((f) => f.type === "CREATE2"),
      (t) => t.crosschain?.direction === "SOURCE_TRANSACTION",
      (t) => t.crosschain?.direction === "DESTINATION_TRANSACTION",
      (t) => t.tokenTransfers.some((x) => x.token.ercType === "ERC-20"),
      (t) => t.tokenTransfers.some((x) => x.token.ercType === "ERC-721"),
      (t) => t.tokenTransfers.some((x) => x.token.ercType === "ERC-1155"),
      (t) => t.method.callType === "NATIVE_TRANSFER" && t.txType === 0,
      (t) => t.txStatus === 0
    ]
    for (const pick of kinds) {
      const tx = findTx(pick)
      const body = (await getValid(emu, "data", T.tx, `/v1/chains/43114/transactions/${tx.txHash}`)).body
      expect(body.nativeTransaction.txHash).toBe(tx.txHash)
      expect(body.nativeTransaction.value).toBe(tx.value.toString())
      expect(body.nativeTransaction.gasPrice).toBe(tx.gasPrice.toString())
      if (tx.crosschain) expect(body.crosschainMessageInfo.crosschainMessageId).toMatch(/^0x[0-9a-f]{64}$/)
      expect(typeof body.networkTokenDetails.currentPrice.value).toBe("string")
    }
    const nf = await getValid(emu, "data", T.tx, `/v1/chains/43114/transactions/0x${"12".repeat(32)}`, 404)
    expect(nf.body.message).toContain("not found")
    await getValid(emu, "data", T.tx, `/v1/chains/43114/transactions/0x1234`, 400)
    await getValid(emu, "data", T.tx, `/v1/chains/777/transactions/0x${"12".repeat(32)}`, 404)
  })

  it("given route 9, when read at latest and at a height in several currencies, then balances are exact strings; bad currency is 400, a future block 404", async () => {
    const tx = findTx((t) => t.method.callType === "NATIVE_TRANSFER")
    const latest = (await getValid(emu, "data", T.balance, `/v1/chains/43114/addresses/${tx.from}/balances:getNative`)).body.nativeTokenBalance
    expect(latest.balance).toBe(c.nativeBalance(tx.from).toString())
    expect(latest.price.currencyCode).toBe("usd")
    const old = (await getValid(emu, "data", T.balance, `/v1/chains/43114/addresses/${tx.from}/balances:getNative?blockNumber=${tx.blockNumber}&currency=jpy`)).body.nativeTokenBalance
    expect(old.balance).toBe(c.nativeBalance(tx.from, tx.blockNumber).toString())
    expect(old.balanceValue.currencyCode).toBe("jpy")
    await getValid(emu, "data", T.balance, `/v1/chains/43114/addresses/${tx.from}/balances:getNative?currency=xyz`, 400)
    await getValid(emu, "data", T.balance, `/v1/chains/43114/addresses/${tx.from}/balances:getNative?blockNumber=${c.latestHeight() + 100n}`, 404)
    await getValid(emu, "data", T.balance, `/v1/chains/43114/addresses/0x12/balances:getNative`, 400)
  })

  it("given NFT collections, when route 15 asks for minted and unminted tokens, then 200 bodies match the document and unknowns are 404", async () => {
    const erc721 = c.tokens().find((t) => t.ercType === "ERC-721")!
    const erc1155 = c.tokens().find((t) => t.ercType === "ERC-1155")!
    const n721 = (await getValid(emu, "data", T.nft, `/v1/chains/43114/nfts/collections/${erc721.address}/tokens/1`)).body
    expect(n721.ownerAddress).toBe(c.nftToken(erc721.address, 1n)!.ownerAddress)
    expect(n721.metadata.indexStatus).toBe("indexed")
    await getValid(emu, "data", T.nft, `/v1/chains/43114/nfts/collections/${erc1155.address}/tokens/2`)
    await getValid(emu, "data", T.nft, `/v1/chains/43114/nfts/collections/${erc721.address}/tokens/999999`, 404)
    await getValid(emu, "data", T.nft, `/v1/chains/43114/nfts/collections/${c.tokens()[0]!.address}/tokens/1`, 404)
    await getValid(emu, "data", T.nft, `/v1/chains/43114/nfts/collections/${erc721.address}/tokens/x1`, 400)
  })

  it("given contracts of each kind, when route 16 answers, then the ERC-20/721/1155/UNKNOWN shapes match and an account is 404", async () => {
    const created = findTx((t) => t.method.callType === "CONTRACT_CREATION")
    const viaFactory = findTx((t) => t.internalTransactions.some((f) => f.type === "CREATE2"))
    const types = []
    for (const address of [c.tokens()[0]!.address, c.tokens()[4]!.address, c.tokens()[7]!.address, created.to, viaFactory.internalTransactions[1]!.to]) {
      types.push((await getValid(emu, "data", T.contract, `/v1/chains/43114/addresses/${address}`)).body.ercType)
    }
    expect(types).toEqual(["ERC-20", "ERC-721", "ERC-1155", "UNKNOWN", "UNKNOWN"])
    const factoryMade = (await getJson(`${emu.baseUrl}/v1/chains/43114/addresses/${viaFactory.internalTransactions[1]!.to}`)).body
    expect(factoryMade.deploymentDetails).toEqual({ txHash: viaFactory.txHash, deployerAddress: viaFactory.from, deployerContractAddress: viaFactory.to })
    await getValid(emu, "data", T.contract, `/v1/chains/43114/addresses/${created.from}`, 404)
  })

  it("given the seed's departures from the document, when a raw body is validated without mapping them, then exactly those fields are flagged", async () => {
    const tx = findTx((t) => t.crosschain !== undefined && t.txStatus === 1)
    const raw = (await getJson(`${emu.baseUrl}/v1/chains/43114/transactions/${tx.txHash}`)).body
    const errors = validateResponse("data", T.tx, "get", 200, raw)
    expect(errors.some((e) => e.includes("crosschainMessageInfo"))).toBe(true)
    expect(errors.some((e) => e.includes("/networkTokenDetails/currentPrice/value"))).toBe(true)
  })

  it("given each chain, when route 17 answers, then the chain information matches the document; an unknown chain is 404", async () => {
    for (const chain of emu.world.evm.chains()) {
      const body = (await getValid(emu, "data", T.chain, `/v1/chains/${chain.info.evmChainId}`)).body
      expect(body.platformChainId).toBe(chain.info.blockchainId)
      expect(body.isTestnet).toBe(chain.info.network === "fuji")
    }
    await getValid(emu, "data", T.chain, `/v1/chains/1`, 404)
  })
})
