/** What the node dataset tests share: the emulator's own JSON-RPC answers, call counting, catalog reads. */
import { Effect } from "effect"
import * as path from "node:path"
import type { RunningEmulator } from "@chainetl/emulator"
import { defaultJob, type Job } from "../../../src/Job.ts"
import { JsonRpcClient, type JsonRpcClientService } from "../../../src/source/JsonRpcClient.ts"
import { nodeJobPart } from "../../support/emulatorJob/node.ts"
import { primaryJobPart } from "../../support/emulatorJob/primary.ts"
import { query } from "../../support/spine.ts"

export type Rec = Record<string, unknown>

/** The default job with the primary and node parts, address sets concatenated (as npm start's job). */
export const nodeJob = (emu: RunningEmulator, extra: Partial<Job> = {}): Job => {
  const primary = primaryJobPart(emu)
  const node = nodeJobPart(emu)
  return { ...defaultJob, ...primary, ...node, addressSets: [...(primary.addressSets ?? []), ...(node.addressSets ?? [])], ...extra }
}

let ids = 1

/** One JSON-RPC call with plain fetch: the emulator's own answer (throws on an error object). */
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

/** Calls the spine made, by method, with their params. */
export interface Calls {
  readonly log: Array<{ readonly method: string; readonly params: Rec }>
  count(method: string): number
}

export const newCalls = (): Calls => {
  const log: Array<{ method: string; params: Rec }> = []
  return { log, count: (method) => log.filter((c) => c.method === method).length }
}

/**
 * A runSpine `wrap` over the real JsonRpcClient: logs each call, and lets a test reshape calls
 * (`around`) — change params, fail some, rewrite results. The run already needs the client.
 */
export const overRpc =
  (calls: Calls, around?: (real: JsonRpcClientService["call"], chain: string, method: string, params: Rec) => ReturnType<JsonRpcClientService["call"]>) =>
  <A, E, R>(e: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.updateService(e, JsonRpcClient, (real) => ({
      call: (chain, method, params) => {
        calls.log.push({ method, params: params ?? {} })
        return around === undefined ? real.call(chain, method, params) : around(real.call, chain, method, params ?? {})
      }
    })) as Effect.Effect<A, E, R>

export const catalogOf = (out: string) => path.join(out, "catalog.duckdb")

/** DuckDB's type of each column of a view. */
export const columnTypes = async (out: string, view: string): Promise<Record<string, string>> =>
  Object.fromEntries((await query(catalogOf(out), `DESCRIBE ${view}`)).map((r) => [String(r["column_name"]), String(r["column_type"])]))

/** Columns of a view whose comment is empty. */
export const uncommented = async (out: string, view: string): Promise<string[]> =>
  (await query(catalogOf(out), `SELECT column_name, comment FROM duckdb_columns() WHERE table_name = '${view}'`))
    .filter((r) => typeof r["comment"] !== "string" || (r["comment"] as string).trim() === "")
    .map((r) => String(r["column_name"]))

export const rejectReasons = async (out: string, dataset: string): Promise<string[]> =>
  (await query(catalogOf(out), `SELECT reason FROM _rejects WHERE dataset = '${dataset}' ORDER BY reason`)).map((r) => String(r["reason"]))

/** Rows of a query, ordered by the text of `key` (byte order). */
export const rows = async (out: string, sql: string, key: (r: Rec) => string): Promise<Rec[]> =>
  (await query(catalogOf(out), sql)).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))

export const sortBy = <T>(xs: T[], key: (x: T) => string): T[] => xs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))

/** JSON text with bigints as strings (DuckDB's JS values hold bigints). */
export const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x)))
