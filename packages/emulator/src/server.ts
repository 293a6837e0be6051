/**
 * Starts the emulator: one plain node:http server (raw sockets are needed to inject resets) on one
 * port, serving the chain-data routes, the metrics routes and the node's JSON-RPC, whose paths do
 * not collide. Everything a run sees follows from the options: same options, same answers.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { World } from "./world/world.ts"
import type { Clock, RouteDef, RpcMethodDef } from "./http/contract.ts"
import { createClock } from "./http/clock.ts"
import { emulatorState } from "./http/admin.ts"
import { createRequestHandler } from "./http/dispatch.ts"
import { createTransientFaults } from "./http/faults.ts"
import { createRpcDispatcher } from "./http/jsonrpc.ts"
import { resolveEmulatorOptions, type EmulatorOptions, type EmulatorOptionsInput } from "./http/options.ts"
import { createPageTokenStore } from "./http/pageTokens.ts"
import { createRateLimiter } from "./http/rateLimit.ts"
import { createRouter } from "./http/router.ts"
import { createStats } from "./http/stats.ts"
import { routes as evmRoutes } from "./routes/evm.ts"
import { routes as metricsRoutes } from "./routes/metrics.ts"
import { routes as primaryRoutes } from "./routes/primary.ts"
import { methods as avmMethods } from "./rpc/avm.ts"
import { methods as platformMethods } from "./rpc/platform.ts"

export interface RunningEmulator {
  /** Chain-data REST service ({base_url} of the seed). */
  readonly baseUrl: string
  /** Metrics REST service ({metrics_url}). */
  readonly metricsUrl: string
  /** Node JSON-RPC ({node_url}); endpoints are nodeUrl + /ext/bc/X and /ext/bc/P. */
  readonly nodeUrl: string
  readonly port: number
  readonly clock: Clock
  readonly world: World
  readonly options: EmulatorOptions
  /** Moves network time forward (same as POST /_emulator/advance). */
  advance(seconds: number): void
  /** Same document as GET /_emulator/state. */
  state(): ReturnType<typeof emulatorState>
  /** With recordKeyArrivals: per API key, when each chain-data request with it arrived (ms, monotonic clock). */
  keyArrivals(): ReadonlyMap<string, ReadonlyArray<number>>
  /** Stops listening and drops open connections. */
  close(): Promise<void>
}

/** Test-only or experimental routes and methods served beside the official ones. */
export interface EmulatorExtras {
  readonly routes?: ReadonlyArray<RouteDef>
  readonly methods?: ReadonlyArray<RpcMethodDef>
}

export const startEmulator = async (input: EmulatorOptionsInput = {}, extra: EmulatorExtras = {}): Promise<RunningEmulator> => {
  const options = resolveEmulatorOptions(input)
  const clock = createClock(options.now)
  const world = new World({ seed: options.seed, scale: options.scale, clock, utxoChurn: options.utxoChurn })
  const stats = createStats()
  const handler = createRequestHandler({
    options,
    clock,
    world,
    router: createRouter([...primaryRoutes, ...evmRoutes, ...metricsRoutes, ...(extra.routes ?? [])]),
    rpc: createRpcDispatcher([...avmMethods, ...platformMethods, ...(extra.methods ?? [])], { world, clock }),
    limiter: createRateLimiter(),
    transient: createTransientFaults(options.faults),
    pageTokens: createPageTokenStore(clock, options.tokenTtlSeconds),
    stats
  })
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const hostForUrl = options.host.includes(":") ? `[${options.host}]` : options.host
  const url = `http://${hostForUrl}:${port}`
  let closing: Promise<void> | undefined
  return {
    baseUrl: url,
    metricsUrl: url,
    nodeUrl: url,
    port,
    clock,
    world,
    options,
    advance: (seconds) => clock.advance(seconds),
    state: () => emulatorState({ clock, options, stats }),
    keyArrivals: () => stats.keyArrivals,
    close: () => {
      // idempotent: a test's own close and its afterEach hook may both call it
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
      return closing
    }
  }
}

/** The lines to print when the emulator is up; pure, so the CLI and tests agree on them. */
export const describeEmulator = (running: Pick<RunningEmulator, "baseUrl" | "metricsUrl" | "nodeUrl" | "options" | "clock">): string[] => {
  const now = running.clock.now()
  return [
    `chain-data REST  ${running.baseUrl}`,
    `metrics REST     ${running.metricsUrl}`,
    `node JSON-RPC    ${running.nodeUrl}/ext/bc/X  ${running.nodeUrl}/ext/bc/P  (${running.options.nodeNetwork})`,
    `seed ${running.options.seed}  scale ${running.options.scale}  now ${now} (${new Date(now * 1000).toISOString()})`
  ]
}
