/**
 * The example analyses shipped in examples/*.sql, each run as docs/output.md#example-analyses says
 * (`chainetl query --file examples/<name>.sql --format json`) over one crawl of the emulator job,
 * and each answer compared, row by row and digit by digit, with the truth computed here from the
 * emulator's own API responses (plain fetch, BigInt sums) — never from our Parquet.
 */
import { Effect, Either } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { EMULATOR_JOB } from "../../src/cli/runCommand.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { type Job, loadJobFile } from "../../src/Job.ts"
import { REPO, runCli } from "../reliability/cli.ts"
import { tempFolders } from "../support/fixtures.ts"
import { fetchAll, runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("exampleAnalyses")

type Raw = Record<string, unknown>
type Row = Record<string, string | number | null>

const EXAMPLES = ["avax_staked_per_day", "top_delegators_by_net_reward", "validators_most_delegations", "evm_daily_tx_count", "utxo_balance_per_address", "token_transfer_volume_per_day"] as const
const PRIMARY_NETWORK = "11111111111111111111111111111111LpoYY"

const day = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString().slice(0, 10)
const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : BigInt(String(v)))
/** Binary string order, as DuckDB's ORDER BY on VARCHAR. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const sum = (xs: ReadonlyArray<bigint>) => xs.reduce((a, b) => a + b, 0n)
/** Entries of a map grouped by `key`, creating each group with `init`. */
const groupBy = <T, G>(items: ReadonlyArray<T>, key: (t: T) => string, init: (t: T) => G, add: (g: G, t: T) => void): Map<string, G> => {
  const groups = new Map<string, G>()
  for (const t of items) {
    const k = key(t)
    if (!groups.has(k)) groups.set(k, init(t))
    add(groups.get(k)!, t)
  }
  return groups
}

