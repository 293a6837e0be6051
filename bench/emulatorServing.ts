/**
 * The emulator's serving rate (`npm run bench:emulator -- [options]`): how long the in-process
 * emulator takes to serve a listing from its first page to its last at full page size, as a
 * crawler would ask for it. docs/performance.md#emulator-serving-rate records the results.
 *
 *   --staking N   route 4 (transactions:listStaking, P-chain), oldest first, both networks in turn,
 *                 until N transactions are served or the listings end
 *   --blocks N    route 12 (blocks, mainnet P-chain), newest first, until N blocks are served
 *   --scale S     the world's size (default: the bench's estimate for N: bench/e2e/datasets.ts for
 *                 staking, the P-chain's ~1,400 blocks per unit of scale for blocks)
 *   --max-seconds T  stop a listing after T seconds and report the rate so far (marked partial)
 *   --out FILE    also write the figures as JSON
 *
 * Each listing runs in this process against a fresh emulator (no rate limits); a page's time is
 * from the request to its parsed body. Nothing is asserted: the figures depend on the machine.
 */
import { writeFile } from "node:fs/promises"
import { startEmulator, type RunningEmulator } from "@chainetl/emulator"
import { benchDatasets, scaleFor } from "./e2e/datasets.ts"

interface Listing {
  readonly route: string
  readonly network: string
  readonly served: number
  readonly pages: number
  readonly seconds: number
  /** CPU seconds of this process (emulator and client) over the listing: steadier than wall time on a shared machine. */
  readonly cpuSeconds: number
  /** The network's P-chain height now: the blocks whose ids the listing may need hashed. */
  readonly pChainBlocks: number
  readonly firstPageSeconds: number
  readonly slowestPageSeconds: number
  /** CPU milliseconds per P-chain block behind the listing: the hashing and serving cost per block. */
  readonly cpuMsPerPChainBlock: number
  /**
   * The P-chain height of the last item served (route 4, oldest first: every block up to it is
   * hashed), and CPU milliseconds per block up to it: what a listing stopped by --max-seconds cost
   * a block so far.
   */
  readonly reachedHeight?: number
  readonly cpuMsPerReachedBlock?: number
  /** Resident memory of this process when the listing ended, MB. */
  readonly rssMb: number
  readonly partial: boolean
}

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}
const count = (name: string): number | undefined => {
  const v = flag(name)
  if (v === undefined) return undefined
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(v)
  if (m === null) throw new Error(`--${name}: expected a count like 100k or 1m, got '${v}'`)
  return Math.round(Number(m[1]) * (m[2]?.toLowerCase() === "m" ? 1e6 : m[2]?.toLowerCase() === "k" ? 1e3 : 1))
}

const PAGE_SIZE = 100
/** Mainnet P-chain blocks per unit of scale (measured: 140,173 at scale 100, 2,305,693 at 1,450). */
const P_BLOCKS_PER_SCALE = 1_400

