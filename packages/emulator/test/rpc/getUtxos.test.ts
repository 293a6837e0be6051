import { describe, expect, it } from "vitest"
import { utils } from "@avalabs/avalanchejs"
import { decodeUtxoHex } from "../../src/world/primary/utxoCodec.ts"
import { DECIMAL, resultKeys, startNode, useNode, type Json, type Node } from "./support.ts"

interface Page {
  readonly numFetched: string
  readonly utxos: string[]
  readonly endIndex: { readonly address: string; readonly utxo: string }
  readonly encoding: string
  readonly sourceChain?: string
}

const getUtxos = async (node: Node, params: Json, chain = "X"): Promise<Page> => (await node.result(chain, "avm.getUTXOs", params)) as unknown as Page

/** Pages from the beginning, each started at the previous endIndex, until a short page. */
const walk = async (node: Node, params: Json, limit: number): Promise<Page[]> => {
  const pages: Page[] = []
  let startIndex: Page["endIndex"] | undefined
  for (let guard = 0; guard < 500; guard++) {
    const page = await getUtxos(node, { ...params, limit, ...(startIndex ? { startIndex } : {}) })
    pages.push(page)
    if (Number(page.numFetched) < limit) return pages
    startIndex = page.endIndex
  }
  throw new Error("pagination did not end")
}

/** Node hex UTXOs read back by avalanchejs (the emulator's codec), owners as X-chain addresses. The product's decoder is held to the same UTXOs in test/decode/emulatorUtxos.test.ts. */
const decodeAll = (hexes: ReadonlyArray<string>) =>
  hexes.map((h) => {
    const u = decodeUtxoHex("X", h)
    return { ...u, addresses: u.addresses.map((a) => `X-${utils.formatBech32("avax", a)}`) }
  })

/**
 * Moves the clock to a moment when one wallet has AVAX exported from the P-chain that will be
 * imported later; returns the wallet, the export and when the import happens.
 */
const toPendingExport = (node: Node): { readonly wallet: number; readonly exportTxId: string; readonly importAt: number } => {
  const { net } = node
  const now = net.now()
  for (let w = 0; w < net.wallets.count; w++) {
    for (let e = 0; e < 400; e++) {
      const ev = net.wallets.event(w, "P", e)
      const importAt = ev.type === "ExportTx" ? net.wallets.importTime(ev) : undefined
      // some exports are never imported; this test wants one that leaves shared memory
      if (ev.time <= now || importAt === undefined) continue
      node.emu.advance(ev.time - now)
      return { wallet: w, exportTxId: net.wallets.txId(ev), importAt }
    }
  }
  throw new Error("no future export from the P-chain")
}

