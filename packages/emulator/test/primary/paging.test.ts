import { describe, expect, it } from "vitest"
import { call, routeOf, makeWorld, walkPages } from "./support.ts"

// built at collection time: the listings below are named from it
const world = makeWorld()
const net = world.primary.network("mainnet")

type Key = ReadonlyArray<number | string>
const cmp = (a: Key, b: Key): number => {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number | string
    const y = b[i] as number | string
    if (x !== y) return typeof x === "number" && typeof y === "number" ? x - y : String(x) < String(y) ? -1 : 1
  }
  return 0
}

interface Listing {
  readonly route: number
  readonly method?: "GET" | "POST"
  readonly params: Record<string, string>
  readonly query?: Record<string, string>
  readonly body?: unknown
  readonly key: string
  readonly id: (item: any) => string
  readonly sortKey: (item: any) => Key
  readonly order: "asc" | "desc"
  readonly max: number
  /** Ids the whole listing must return, from the world itself. */
  readonly expected: () => ReadonlyArray<string>
}

/** Walks a listing at a page size and checks: exactly the expected items, once each, in order. */
const walkAndCheck = async (l: Listing, size: number): Promise<void> => {
  const pages = await walkPages(world, routeOf(l.route, l.method), l.params, { ...l.query, pageSize: String(size) }, l.key, l.body)
  pages.slice(0, -1).forEach((p) => expect(p.length).toBe(size))
  const items = pages.flat()
  const ids = items.map(l.id)
  expect(new Set(ids).size).toBe(ids.length)
  expect([...ids].sort()).toEqual([...l.expected()].sort())
  const sign = l.order === "asc" ? 1 : -1
  for (let i = 1; i < items.length; i++) expect(sign * cmp(l.sortKey(items[i - 1]), l.sortKey(items[i]))).toBeLessThan(0)
}