const walk = async (
  emu: RunningEmulator,
  route: string,
  network: string,
  path: string,
  items: string,
  want: number,
  maxSeconds: number
): Promise<Listing> => {
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  let token: string | undefined
  let served = 0
  let pages = 0
  let first = 0
  let slowest = 0
  let partial = false
  let reached: number | undefined
  for (;;) {
    const t = performance.now()
    const res = await fetch(`${emu.baseUrl}${path}${path.includes("?") ? "&" : "?"}pageSize=${PAGE_SIZE}${token === undefined ? "" : `&pageToken=${encodeURIComponent(token)}`}`)
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    const body = (await res.json()) as Record<string, unknown>
    const seconds = (performance.now() - t) / 1000
    if (pages === 0) first = seconds
    slowest = Math.max(slowest, seconds)
    pages++
    const got = body[items] as ReadonlyArray<{ readonly blockNumber?: string }>
    served += got.length
    const last = got[got.length - 1]?.blockNumber
    if (last !== undefined && route.startsWith("4")) reached = Number(last)
    token = body.nextPageToken as string | undefined
    if (pages % 50 === 0) console.error(`  ${route} ${network}: ${served} after ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    if (token === undefined || served >= want) break
    if ((performance.now() - t0) / 1000 > maxSeconds) {
      partial = true
      break
    }
  }
  const cpu = process.cpuUsage(c0)
  const pChainBlocks = Number(emu.world.primary.network(network as "mainnet" | "fuji").height("P"))
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  return {
    route,
    network,
    served,
    pages,
    seconds: (performance.now() - t0) / 1000,
    cpuSeconds,
    pChainBlocks,
    firstPageSeconds: first,
    slowestPageSeconds: slowest,
    cpuMsPerPChainBlock: (cpuSeconds * 1000) / pChainBlocks,
    ...(reached === undefined ? {} : { reachedHeight: reached, cpuMsPerReachedBlock: (cpuSeconds * 1000) / reached }),
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
    partial
  }
}

const staking = count("staking")
const blocks = count("blocks")
const maxSeconds = Number(flag("max-seconds") ?? Infinity)
if (staking === undefined && blocks === undefined) {
  console.log("usage: npm run bench:emulator -- --staking 100k | --blocks 1m [--scale S] [--max-seconds T] [--out FILE]")
  process.exit(2)
}
const stakingDataset = benchDatasets.find((d) => d.name === "staking_transactions")!
const scale = Number(flag("scale") ?? (staking !== undefined ? scaleFor(stakingDataset, staking) : Math.ceil(blocks! / P_BLOCKS_PER_SCALE)))

const results: Listing[] = []
const t0 = performance.now()
if (staking !== undefined) {
  const emu = await startEmulator({ port: 0, scale, rateLimit: { keylessPerSecond: 0, keyedPerSecond: 0, metricsPerSecond: 0 } })
  try {
    for (const network of ["mainnet", "fuji"]) {
      const left = staking - results.reduce((n, r) => n + r.served, 0)
      if (left <= 0) break
      const path = `/v1/networks/${network}/blockchains/p-chain/transactions:listStaking?sortOrder=asc`
      results.push(await walk(emu, "4 (listStaking)", network, path, "transactions", left, maxSeconds))
    }
  } finally {
    await emu.close()
  }
}
if (blocks !== undefined) {
  const emu = await startEmulator({ port: 0, scale, rateLimit: { keylessPerSecond: 0, keyedPerSecond: 0, metricsPerSecond: 0 } })
  try {
    results.push(await walk(emu, "12 (blocks)", "mainnet", "/v1/networks/mainnet/blockchains/p-chain/blocks", "blocks", blocks, maxSeconds))
  } finally {
    await emu.close()
  }
}
const total = results.reduce((n, r) => n + r.served, 0)
const seconds = (performance.now() - t0) / 1000
const rssMb = Math.round(process.memoryUsage().rss / 1e6)
console.log(`scale ${scale}, page size ${PAGE_SIZE}`)
for (const r of results) {
  console.log(
    `route ${r.route} ${r.network}: ${r.served} in ${r.seconds.toFixed(1)} s, ${r.cpuSeconds.toFixed(1)} CPU-s (${Math.round(r.served / r.cpuSeconds)}/CPU-s), ${r.pages} pages, P-chain ${r.pChainBlocks} blocks (${r.cpuMsPerPChainBlock.toFixed(3)} CPU-ms each)${r.reachedHeight === undefined ? "" : `, reached height ${r.reachedHeight} (${r.cpuMsPerReachedBlock!.toFixed(3)} CPU-ms a block up to it)`}, RSS ${r.rssMb} MB, first ${r.firstPageSeconds.toFixed(1)} s, slowest ${r.slowestPageSeconds.toFixed(1)} s${r.partial ? ", stopped by --max-seconds" : ""}`
  )
}
console.log(`total ${total} in ${seconds.toFixed(1)} s (start-up included), RSS ${rssMb} MB`)
const out = flag("out")
if (out !== undefined) await writeFile(out, JSON.stringify({ scale, pageSize: PAGE_SIZE, results, total, seconds, rssMb }, null, 2) + "\n")