describe("avm.getUTXOs", () => {
  const node = useNode()

  it("given a wallet's addresses, when asked without limit, then one page holds the node's whole UTXO set with the documented keys", async () => {
    const { net } = node.current
    const set = net.addressSets()[0]!
    const page = await getUtxos(node.current, { addresses: set.x })
    const expected = net.utxos("X", set.addresses, { view: "node" })
    expect(Object.keys(page).sort()).toEqual([...resultKeys("X", "avm.getUTXOs")].sort())
    expect(page.numFetched).toMatch(DECIMAL)
    expect(Number(page.numFetched)).toBe(expected.length)
    expect(page.encoding).toBe("hex")
    expect(new Set(decodeAll(page.utxos).map((u) => u.utxoId))).toEqual(new Set(expected.map((u) => net.utxoId(u))))
  })

  it("given every wallet's addresses, when walked 7 at a time from endIndex to startIndex, then each UTXO comes exactly once", async () => {
    const { net } = node.current
    const addresses = net.addressSets().flatMap((s) => s.x)
    const pages = await walk(node.current, { addresses }, 7)
    const decoded = pages.flatMap((p) => decodeAll(p.utxos))
    // rule 1: each UTXO references at least one requested address
    for (const u of decoded) expect(u.addresses.some((a) => addresses.includes(a))).toBe(true)
    const ids = decoded.map((u) => u.utxoId)
    const all = net.utxos("X", net.addressSets().flatMap((s) => s.addresses), { view: "node" })
    expect(all.some((u) => u.owners.addresses.length > 1)).toBe(true)
    expect(ids.length).toBe(all.length)
    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(ids)).toEqual(new Set(all.map((u) => net.utxoId(u))))
    for (const p of pages.slice(0, -1)) expect(p.numFetched).toBe("7")
  })

  it("given the first page's endIndex, when passed as startIndex, then the next page continues right after it", async () => {
    const addresses = node.current.net.addressSets()[1]!.x
    const whole = await getUtxos(node.current, { addresses })
    const first = await getUtxos(node.current, { addresses, limit: 4 })
    const second = await getUtxos(node.current, { addresses, limit: 4, startIndex: first.endIndex })
    expect([...first.utxos, ...second.utxos]).toEqual(whole.utxos.slice(0, 8))
    expect(decodeAll(first.utxos)[3]!.utxoId).toBe(first.endIndex.utxo)
    expect(first.endIndex.address.startsWith("X-avax1")).toBe(true)
    expect(addresses).toContain(first.endIndex.address)
  })

  it("given the last key as startIndex, when asked again, then no UTXO is fetched and endIndex stays where it was", async () => {
    const addresses = node.current.net.addressSets()[2]!.x
    const whole = await getUtxos(node.current, { addresses })
    const after = await getUtxos(node.current, { addresses, startIndex: whole.endIndex })
    expect(after).toEqual({ numFetched: "0", utxos: [], endIndex: whole.endIndex, encoding: "hex" })
  })

  it("given limits 0 and 5000, when asked, then both mean 1024: the same full page as no limit", async () => {
    const addresses = node.current.net.addressSets().flatMap((s) => s.x)
    const none = await getUtxos(node.current, { addresses })
    expect(await getUtxos(node.current, { addresses, limit: 0 })).toEqual(none)
    expect(await getUtxos(node.current, { addresses, limit: 5000 })).toEqual(none)
    expect(await getUtxos(node.current, { addresses, limit: "3" })).toMatchObject({ numFetched: "3" })
  })

  it("given the X-chain's blockchain id instead of the alias, when asked, then the answer is the same", async () => {
    const { net } = node.current
    const addresses = net.addressSets()[0]!.x
    expect(await getUtxos(node.current, { addresses }, net.blockchainIds.X)).toEqual(await getUtxos(node.current, { addresses }))
  })

  it("given bad arguments, when asked, then the node's errors come back", async () => {
    const n = node.current
    const { net } = n
    const mine = net.addressSets()[0]!.x[0]!
    const fail = (params: Json) => n.failure("X", "avm.getUTXOs", params)
    expect(await fail({})).toEqual({ code: -32000, message: "no addresses provided" })
    expect(await fail({ addresses: [] })).toEqual({ code: -32000, message: "no addresses provided" })
    expect(await fail({ addresses: ["X-avax1notanaddress"] })).toMatchObject({ code: -32000, message: expect.stringMatching(/^couldn't parse address "X-avax1notanaddress": /) })
    expect(await fail({ addresses: ["avax1qqqq"] })).toMatchObject({ code: -32000, message: expect.stringContaining("no separator found in address") })
    expect(await fail({ addresses: [mine.replace(/^X-/, "P-")] })).toMatchObject({ code: -32000, message: expect.stringContaining(`mismatched chainIDs: expected "${net.blockchainIds.X}"`) })
    const fuji = net.ctx.chainAddressOf("X", net.addressSets()[0]!.addresses[0]!).replace("avax1", "fuji1")
    expect((await fail({ addresses: [fuji] })).code).toBe(-32000)
    expect(await fail({ addresses: Array.from({ length: 1025 }, () => mine) })).toEqual({ code: -32000, message: "number of addresses given, 1025, exceeds maximum, 1024" })
    expect(await fail({ addresses: [mine], encoding: "json" })).toMatchObject({ code: -32000, message: expect.stringContaining("only hex") })
    expect((await fail({ addresses: [mine], encoding: "base64" })).code).toBe(-32600)
    expect((await fail({ addresses: mine })).code).toBe(-32600)
    expect((await fail({ addresses: [mine], limit: "many" })).code).toBe(-32600)
    expect(await fail({ addresses: [mine], startIndex: { address: mine, utxo: "nope" } })).toMatchObject({ code: -32000, message: expect.stringContaining("couldn't parse start index utxo") })
    expect(await fail({ addresses: [mine], sourceChain: "Q" })).toMatchObject({ code: -32000, message: expect.stringContaining('problem parsing source chainID "Q"') })
  })

  it("given an address as a cb58 short id, when asked, then it reads as the same address", async () => {
    const { net } = node.current
    const set = net.addressSets()[3]!
    const { cb58 } = await import("../../src/world/primary/ids.ts")
    const byShortId = await getUtxos(node.current, { addresses: set.addresses.map((a) => cb58(a)) })
    expect(byShortId).toEqual(await getUtxos(node.current, { addresses: set.x }))
  })
})

describe("avm.getUTXOs sourceChain", () => {
  it("given AVAX exported from the P-chain and not yet imported, when asked with sourceChain P, then exactly those atomic UTXOs come back, echoing sourceChain", async () => {
    const node = await startNode()
    try {
      const { wallet, exportTxId, importAt } = toPendingExport(node)
      const { net } = node
      const set = net.addressSets()[wallet]!
      const atomic = await getUtxos(node, { addresses: set.x, sourceChain: "P" })
      expect(Number(atomic.numFetched)).toBeGreaterThan(0)
      expect(atomic.sourceChain).toBe("P")
      const decoded = decodeAll(atomic.utxos)
      for (const u of decoded) {
        const tx = net.tx(u.txId, "P")
        expect(tx?.type).toBe("ExportTx")
        expect(tx?.exported?.destinationChain).toBe("X")
        expect(u.assetId).toBe(net.avaxAssetId)
      }
      const local = decodeAll((await getUtxos(node, { addresses: set.x })).utxos).map((u) => u.utxoId)
      for (const u of decoded) expect(local).not.toContain(u.utxoId)
      const byId = await getUtxos(node, { addresses: set.x, sourceChain: net.blockchainIds.P })
      expect(byId.utxos).toEqual(atomic.utxos)
      expect(await getUtxos(node, { addresses: set.x, sourceChain: "C" })).toMatchObject({ numFetched: "0", utxos: [], sourceChain: "C" })
      // once imported, the export's atomic UTXOs are gone from shared memory
      const exported = decoded.filter((u) => u.txId === net.served.of(exportTxId))
      expect(exported.length).toBeGreaterThan(0)
      node.emu.advance(importAt + 60 - net.now())
      const later = decodeAll((await getUtxos(node, { addresses: set.x, sourceChain: "P" })).utxos).map((u) => u.utxoId)
      for (const u of exported) expect(later).not.toContain(u.utxoId)
    } finally {
      await node.emu.close()
    }
  })
})

describe("avm.getUTXOs limit cap", () => {
  it("given an address set with more than 1024 UTXOs, when asked without limit or above it, then 1024 come back and the rest follow endIndex", async () => {
    const node = await startNode({ scale: 4 })
    try {
      const { net } = node
      const addresses = net.addressSets().flatMap((s) => s.x)
      const total = net.utxos("X", net.addressSets().flatMap((s) => s.addresses), { view: "node" }).length
      expect(total).toBeGreaterThan(1024)
      const first = await getUtxos(node, { addresses })
      expect(first.numFetched).toBe("1024")
      expect(await getUtxos(node, { addresses, limit: 100_000 })).toEqual(first)
      const rest = await getUtxos(node, { addresses, startIndex: first.endIndex })
      expect(Number(rest.numFetched)).toBe(total - 1024)
    } finally {
      await node.emu.close()
    }
  })
})

describe("avm.getUTXOs with utxoChurn", () => {
  /** The page sequence a fixed list of calls sees on a fresh churning node. */
  const session = async (): Promise<Page[]> => {
    const node = await startNode({ utxoChurn: true })
    try {
      const addresses = node.net.addressSets()[0]!.x
      const pages: Page[] = []
      let startIndex: Page["endIndex"] | undefined
      for (let i = 0; i < 6; i++) {
        const page = await getUtxos(node, { addresses, limit: 5, ...(startIndex ? { startIndex } : {}) })
        pages.push(page)
        startIndex = page.endIndex
      }
      pages.push(await getUtxos(node, { addresses }), await getUtxos(node, { addresses }))
      return pages
    } finally {
      await node.emu.close()
    }
  }

  it("given churn on, when paging, then each page starts with the previous page's last UTXO and the set differs between two identical calls", async () => {
    const pages = await session()
    for (let i = 1; i < 6; i++) {
      const prev = pages[i - 1]!
      expect(pages[i]!.utxos[0]).toBe(prev.utxos[prev.utxos.length - 1])
    }
    const [a, b] = [pages[6]!, pages[7]!]
    expect(Math.abs(Number(a.numFetched) - Number(b.numFetched))).toBe(1)
  })

  it("given churn on, when the same calls are replayed on a fresh node, then the same pages come back", async () => {
    expect(await session()).toEqual(await session())
  })
})