const listings = (): Record<string, Listing> => {
  const set = net.addressSets()[1]!
  const node = net.stakingView.nodes().reduce((best, n) => (net.stakingView.validationsOf(n).length > net.stakingView.validationsOf(best).length ? n : best))
  const utxoId = (u: any): string => u.utxoId
  const worldTxId = (served: string): string => net.served.known(served) ?? served
  return {
    "route 3, x-chain UTXOs by timestamp": {
      route: 3,
      params: { network: "mainnet", blockchainId: "x-chain" },
      query: { addresses: set.x.join(","), includeSpent: "true", sortOrder: "asc" },
      key: "utxos",
      id: utxoId,
      sortKey: (u) => [u.timestamp, u.creationTxHash, Number(u.outputIndex)],
      order: "asc",
      max: 100,
      expected: () => net.utxos("X", set.addresses, { view: "rest", includeSpent: true }).map((u) => net.utxoId(u))
    },
    "route 2, p-chain UTXOs by amount": {
      route: 2,
      method: "POST",
      params: { network: "mainnet", blockchainId: "11111111111111111111111111111111LpoYY" },
      query: { sortBy: "amount" },
      body: { addresses: set.p.slice(0, 1).join(",") },
      key: "utxos",
      id: utxoId,
      sortKey: (u) => [u.amount.padStart(24, "0"), u.txHash, u.outputIndex],
      order: "desc",
      max: 1024,
      expected: () => net.utxos("P", set.addresses.slice(0, 1), { view: "rest" }).map((u) => net.utxoId(u))
    },
    "route 4, active staking transactions": {
      route: 4,
      params: { network: "mainnet", blockchainId: "p-chain" },
      key: "transactions",
      // route 4 names its txs by their served ids itself (RouteDef.namesServedIds); it orders them by the world's
      id: (t) => worldTxId(t.txHash),
      sortKey: (t) => [t.blockTimestamp, worldTxId(t.txHash)],
      order: "desc",
      max: 100,
      expected: () => net.activeStakingEntries().map((e) => e.txId)
    },
    "route 7, one node's validations": {
      route: 7,
      params: { network: "mainnet", nodeId: node.nodeId },
      key: "validators",
      id: (v) => v.txHash,
      sortKey: (v) => [v.startTimestamp, v.txHash],
      order: "desc",
      max: 100,
      expected: () => net.stakingView.validationsOf(node).map((v) => v.txId)
    },
    "route 8, every delegation, oldest first": {
      route: 8,
      params: { network: "mainnet" },
      query: { sortOrder: "asc" },
      key: "delegators",
      id: (d) => d.txHash,
      sortKey: (d) => [d.startTimestamp, d.txHash],
      order: "asc",
      max: 100,
      expected: () => net.stakingView.allDelegations().map((d) => d.txId)
    },
    "route 8, every delegation, newest first": {
      route: 8,
      params: { network: "mainnet" },
      key: "delegators",
      id: (d) => d.txHash,
      sortKey: (d) => [d.startTimestamp, d.txHash],
      order: "desc",
      max: 100,
      expected: () => net.stakingView.allDelegations().map((d) => d.txId)
    },
    "route 12, every P-chain block": {
      route: 12,
      params: { network: "mainnet", blockchainId: "p-chain" },
      key: "blocks",
      id: (b) => b.blockHash,
      sortKey: (b) => [Number(b.blockNumber)],
      order: "desc",
      max: 100,
      expected: () => Array.from({ length: Number(net.height("P")) + 1 }, (_, h) => net.ctx.blockId("P", h))
    },
    "route 12, C-chain blocks of a day": {
      route: 12,
      params: { network: "mainnet", blockchainId: "c-chain" },
      query: { startTimestamp: String(world.options.clock.now() - 86_400), endTimestamp: String(world.options.clock.now()) },
      key: "blocks",
      id: (b) => b.blockHash,
      sortKey: (b) => [Number(b.blockNumber)],
      order: "desc",
      max: 100,
      expected: () => {
        const now = world.options.clock.now()
        const out: string[] = []
        for (let h = net.cHeight(); h >= 0n; h--) {
          const b = net.cBlock(h)
          if (!b || b.timestamp < now - 86_400) break
          out.push(b.id)
        }
        return out
      }
    },
    "route 13, every L1 validator": {
      route: 13,
      params: { network: "mainnet" },
      query: { includeInactiveL1Validators: "true" },
      key: "validators",
      id: (v) => v.validationId,
      sortKey: (v) => [v.creationTimestamp, v.validationId],
      order: "desc",
      max: 100,
      expected: () => net.l1View.allValidators().map((v) => v.validator.validationId)
    }
  }
}

describe("keyset paging of the primary-network routes", () => {
  for (const name of Object.keys(listings())) {
    it(`given ${name}, when walked at page sizes 1, 7 and the maximum, then every item comes exactly once in the declared order`, async () => {
      const l = listings()[name] as Listing
      expect(l.expected().length).toBeGreaterThan(1)
      for (const size of [1, 7, l.max]) await walkAndCheck(l, size)
    })
  }

  it("given a block listing half walked, when the clock advances and the walk goes on, then the older blocks still come exactly once", async () => {
    const w = makeWorld()
    const n = w.primary.network("mainnet")
    const top = Number(n.height("X"))
    const params = { network: "mainnet", blockchainId: "x-chain" }
    const seen: string[] = []
    let r = await call(w, routeOf(12), params, { pageSize: "30" })
    seen.push(...r.body.blocks.map((b: any) => b.blockNumber))
    w.options.clock.advance(3600)
    expect(Number(n.height("X"))).toBeGreaterThan(top + 100)
    while (r.body.nextPageToken) {
      r = await call(w, routeOf(12), params, { pageSize: "30", pageToken: r.body.nextPageToken })
      seen.push(...r.body.blocks.map((b: any) => b.blockNumber))
    }
    expect(seen).toEqual(Array.from({ length: top + 1 }, (_, i) => String(top - i)))
  })
})
