import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEmulator, type RunningEmulator } from "../../src/index.ts"
import type { EvmChain } from "../../src/world/evm/index.ts"
import { allPages, getJson, getValid } from "./http.ts"

const T = {
  metric: "/v2/chains/{chainId}/metrics/{metric}",
  balances: "/v2/chains/{chainId}/contracts/{address}/balances",
  holders: "/v2/chains/{chainId}/contracts/{address}/nfts:listHolders"
}
const ZERO = "0x0000000000000000000000000000000000000000"

let emu: RunningEmulator
let c: EvmChain

beforeAll(async () => {
  emu = await startEmulator({ seed: 9, rateLimit: { keylessPerSecond: 0, metricsPerSecond: 0 } })
  c = emu.world.evm.chain("43114")!
})
afterAll(() => emu.close())

describe("metrics routes over HTTP", () => {
  it("given route 5 hourly txCount, when all pages are followed, then points are newest first, contiguous hours, and equal the world's values", async () => {
    const pages = await allPages(emu, "metrics", T.metric, `/v2/chains/43114/metrics/txCount?timeInterval=hour&pageSize=200`, "results")
    const points = pages.flat()
    expect(pages.length).toBeGreaterThan(2)
    expect(points[0].timestamp).toBe(Math.floor(emu.clock.now() / 3600) * 3600)
    for (let i = 1; i < points.length; i++) expect(points[i].timestamp).toBe(points[i - 1].timestamp - 3600)
    const total = points.reduce((s, p) => s + p.value, 0)
    expect(total).toBe(Number(c.block(c.latestHeight())!.cumulativeTransactions))
  })

  it("given every metric at its allowed intervals, when route 5 answers, then bodies match the document", async () => {
    const { METRICS, intervalsOf } = await import("../../src/world/evm/index.ts")
    for (const m of METRICS) {
      for (const iv of intervalsOf(m)) {
        const body = (await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/${m}?timeInterval=${iv}&pageSize=5`)).body
        // three weeks of history: four weeks and one or two months at most
        expect(body.results.length).toBe(iv === "week" || iv === "month" ? Math.min(5, body.results.length) : 5)
        expect(body.results.length).toBeGreaterThan(0)
        expect(body.results.every((p: { value: unknown }) => typeof p.value === "number" && Number.isFinite(p.value))).toBe(true)
      }
    }
    await getValid(emu, "metrics", T.metric, `/v2/chains/total/metrics/cumulativeAddresses`)
    await getValid(emu, "metrics", T.metric, `/v2/chains/testnet/metrics/activeSenders?timeInterval=week`)
  })

  it("given rule 2 and bad parameters, when route 5 is asked, then it answers 400 with an explaining message (array on metrics); unknown chains 404", async () => {
    const dayOnly = await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/cumulativeTxCount?timeInterval=hour`, 400)
    expect(dayOnly.body.message[0]).toContain("only timeInterval=day")
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/maxTps?timeInterval=week`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/feesPaid?timeInterval=month`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/blocks`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/txCount?timeInterval=year`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/txCount?startTimestamp=1.5`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/txCount?startTimestamp=200&endTimestamp=100`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/43114/metrics/txCount?pageSize=2161`, 400)
    await getValid(emu, "metrics", T.metric, `/v2/chains/12/metrics/txCount`, 404)
  })

  it("given the clock advances, when route 5 is re-read, then the latest daily point changes and older ones do not", async () => {
    const before = (await getJson(`${emu.metricsUrl}/v2/chains/43114/metrics/txCount?timeInterval=day&pageSize=3`)).body.results
    emu.advance(5 * 3600)
    const after = (await getJson(`${emu.metricsUrl}/v2/chains/43114/metrics/txCount?timeInterval=day&pageSize=3`)).body.results
    expect(after[0].timestamp).toBe(before[0].timestamp)
    expect(after[0].value).toBeGreaterThan(before[0].value)
    expect(after.slice(1)).toEqual(before.slice(1))
  })

  it("given a threshold, when route 14 lists holders, then exactly the addresses that ever held more than it come, with their latest balance; no threshold is 400", async () => {
    const token = c.tokens()[1]!
    const range = c.tokenTransfers(token.address)!
    const balance = new Map<string, bigint>()
    const threshold = 10n ** 12n
    const above = new Set<string>()
    for (let s = range.first; s < range.end; s++) {
      const t = range.at(s)
      if (t.from !== ZERO) balance.set(t.from, (balance.get(t.from) ?? 0n) - t.value)
      balance.set(t.to, (balance.get(t.to) ?? 0n) + t.value)
      if (balance.get(t.to)! > threshold) above.add(t.to)
    }
    const pages = await allPages(emu, "metrics", T.balances, `/v2/chains/43114/contracts/${token.address}/balances?threshold=${threshold}&pageSize=7`, "addresses")
    const got = pages.flat()
    expect(new Set(got.map((h) => h.address))).toEqual(above)
    expect(got.length).toBe(above.size)
    for (const h of got) expect(h.sortKey).toBe(Number(balance.get(h.address) ?? 0n))
    for (let i = 1; i < got.length; i++) expect(got[i].sortKey).toBeLessThanOrEqual(got[i - 1].sortKey)
    await getValid(emu, "metrics", T.balances, `/v2/chains/43114/contracts/${token.address}/balances`, 400)
    await getValid(emu, "metrics", T.balances, `/v2/chains/43114/contracts/${token.address}/balances?threshold=-5`, 400)
    await getValid(emu, "metrics", T.balances, `/v2/chains/43114/contracts/0x${"ab".repeat(20)}/balances?threshold=1`, 404)
  })

  it("given a period, when route 14 is ranged, then holders above the threshold only before the period are left out", async () => {
    const token = c.tokens()[0]!
    const all = (await getJson(`${emu.metricsUrl}/v2/chains/43114/contracts/${token.address}/balances?threshold=0&pageSize=5000`)).body.addresses
    const recent = (await getJson(`${emu.metricsUrl}/v2/chains/43114/contracts/${token.address}/balances?threshold=0&pageSize=5000&startTimestamp=${emu.clock.now() - 3600}`)).body.addresses
    expect(recent.length).toBeLessThan(all.length)
    const everyone = new Set(all.map((h: { address: string }) => h.address))
    expect(recent.every((h: { address: string }) => everyone.has(h.address))).toBe(true)
  })

  it("given an NFT collection, when route 18 lists holders, then counts add up to totalTokens and match current owners", async () => {
    const nft = c.tokens().find((t) => t.ercType === "ERC-721")!
    const pages = await allPages(emu, "metrics", T.holders, `/v2/chains/43114/contracts/${nft.address}/nfts:listHolders?pageSize=10`, "addresses")
    const got = pages.flat()
    const first = (await getJson(`${emu.metricsUrl}/v2/chains/43114/contracts/${nft.address}/nfts:listHolders`)).body
    expect(first.nftCollectionName).toBe(nft.name)
    expect(first.totalHolders).toBe(got.length)
    expect(got.reduce((s, h) => s + h.sortKey, 0)).toBe(first.totalTokens)
    const owner = c.nftToken(nft.address, 1n)!.ownerAddress
    expect(got.some((h) => h.address === owner)).toBe(true)
    await getValid(emu, "metrics", T.holders, `/v2/chains/43114/contracts/${c.tokens()[0]!.address}/nfts:listHolders`, 404)
  })

  it("given route 19 after 90 more days, when read by hand, then it has the seed's shape: results {timestamp, value}, status, lastRun, nextPageToken while more; values equal avgTps/day", async () => {
    emu.advance(90 * 86_400)
    const l1 = emu.world.evm.chains()[3]!.info.evmChainId
    const first = await getJson(`${emu.metricsUrl}/v1/avg_tps/${l1}`)
    expect(first.status).toBe(200)
    expect(Object.keys(first.body)).toEqual(["results", "status", "lastRun", "nextPageToken"])
    expect(first.body.status).toBe(200)
    expect(first.body.lastRun).toBe(emu.clock.now())
    expect(first.body.results).toHaveLength(100)
    for (const p of first.body.results) expect(Object.keys(p)).toEqual(["timestamp", "value"])
    expect(first.body.nextPageToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const rest = await getJson(`${emu.metricsUrl}/v1/avg_tps/${l1}?pageToken=${first.body.nextPageToken}`)
    expect(rest.body.nextPageToken).toBeUndefined()
    const series = [...first.body.results, ...rest.body.results]
    expect(rest.body.results.length).toBeGreaterThan(0)
    const days = (await getJson(`${emu.metricsUrl}/v2/chains/${l1}/metrics/avgTps?pageSize=2160`)).body.results
    expect(series).toEqual(days.map((p: { timestamp: number; value: number }) => ({ timestamp: p.timestamp, value: p.value })))
    expect((await getJson(`${emu.metricsUrl}/v1/avg_tps/nope`)).status).toBe(404)
    expect((await getJson(`${emu.metricsUrl}/v1/avg_tps/43114?pageToken=garbage`)).status).toBe(400)
  })
})
