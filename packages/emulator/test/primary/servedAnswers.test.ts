/**
 * Route 4 names its ids served as it builds its answer (RouteDef.namesServedIds), so the HTTP
 * layer does not rewrite them: held here to what the rewrite would have made of the answer.
 */
import { describe, expect, it } from "vitest"
import { mapIdStrings, toServed } from "../../src/http/servedIds.ts"
import { makeWorld, routeOf, walkPages } from "./support.ts"

describe("route 4's answers, named by served ids as built", () => {
  it("given both networks built, when every page of each network's staking listing is served, then the HTTP layer's rewrite would change none of it, and its tx hashes are served ids", async () => {
    const world = makeWorld(7, 2)
    const route = routeOf(4)
    expect(route.namesServedIds).toBe(true)
    for (const network of ["mainnet", "fuji"] as const) world.primary.network(network)
    const rewrite = toServed(world.primary)
    for (const network of ["mainnet", "fuji"] as const) {
      const net = world.primary.network(network)
      const pages = await walkPages(world, route, { network, blockchainId: "p-chain" }, { pageSize: "100", sortOrder: "asc" }, "transactions")
      const txs = pages.flat()
      expect(txs.length).toBeGreaterThan(100)
      expect(mapIdStrings(pages, rewrite)).toEqual(pages)
      for (const tx of txs) {
        // a served id names a world tx or block, and is not itself a world id
        expect(net.served.known(tx.txHash), tx.txHash).toBeDefined()
        expect(net.served.known(tx.blockHash), tx.blockHash).toBeDefined()
        for (const u of tx.emittedUtxos) expect(net.served.known(u.txHash), u.txHash).toBeDefined()
      }
      const l1 = txs.filter((t) => t.l1ValidatorDetails !== undefined)
      expect(l1.length).toBeGreaterThan(0)
      for (const t of l1) expect(net.served.known(t.subnetId), t.subnetId).toBeDefined()
    }
  })
})
