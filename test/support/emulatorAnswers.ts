/**
 * The emulator's own answers, read with plain fetch: the truth a crawl's rows are compared with,
 * through none of the product's clients.
 */
import type { RunningEmulator } from "@chainetl/emulator"
import { isSafeNumber, parse } from "lossless-json"

type Rec = Record<string, unknown>

let ids = 1

/** One JSON-RPC call to the node's X or P chain (throws on an error object). */
export const call = async (emu: RunningEmulator, chain: "X" | "P", method: string, params: Rec = {}): Promise<Rec> => {
  const res = await fetch(`${emu.nodeUrl}/ext/bc/${chain}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ids++, method, params })
  })
  const body = (await res.json()) as { result?: Rec; error?: Rec }
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return body.result as Rec
}

/** GET a chain-data route (throws on a status other than 2xx). */
export const getJson = async (emu: RunningEmulator, route: string): Promise<any> => {
  const res = await fetch(`${emu.baseUrl}${route}`)
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** Logical requests the emulator has served so far. */
export const served = (emu: RunningEmulator): number => emu.state().requests.total

/** Every page of a metrics-service list route, following nextPageToken. */
export const pages = async (url: string, items: string, query: Record<string, string> = {}): Promise<Array<Rec>> => {
  const bodies: Array<Rec> = []
  let token: string | undefined
  do {
    const u = new URL(url)
    for (const [k, v] of Object.entries({ ...query, ...(token ? { pageToken: token } : {}) })) u.searchParams.set(k, v)
    const res = await fetch(u)
    if (!res.ok) throw new Error(`${u}: ${res.status} ${await res.text()}`)
    // integers above 2^53 (holder balances) come back as bigint, exactly as the service wrote them
    const body = parse(await res.text(), null, (n) => (isSafeNumber(n) ? Number(n) : /^-?\d+$/.test(n) ? BigInt(n) : Number(n))) as Rec
    if (!Array.isArray(body[items])) throw new Error(`${u}: no ${items}`)
    bodies.push(body)
    token = body["nextPageToken"] as string | undefined
  } while (token)
  return bodies
}

export interface Point {
  readonly ts: number
  readonly value: number
}

/** A whole series of route 5 (no window), oldest first. */
export const series = async (emu: RunningEmulator, chain: string, metric: string, interval: string): Promise<Point[]> =>
  (await pages(`${emu.metricsUrl}/v2/chains/${chain}/metrics/${metric}`, "results", { timeInterval: interval, pageSize: "2160" }))
    .flatMap((b) => b["results"] as Array<{ timestamp: number; value: number }>)
    // a metric value is a JSON number (a double), however the lossless reader above hands it over
    .map((p) => ({ ts: p.timestamp, value: Number(p.value) }))
    .sort((a, b) => a.ts - b.ts)
