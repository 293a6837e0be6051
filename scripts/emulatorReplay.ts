/**
 * Byte-identity check of the emulator against a bench recording (bench/.cache/<case>, see
 * bench/e2e/cache.ts): walks the references' listings of the case through the recording alone
 * (their URLs are cached in tmp/urls-<case>.json, or $URLS_DIR), then asks a fresh in-process
 * emulator, started as the bench starts it, a sample of those requests (per listing the first n,
 * nr random ones, the last n; --all for every one; --listing i for one listing) and compares the
 * bytes. Prints the time of slow pages (--verbose: of every page) and the RSS. Exit 1 on a diff.
 *
 * usage: node --import tsx scripts/emulatorReplay.ts bench/.cache/<case> [--all] [--n 10] [--rand 30] [--listing i] [--verbose] [--walk-only]
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { RecordStore, keyOf } from "../bench/e2e/cache.ts"
import { benchDatasets } from "../bench/e2e/datasets.ts"
import { pageUrl } from "../bench/e2e/reference/spec.ts"
import { startEmulator } from "@chainetl/emulator"

const argv = process.argv.slice(2)
const dir = argv[0]!
const flag = (f: string) => argv.includes(f)
const num = (f: string, d: number) => { const i = argv.indexOf(f); return i < 0 ? d : Number(argv[i + 1]) }
const base = path.basename(dir)
const m = /^(\w+?)-(\w+)-seed(\d+)-scale([\d.]+)$/.exec(base)!
const [, dsName, , seedS, scaleS] = m
const dataset = benchDatasets.find((d) => d.name === dsName)!
const seed = Number(seedS), scale = Number(scaleS)

const urlsFile = path.join(process.env.URLS_DIR ?? "tmp", `urls-${base}.json`)
const store = RecordStore.open(path.join(dir, "recording"))
type Req = { listing: number; page: number; url: string; key: string }
let lists: Req[][]
if (fs.existsSync(urlsFile)) lists = JSON.parse(fs.readFileSync(urlsFile, "utf8"))
else {
  const spec = { baseUrl: "", pageSize: dataset.pageSize } as any
  lists = []
  for (const [li, listing] of dataset.listings.entries()) {
    const out: Req[] = []
    let token: string | undefined
    do {
      const url = pageUrl(spec, listing, token)
      const key = keyOf({ method: "GET", url, body: Buffer.alloc(0) })
      const e = store.get(key)
      if (!e) break
      out.push({ listing: li, page: out.length, url, key })
      const body = (await store.read(e)).toString("utf8")
      const t = /^{"nextPageToken":"([^"]*)"/.exec(body) ?? /"nextPageToken":"([^"]*)"\s*}\s*$/.exec(body)
      token = t?.[1] || undefined
    } while (token !== undefined)
    console.log(`listing ${listing.path}: ${out.length} pages recorded${token ? " (partial)" : ""}`)
    lists.push(out)
  }
  fs.writeFileSync(urlsFile, JSON.stringify(lists))
}
if (flag("--walk-only")) process.exit(0)

// deterministic sample
let r = 12345
const rand = () => ((r = (r * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
const n = num("--n", 10), nr = num("--rand", 30)
const chosen: Req[] = []
const only = num("--listing", -1)
for (const l of lists) {
  if (only >= 0 && l[0]?.listing !== only) continue
  if (flag("--all")) { chosen.push(...l); continue }
  const set = new Set<number>()
  for (let i = 0; i < Math.min(n, l.length); i++) set.add(i)
  for (let i = 0; i < nr && l.length > 0; i++) set.add(Math.floor(rand() * l.length))
  for (let i = Math.max(0, l.length - n); i < l.length; i++) set.add(i)
  // first pages first, then random, then last ones: a fresh emulator sees them out of order
  chosen.push(...[...set].map((i) => l[i]!))
}
const emu = await startEmulator({ seed, scale, host: "127.0.0.1", rateLimit: { keylessPerSecond: 0, keyedPerSecond: 0, metricsPerSecond: 0 } })
console.log(`emulator seed ${seed} scale ${scale}; ${chosen.length} requests`)
let bad = 0, bytes = 0
const t0 = performance.now()
let tl = t0
for (const [i, q] of chosen.entries()) {
  const t1 = performance.now()
  const res = await fetch(`${emu.baseUrl}${q.url}`)
  const got = Buffer.from(await res.arrayBuffer())
  const want = await store.read(store.get(q.key)!)
  bytes += got.length
  const ms = performance.now() - t1
  if (!got.equals(want)) { bad++; console.log(`DIFF listing ${q.listing} page ${q.page} ${q.url.slice(0, 120)} (${got.length} vs ${want.length})`) }
  if (flag("--verbose") || ms > 5000 || performance.now() - tl > 30000) { tl = performance.now(); console.log(`  #${i} listing ${q.listing} page ${q.page}: ${ms.toFixed(0)} ms; total ${((performance.now() - t0) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`) }
}
console.log(`${chosen.length - bad}/${chosen.length} identical, ${bad} differ; ${(bytes / 2 ** 20).toFixed(1)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`)
await emu.close()
process.exit(bad === 0 ? 0 : 1)
