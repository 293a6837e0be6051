/**
 * Helpers of the EVM tests: a world on a hand-driven clock, and the one place that maps the
 * seed's deliberate departures from the official OpenAPI back to the document's form before a
 * body is validated (the seed wins on the wire; everything else must match the document exactly).
 */
import type { Clock } from "../../src/http/contract.ts"
import { EvmWorld } from "../../src/world/evm/index.ts"

/** 2025-03-03 14:00 UTC, a Monday afternoon: partial day, week and month at the start. */
export const NOW = 1_741_010_400

export interface ManualClock extends Clock {
  set(t: number): void
}

export const manualClock = (start = NOW): ManualClock => {
  let t = start
  return {
    now: () => t,
    advance: (s) => {
      t += s
    },
    set: (v) => {
      t = v
    },
    tokenTimeMs: () => t * 1000
  }
}

export const makeEvm = (seed = 11, scale = 1, start = NOW): { evm: EvmWorld; clock: ManualClock } => {
  const clock = manualClock(start)
  return { evm: new EvmWorld({ seed, scale, clock, utxoChurn: false }), clock }
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * The seed's forms → the OpenAPI's, each checked on the way so a wrong seed form still fails:
 *  - Price {currencyCode, value}: value is a decimal string (seed) where the document says number;
 *  - crosschainMessageInfo/crosschainMessageId (seed's neutral word) ↔ teleporterMessageInfo/Id;
 *  - NFT metadata indexStatus "indexed" (seed: States) ↔ enum INDEXED;
 *  - Holder.sortKey integer (seed) ↔ string; route 18's nftCollectionName/nftSymbol string ↔ string[].
 */
export const toOfficialForm = (body: unknown): unknown => {
  if (Array.isArray(body)) return body.map(toOfficialForm)
  if (!isObject(body)) return body
  const out: Json = {}
  for (const [k, v] of Object.entries(body)) {
    if (k === "crosschainMessageInfo" && isObject(v)) {
      const { crosschainMessageId, ...rest } = v
      if (typeof crosschainMessageId !== "string") throw new Error("crosschainMessageId must be a string")
      out.teleporterMessageInfo = { teleporterMessageId: crosschainMessageId, ...rest }
    } else if (k === "indexStatus" && v === "indexed") out[k] = "INDEXED"
    else if (k === "sortKey") {
      if (!Number.isInteger(v)) throw new Error(`sortKey must be an integer, got ${JSON.stringify(v)}`)
      out[k] = String(v)
    } else if ((k === "nftCollectionName" || k === "nftSymbol") && typeof v === "string") out[k] = [v]
    else out[k] = toOfficialForm(v)
  }
  if (typeof out.currencyCode === "string" && "value" in out && Object.keys(out).length === 2) {
    if (typeof out.value !== "string" || !/^\d+(\.\d+)?$/.test(out.value)) throw new Error(`Price.value must be a decimal string, got ${JSON.stringify(out.value)}`)
    out.value = Number(out.value)
  }
  return out
}