describe("the example analyses against the emulator's own answers", () => {
  let emu: RunningEmulator
  let job: Job
  const answers = new Map<string, Row[]>()
  const get = (route: string, query: Record<string, string> = {}) => {
    const u = new URL(`${emu.baseUrl}${route}`)
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v)
    return u.toString()
  }
  /** In the order the analyses sort them. */
  const networks = () => [...job.networks].sort(cmp)

  beforeAll(async () => {
    emu = await startEmulator()
    const out = await tempOut()
    const file = Either.getOrThrow(await loadJobFile(EMULATOR_JOB))
    // only the metric the analyses read: the other metrics would cost requests and nothing else
    job = { ...file, metrics: { ...file.metrics, metrics: ["txCount"] } }
    const datasets = ["staking_transactions", "delegators", "validators", "evm_blocks", "chain_metrics", "utxos", "token_transfers"]
    const report = await Effect.runPromise(runSpine(out, emu, { job, datasets }))
    expect(report.status).toBe("succeeded")
    const runs = await Promise.all(
      EXAMPLES.map((name) => runCli(["query", "--file", path.join(REPO, "examples", `${name}.sql`), "--out", out, "--format", "json"]))
    )
    EXAMPLES.forEach((name, i) => {
      const r = runs[i]!
      expect([name, r.code, r.stderr]).toEqual([name, 0, ""])
      answers.set(name, JSON.parse(r.stdout) as Row[])
    })
  }, 300_000)
  afterAll(async () => {
    await emu?.close()
  })

  it("given each example file, when its header and statement are read, then the header says what it answers and names exactly the views the statement reads, all _latest views", async () => {
    const datasets = catalogEntries().map((d) => d.name)
    const headers: Record<string, { reads: string[]; uses: string[] }> = {}
    for (const name of EXAMPLES) {
      const text = await fs.readFile(path.join(REPO, "examples", `${name}.sql`), "utf8")
      const comment = text.split("\n").filter((l) => l.startsWith("--")).map((l) => l.slice(2).trim()).join(" ")
      const statement = text.split("\n").filter((l) => !l.startsWith("--")).join("\n")
      expect([name, /Answers: \S/.test(comment)]).toEqual([name, true])
      const readsLine = /Reads: ([^(]*)/.exec(comment)?.[1] ?? ""
      const views = (words: ReadonlyArray<string>) => [...new Set(words.filter((w) => datasets.includes(w.replace(/_latest$/, ""))))].sort()
      // what a statement reads: the relation after each FROM and JOIN, and every *_latest name (comma joins)
      const read = [...statement.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)/gi), ...statement.matchAll(/\b([a-z_]+_latest)\b/g)].map((m) => m[1]!)
      headers[name] = { reads: views([...readsLine.matchAll(/[a-z_]+/g)].map((m) => m[0])), uses: views(read) }
    }
    for (const name of EXAMPLES) {
      const { reads, uses } = headers[name]!
      expect([name, reads]).toEqual([name, uses])
      expect([name, uses.filter((v) => !v.endsWith("_latest"))]).toEqual([name, []])
    }
  })

  it("given the P-chain staking transactions as route 4 lists them, when avax_staked_per_day runs, then each network's day holds the AVAX staked that day and its transactions", async () => {
    const truth: Row[] = []
    for (const network of networks()) {
      const txs = await fetchAll(get(`/v1/networks/${network}/blockchains/p-chain/transactions:listStaking`), "transactions", { sortOrder: "asc" })
      const staking = txs
        .map((t) => ({ day: day(t["blockTimestamp"]), avax: ((t["amountStaked"] ?? []) as Raw[]).filter((a) => a["symbol"] === "AVAX").map((a) => big(a["amount"])) }))
        .filter((t) => t.avax.length > 0)
      const days = groupBy(staking, (t) => t.day, () => ({ txs: 0, navax: 0n }), (g, t) => ((g.txs += 1), (g.navax += sum(t.avax))))
      for (const [d, g] of [...days].sort(([a], [b]) => cmp(a, b))) {
        truth.push({ network, date: d, staking_txs: String(g.txs), staked_navax: String(g.navax), staked_avax: Number(g.navax) / 1e9 })
      }
    }
    expect(truth.length).toBeGreaterThan(10)
    expect(answers.get("avax_staked_per_day")).toEqual(truth)
  })

  it("given every delegation as route 8 lists it, when top_delegators_by_net_reward runs, then each network's ten delegators with the highest net reward come with their exact sums", async () => {
    const truth: Row[] = []
    for (const network of networks()) {
      const delegations = await fetchAll(get(`/v1/networks/${network}/delegators`), "delegators", { sortOrder: "asc" })
      const byDelegator = groupBy(
        delegations,
        (d) => (d["rewardAddresses"] as string[]).join(" "),
        () => ({ delegations: 0, completed: 0, delegated: 0n, gross: 0n, net: 0n }),
        (g, d) => {
          g.delegations += 1
          if (d["delegationStatus"] === "completed") g.completed += 1
          g.delegated += big(d["amountDelegated"])
          g.gross += big(d["grossReward"])
          g.net += big(d["netReward"])
        }
      )
      const top = [...byDelegator].sort(([a, x], [b, y]) => (x.net === y.net ? cmp(a, b) : x.net > y.net ? -1 : 1)).slice(0, 10)
      for (const [delegator, g] of top) {
        truth.push({
          network,
          delegator,
          delegations: String(g.delegations),
          completed: String(g.completed),
          delegated_navax: String(g.delegated),
          gross_reward_navax: String(g.gross),
          net_reward_navax: String(g.net),
          net_reward_avax: Number(g.net) / 1e9
        })
      }
    }
    expect(truth.length).toBeGreaterThan(4)
    expect(answers.get("top_delegators_by_net_reward")).toEqual(truth)
  })

  it("given route 8's delegations and route 7's validations of each node, when validators_most_delegations runs, then each network's ten most delegated nodes come with their newest validation's stake and uptime", async () => {
    const truth: Row[] = []
    for (const network of networks()) {
      const delegations = await fetchAll(get(`/v1/networks/${network}/delegators`), "delegators", { sortOrder: "asc" })
      const byNode = groupBy(
        delegations,
        (d) => String(d["nodeId"]),
        () => ({ delegations: 0, active: 0, activeDelegated: 0n }),
        (g, d) => {
          g.delegations += 1
          if (d["delegationStatus"] === "active") ((g.active += 1), (g.activeDelegated += big(d["amountDelegated"])))
        }
      )
      const top = [...byNode].sort(([a, x], [b, y]) => (x.delegations === y.delegations ? cmp(a, b) : y.delegations - x.delegations)).slice(0, 10)
      for (const [nodeId, g] of top) {
        const validations = (await fetchAll(get(`/v1/networks/${network}/validators/${encodeURIComponent(nodeId)}`), "validators", { sortOrder: "asc" })).filter(
          (v) => v["subnetId"] === PRIMARY_NETWORK
        )
        const newest = validations.sort((a, b) => Number(b["startTimestamp"]) - Number(a["startTimestamp"]) || cmp(String(b["txHash"]), String(a["txHash"])))[0]
        truth.push({
          network,
          node_id: nodeId,
          delegations: String(g.delegations),
          active_delegations: String(g.active),
          active_delegated_navax: String(g.activeDelegated),
          validation_status: newest === undefined ? null : String(newest["validationStatus"]),
          staked_navax: newest === undefined ? null : String(big(newest["amountStaked"])),
          uptime_performance: newest === undefined ? null : ((newest["uptimePerformance"] as number | undefined) ?? null)
        })
      }
    }
    expect(truth.length).toBe(10 * networks().length)
    // the answer shows real uptimes, not only NULLs
    expect(truth.filter((t) => typeof t["uptime_performance"] === "number").length).toBeGreaterThan(5)
    expect(answers.get("validators_most_delegations")).toEqual(truth)
  })

  it("given route 10's blocks and route 5's daily txCount, when evm_daily_tx_count runs, then each chain's day shows the transactions of its blocks next to the metric", async () => {
    const truth: Row[] = []
    // the crawl fetched the metric for whole UTC months, from the month of the job's start to now
    const start = new Date(Number(job.metrics.startTimestamp) * 1000)
    const monthStart = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1) / 1000
    for (const chain of [...job.evmChains].sort(cmp)) {
      const blocks = await fetchAll(get(`/v1/chains/${chain}/blocks`), "blocks")
      const points = await fetchAll(`${emu.metricsUrl}/v2/chains/${chain}/metrics/txCount`, "results", {
        timeInterval: "day",
        startTimestamp: String(monthStart),
        endTimestamp: String(emu.clock.now())
      })
      const metric = new Map(points.map((p) => [day(p["timestamp"]), p["value"] as number]))
      const days = groupBy(blocks, (b) => day(b["blockTimestamp"]), () => ({ blocks: 0, txs: 0 }), (g, b) => ((g.blocks += 1), (g.txs += Number(b["txCount"]))))
      for (const [d, g] of [...days].sort(([a], [b]) => cmp(a, b))) {
        const m = metric.get(d) ?? null
        truth.push({ chain_id: chain, date: d, blocks: String(g.blocks), txs_from_blocks: String(g.txs), tx_count_metric: m, difference: m === null ? null : m - g.txs })
      }
    }
    expect(truth.length).toBeGreaterThan(20)
    expect(truth.filter((t) => t["tx_count_metric"] !== null).length).toBeGreaterThan(20)
    expect(answers.get("evm_daily_tx_count")).toEqual(truth)
  })

  it("given the job's address sets' UTXOs as routes 2/3 list them, when utxo_balance_per_address runs, then each owner and asset holds the exact sum of its unspent outputs", async () => {
    const owned: Array<{ network: string; blockchain: string; address: string; assetId: string; symbol: string | null; amount: bigint; staked: boolean }> = []
    for (const set of job.addressSets) {
      const prefix = set.blockchain === "p-chain" ? "P" : "X"
      const utxos = await fetchAll(get(`/v1/networks/${set.network}/blockchains/${set.blockchain}/utxos`), "utxos", {
        addresses: set.addresses.join(","),
        includeSpent: "false",
        sortBy: "timestamp",
        sortOrder: "asc"
      })
      for (const u of utxos.filter((u) => u["consumingTxHash"] === undefined)) {
        const asset = (u["asset"] ?? {}) as Raw
        for (const a of u["addresses"] as string[]) {
          owned.push({
            network: set.network,
            blockchain: set.blockchain,
            address: `${prefix}-${a.replace(/^[PX]-/, "")}`,
            assetId: String(asset["assetId"] ?? u["assetId"]),
            symbol: (asset["symbol"] as string | undefined) ?? null,
            amount: big(asset["amount"] ?? u["amount"]),
            staked: u["staked"] === true
          })
        }
      }
    }
    const groups = groupBy(
      owned,
      (o) => [o.network, o.blockchain, o.address, o.assetId].join("\u0000"),
      (o) => ({ ...o, utxos: 0, balance: 0n, stakedAmount: 0n }),
      (g, o) => ((g.utxos += 1), (g.balance += o.amount), (g.stakedAmount += o.staked ? o.amount : 0n))
    )
    const truth: Row[] = [...groups]
      .sort(([a], [b]) => cmp(a, b))
      .map(([, g]) => ({
        network: g.network,
        blockchain: g.blockchain,
        address: g.address,
        asset_id: g.assetId,
        asset_symbol: g.symbol,
        utxos: String(g.utxos),
        balance: String(g.balance),
        staked: String(g.stakedAmount)
      }))
    expect(truth.length).toBeGreaterThan(5)
    expect(truth.some((t) => t["staked"] !== "0")).toBe(true)
    expect(answers.get("utxo_balance_per_address")).toEqual(truth)
  })

  it("given route 6's transfers of the job's token contracts, when token_transfer_volume_per_day runs, then each chain's day and token holds its transfers and the exact amount moved", async () => {
    const transfers: Array<{ chain: string; day: string; token: Raw; value: bigint | null }> = []
    for (const c of job.tokenContracts) {
      for (const t of await fetchAll(get(`/v1/chains/${c.chainId}/tokens/${c.address}/transfers`), "transfers")) {
        const token = (t["erc20Token"] ?? t["erc721Token"] ?? t["erc1155Token"]) as Raw
        transfers.push({ chain: String(c.chainId), day: day(t["blockTimestamp"]), token, value: t["value"] === undefined ? null : big(t["value"]) })
      }
    }
    const groups = groupBy(
      transfers,
      (t) => [t.chain, t.day, String(t.token["address"])].join("\u0000"),
      (t) => ({ ...t, transfers: 0, volume: null as bigint | null }),
      (g, t) => ((g.transfers += 1), t.value !== null && (g.volume = (g.volume ?? 0n) + t.value))
    )
    const truth: Row[] = [...groups]
      .sort(([a], [b]) => cmp(a, b))
      .map(([, g]) => ({
        chain_id: g.chain,
        date: g.day,
        token_address: String(g.token["address"]),
        erc_type: String(g.token["ercType"]),
        token_symbol: (g.token["symbol"] as string | undefined) ?? null,
        token_decimals: (g.token["decimals"] as number | undefined) ?? null,
        transfers: String(g.transfers),
        volume: g.volume === null ? null : String(g.volume)
      }))
    expect(new Set(truth.map((t) => t["erc_type"]))).toEqual(new Set(["ERC-20", "ERC-721", "ERC-1155"]))
    expect(answers.get("token_transfer_volume_per_day")).toEqual(truth)
  })
})
