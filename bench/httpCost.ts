/**
 * What one request costs the client, CPU per request, over loopback (`npm run bench -- --http
 * [--requests N --repeat N]`): a server process answers every GET with the same 40 KB JSON page
 * (an `evm_blocks` page's shape), and a client process sends N requests one after another and
 * parses each body, as chainetl does. Three clients, each in a fresh process, interleaved, medians:
 *  - `chainetl`: our RestClient (Transport.ts on node:http, limiter, stats, retry, lossless parse);
 *  - `effect-platform`: @effect/platform's NodeHttpClient with the body read as a Stream under
 *    `Stream.timeoutFail`, what chainetl used before (kept to show why it was replaced);
 *  - `fetch`: Node's fetch + JSON.parse, what the plain script does.
 * Only the client process's CPU is counted; the server is another process.
 */
import { fork } from "node:child_process"
import * as http from "node:http"
import { fileURLToPath } from "node:url"
import { median } from "./median.ts"

const CLIENTS = ["chainetl", "effect-platform", "fetch"] as const
type Client = (typeof CLIENTS)[number]

/** A page like the service's: 100 blocks of ~400 bytes. */
const page = (): string =>
  JSON.stringify({
    nextPageToken: "eyJmIjoiOUN2VVBNM1hIYVJ0Zk1yY2ZzbXdhOSIsImMiOiI5OTkwMCJ9",
    blocks: Array.from({ length: 100 }, (_, i) => ({
      chainId: "43114",
      blockNumber: String(99_999 - i),
      blockTimestamp: 1_735_775_992 - i * 2,
      blockHash: `0x${"ca4bb9f6c917bbf0cd85f03b3732583ba3e56f91b662f41ebd96d88171ed83"}${String(i).padStart(2, "0")}`,
      txCount: 9,
      baseFee: "31563212034",
      gasUsed: "458226",
      gasLimit: "15000000",
      gasCost: "70000",
      parentHash: `0x${"309731c739ca9d9cf932c154e0b568c8ff71024dbb390ebebf64b983136fd0"}${String(i).padStart(2, "0")}`,
      feesSpent: "14888854483195861",
      cumulativeTransactions: "700213"
    }))
  })

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** In the client process: N requests with `client`, then the CPU they took, to the parent. */
const runClient = async (client: Client, url: string, n: number): Promise<number> => {
  if (client === "fetch") {
    const start = cpuMs()
    for (let i = 0; i < n; i++) JSON.parse(await (await fetch(`${url}/p?i=${i}`)).text())
    return cpuMs() - start
  }
  const { Effect, Stream } = await import("effect")
  if (client === "chainetl") {
    const { sourceLayerWith } = await import("../src/source/SourceLayer.ts")
    const { RestClient } = await import("../src/source/RestClient.ts")
    const layer = sourceLayerWith({ baseUrl: url, metricsUrl: url, nodeUrl: url, rateLimit: 1_000_000 })
    let start = 0
    await Effect.runPromise(
      Effect.gen(function* () {
        const rest = yield* RestClient
        start = cpuMs()
        for (let i = 0; i < n; i++) yield* rest.get("data", "/p", { i })
      }).pipe(Effect.provide(layer))
    )
    return cpuMs() - start
  }
  const { HttpClient, HttpClientRequest } = await import("@effect/platform")
  const { NodeHttpClient } = await import("@effect/platform-node")
  const { parseJson } = await import("../src/source/Response.ts")
  let start = 0
  await Effect.runPromise(
    Effect.gen(function* () {
      const c = yield* HttpClient.HttpClient
      start = cpuMs()
      for (let i = 0; i < n; i++) {
        const response = yield* c.execute(HttpClientRequest.get(`${url}/p?i=${i}`).pipe(HttpClientRequest.acceptJson))
        const chunks = yield* Stream.runCollect(response.stream.pipe(Stream.timeoutFail(() => "stalled", 30_000)))
        parseJson("bench", 200, Buffer.concat([...chunks]))
      }
    }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layer))
  )
  return cpuMs() - start
}

const flag = (args: ReadonlyArray<string>, name: string, fallback: number): number => {
  const i = args.indexOf(name)
  return i === -1 ? fallback : Number(args[i + 1])
}

const self = fileURLToPath(import.meta.url)

/** A child process running this file in `role`; resolves with its first message. */
const child = (role: string, args: ReadonlyArray<string>) => {
  const proc = fork(self, [role, ...args], { execArgv: ["--import", "tsx"] })
  const first = new Promise<unknown>((resolve, reject) => {
    proc.once("message", resolve)
    proc.once("exit", (code) => reject(new Error(`${role} exited ${code} before answering`)))
  })
  return { proc, first }
}

export const runHttpCost = async (args: ReadonlyArray<string>): Promise<void> => {
  const n = flag(args, "--requests", 1_000)
  const repeat = flag(args, "--repeat", 3)
  const server = child("--http-server", [])
  const port = (await server.first) as number
  const url = `http://127.0.0.1:${port}`
  const runs = new Map<Client, number[]>(CLIENTS.map((c) => [c, []]))
  try {
    for (let r = 0; r < repeat; r++) {
      // rotate the order each repeat, as the end-to-end bench does
      for (let k = 0; k < CLIENTS.length; k++) {
        const c = CLIENTS[(k + r) % CLIENTS.length]!
        const run = child("--http-client", [c, url, String(n)])
        runs.get(c)!.push((await run.first) as number)
        run.proc.kill()
      }
    }
  } finally {
    server.proc.kill()
  }
  console.log(`CPU per request, ${n} GETs of a ${(Buffer.byteLength(page()) / 1024).toFixed(0)} KB page over loopback, median of ${repeat}`)
  for (const c of CLIENTS) console.log(`  ${c.padEnd(16)} ${(median(runs.get(c)!) / n).toFixed(2)} ms`)
}

const role = process.argv[2]
if (role === "--http-server") {
  const body = page()
  http
    .createServer((_, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(body)
    })
    .listen(0, "127.0.0.1", function (this: http.Server) {
      process.send!((this.address() as { port: number }).port)
    })
} else if (role === "--http-client") {
  const [client, url, n] = process.argv.slice(3)
  process.send!(await runClient(client as Client, url!, Number(n)))
}
