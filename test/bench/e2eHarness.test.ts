/**
 * The end-to-end bench's harness itself (bench/e2e): the proxy replays exactly what it recorded,
 * every method writes every row, and results.json carries the fields the issue asks for. Nothing
 * here asserts a timing.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { parseE2eArgs } from "../../bench/e2e/args.ts"
import { RecordStore } from "../../bench/e2e/cache.ts"
import { summarizeProfile } from "../../bench/e2e/cpuProfile.ts"
import { benchDatasets } from "../../bench/e2e/datasets.ts"
import { startProxy } from "../../bench/e2e/proxy.ts"
import { type MethodMedians, ratiosOf, writeResults } from "../../bench/e2e/report.ts"
import { runE2e } from "../../bench/e2e/run.ts"

const tmp = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `chainetl-bench-test-${label}-`))

const get = async (base: string, url: string) => {
  const r = await fetch(`${base}${url}`)
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()) }
}
const post = async (base: string, url: string, body: string) => {
  const r = await fetch(`${base}${url}`, { method: "POST", headers: { "content-type": "application/json" }, body })
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()) }
}

describe("replay proxy", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ scale: 0.5 })
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given pages recorded from the emulator, when a new proxy replays them from disk, then GET and POST bodies are byte-identical and nothing reaches the emulator", async () => {
    const dir = tmp("proxy")
    const page = "/v1/chains/43114/blocks?pageSize=100"
    const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "avm.getHeight", params: {} })
    const direct = { page: await get(emu.baseUrl, page), rpc: await post(emu.baseUrl, "/ext/bc/X", rpc) }
    const token = (JSON.parse(direct.page.body.toString()) as { nextPageToken: string }).nextPageToken
    const second = `/v1/chains/43114/blocks?pageSize=100&pageToken=${token}`
    const directSecond = await get(emu.baseUrl, second)

    const store = RecordStore.open(dir)
    const recorder = await startProxy(store, async () => emu.baseUrl, "record")
    const recorded = { page: await get(recorder.url, page), rpc: await post(recorder.url, "/ext/bc/X", rpc), second: await get(recorder.url, second) }
    await recorder.close()
    store.close()
    expect(recorded.page.body.equals(direct.page.body)).toBe(true)
    expect(recorded.rpc.body.equals(direct.rpc.body)).toBe(true)

    const before = emu.state().requests
    const reopened = RecordStore.open(dir)
    expect(reopened.entries).toBe(3)
    const replayer = await startProxy(reopened, () => Promise.reject(new Error("replay must not reach upstream")), "replay")
    const replayed = {
      page: await get(replayer.url, page),
      rpc: await post(replayer.url, "/ext/bc/X", rpc),
      // the same query spelled in another order is the same request
      second: await get(replayer.url, `/v1/chains/43114/blocks?pageToken=${token}&pageSize=100`),
      otherBody: await post(replayer.url, "/ext/bc/X", rpc.replace("getHeight", "getTxFee"))
    }
    await replayer.close()
    reopened.close()

    expect(replayed.page).toEqual({ status: 200, body: direct.page.body })
    expect(replayed.rpc).toEqual({ status: 200, body: direct.rpc.body })
    expect(replayed.second.body.equals(directSecond.body)).toBe(true)
    expect(replayed.otherBody.status).toBe(599)
    expect(replayer.counters).toMatchObject({ requests: 4, hits: 3, misses: 1 })
    expect(emu.state().requests).toEqual(before)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("given pass mode, when pages are asked for, then each is the upstream's answer byte for byte, asked of it every time, and nothing is recorded", async () => {
    // given a proxy in pass mode before the emulator, on an empty recording
    const dir = tmp("pass")
    const page = "/v1/chains/43114/blocks?pageSize=100"
    const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "avm.getHeight", params: {} })
    const direct = { page: await get(emu.baseUrl, page), rpc: await post(emu.baseUrl, "/ext/bc/X", rpc) }
    const store = RecordStore.open(dir)
    const passer = await startProxy(store, async () => emu.baseUrl, "pass")
    const before = emu.state().requests.total

    // when the same page is asked twice and a POST once
    const served = [await get(passer.url, page), await get(passer.url, page), await post(passer.url, "/ext/bc/X", rpc)]
    await passer.close()

    // then every answer is the emulator's, the emulator saw all three, and the recording stays empty
    expect(served[0]!.body.equals(direct.page.body)).toBe(true)
    expect(served[1]!.body.equals(direct.page.body)).toBe(true)
    expect(served[2]!.body.equals(direct.rpc.body)).toBe(true)
    expect(emu.state().requests.total - before).toBe(3)
    expect(passer.counters).toMatchObject({ requests: 3, hits: 0, misses: 0 })
    expect(store.entries).toBe(0)
    store.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe("bench flags", () => {
  it("given a flag the bench does not take, when parsed, then it is refused with the nearest flag named, and a value is not taken for a flag", () => {
    expect(() => parseE2eArgs(["--datasets", "staking_transactions", "--size", "20k"])).toThrow(/--size is not a flag of npm run bench: did you mean --sizes\?/)
    expect(() => parseE2eArgs(["--profile"])).toThrow(/^--profile is not a flag of npm run bench \(npm run bench -- --help\)$/)
    // a value that looks like nothing is read as the value of its flag
    expect(parseE2eArgs(["--sizes", "20k", "--smoke", "--cpu-prof"]).sizes.map((s) => s.label)).toEqual(["20k"])
  })

  it("given --stream-pages, when parsed, then it needs --pages-of and leaves duckdb-only out, refusing it when asked for", () => {
    expect(() => parseE2eArgs(["--stream-pages"])).toThrow(/--pages-of/)
    expect(parseE2eArgs(["--sizes", "5m", "--pages-of", "20k", "--stream-pages"]).methods).toEqual(["chainetl", "plain", "naive"])
    expect(() => parseE2eArgs(["--pages-of", "20k", "--stream-pages", "--methods", "chainetl,duckdb-only"])).toThrow(/duckdb-only/)
    expect(parseE2eArgs(["--pages-of", "20k"]).streamPages).toBe(false)
  })

  it("given --baseline, when parsed, then it needs a built checkout, runs chainetl against it by default, and baseline alone is refused", () => {
    // given a folder with no build, and one with dist/cli/bin.js
    const bare = tmp("bare")
    const built = tmp("built")
    fs.mkdirSync(path.join(built, "dist", "cli"), { recursive: true })
    fs.writeFileSync(path.join(built, "dist", "cli", "bin.js"), "")
    // then
    expect(() => parseE2eArgs(["--baseline", bare])).toThrow(/no built chainetl/)
    expect(parseE2eArgs(["--baseline", built])).toMatchObject({ methods: ["chainetl", "baseline"], baselineRepo: built })
    expect(parseE2eArgs(["--baseline", built, "--methods", "chainetl,plain,baseline"]).methods).toEqual(["chainetl", "plain", "baseline"])
    expect(() => parseE2eArgs(["--methods", "chainetl,baseline"])).toThrow(/--baseline DIR/)
    expect(parseE2eArgs([]).methods).toEqual(["chainetl", "plain", "duckdb-only", "naive"])
    fs.rmSync(bare, { recursive: true, force: true })
    fs.rmSync(built, { recursive: true, force: true })
  })

  it("given medians of chainetl and a baseline build, when the ratios are taken, then chainetl/baseline is chainetl's over the baseline's", () => {
    const m = (rowsPerCpuSecond: number, rowsPerSecond: number, peakRssBytes: number) => ({ rowsPerCpuSecond, rowsPerSecond, peakRssBytes }) as unknown as MethodMedians
    expect(ratiosOf({ chainetl: m(110, 50, 300), baseline: m(100, 40, 400) })).toEqual({ "chainetl/baseline": { rowsPerCpuSecond: 1.1, rowsPerSecond: 1.25, peakRss: 0.75 } })
  })
})

describe("end-to-end bench on a tiny evm_blocks", () => {
  it("given 1k rows recorded once, when every method runs on the replay, then each writes every row and results.json has medians, ratios and request counts", async () => {
    const cacheDir = tmp("cache")
    const evm = benchDatasets.find((d) => d.name === "evm_blocks")!
    const lines: string[] = []
    const [result] = await runE2e({
      datasets: [evm],
      sizes: [{ label: "1k", rows: 1000 }],
      methods: ["chainetl", "plain", "duckdb-only", "naive"],
      repeat: 1,
      partRows: 25_000,
      seed: 1,
      cacheDir,
      cpuProf: false,
      rateLimit: 100_000,
      streamPages: false,
      log: (l) => lines.push(l)
    })
    const file = path.join(cacheDir, "results.json")
    writeResults(file, { repeat: 1 }, [result!])
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as { generatedAt: string; cases: Array<typeof result> }
    const c = doc.cases[0]!

    // the emulator's 43114 has 1600 blocks per unit of scale; scale 0.63 gives 1,008
    expect(c.rows).toBe(1008)
    expect(c.minRequests).toBe(11)
    for (const method of ["chainetl", "plain", "duckdb-only", "naive"] as const) {
      const m = c.medians[method]!
      expect(m.rows, `${method} rows`).toBe(1008)
      expect(m.misses, `${method} pages not recorded`).toBe(0)
      expect(m.rowsPerCpuSecond).toBeGreaterThan(0)
      expect(m.peakRssBytes).toBeGreaterThan(10 * 2 ** 20)
      expect(m.files).toBeGreaterThan(0)
    }
    // chainetl, plain and naive all page through the one listing: 11 pages of ≤ 100
    expect(c.medians.plain!.requests).toBe(11)
    expect(c.medians.naive!.requests).toBe(11)
    expect(c.medians.chainetl!.requests).toBeGreaterThanOrEqual(11)
    expect(c.medians["duckdb-only"]!.requests).toBe(0)
    // chainetl crawls the same one listing (one slice): its own minimum is the references', and
    // it asks for nothing beyond it
    expect(c.chainetlListings).toMatchObject({ listings: 1, minRequests: 11, requests: 11, beyondMin: 0, overMinimum: [] })
    expect(c.chainetlListings!.requests + c.chainetlListings!.retries + c.chainetlListings!.outsideListings).toBe(c.medians.chainetl!.requests)
    // naive writes one file; the others one or more per (chain_id, date) partition
    expect(c.medians.naive!.files).toBe(1)
    expect(c.medians.plain!.files).toBeGreaterThan(1)
    expect(Object.keys(c.ratios).sort()).toEqual(["chainetl/duckdb-only", "chainetl/naive", "chainetl/plain"])
    expect(c.ratios["chainetl/plain"]!.rowsPerCpuSecond).toBeCloseTo(c.medians.chainetl!.rowsPerCpuSecond / c.medians.plain!.rowsPerCpuSecond, 10)
    expect(c.rowsEqual).toBe(true)
    expect(Number.isNaN(Date.parse(doc.generatedAt))).toBe(false)
    expect(lines.some((l) => l.includes("warm-up chainetl"))).toBe(true)
    fs.rmSync(cacheDir, { recursive: true, force: true })
  })
})

describe("cpu profile summary", () => {
  it("given samples of two functions, when summarized, then self time is the sum of their time deltas and idle is left out", () => {
    const dir = tmp("prof")
    const file = path.join(dir, "x.cpuprofile")
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9, columnNumber: 0, scriptId: "1" })
    fs.writeFileSync(
      file,
      JSON.stringify({
        nodes: [
          { id: 1, callFrame: frame("(root)", "") },
          { id: 2, callFrame: frame("flushSync", "file:///r/node_modules/@duckdb/node-api/lib/x.js") },
          { id: 3, callFrame: frame("decode", "file:///r/src/transform/Decode.ts") },
          { id: 4, callFrame: frame("(idle)", "") }
        ],
        samples: [2, 3, 2, 4, 2],
        timeDeltas: [1000, 2000, 3000, 50_000, 2000],
        startTime: 0,
        endTime: 58_000
      })
    )
    const s = summarizeProfile(file)
    expect(s.totalMs).toBe(8)
    expect(s.functions[0]).toEqual({ name: "flushSync node_modules/@duckdb/node-api/lib/x.js:10:1", selfMs: 6, share: 0.75 })
    expect(s.functions[1]).toEqual({ name: "decode src/transform/Decode.ts:10:1", selfMs: 2, share: 0.25 })
    expect(s.packages.map((p) => p.name)).toEqual(["@duckdb/node-api", "chainetl src/transform"])
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
