/**
 * The emulator's P-chain json is the decoding of its own hex. avalanchego answers getBlock with
 * encoding json by json.Marshal of the block it parsed from those bytes, so the two encodings of
 * one block must say the same thing, key for key and in Go's order. src/decode/pvm was written
 * from avalanchego's types and checked against real mainnet blocks; holding every block of the
 * emulator's P-chain (every era, every type) to it keeps the emulator from inventing a shape.
 */
import { parse } from "lossless-json"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decodePBlock, pBytesFromNodeHex, type PBlock } from "../../../src/decode/pvm/index.ts"
import { startEmulator, type RunningEmulator } from "@chainetl/emulator"

type Json = Record<string, unknown>

/** One in-process emulator for this file, its node network beside it. */
const useNode = () => {
  const holder = {} as { current: { emu: RunningEmulator; net: ReturnType<RunningEmulator["world"]["primary"]["network"]> } }
  beforeAll(async () => {
    const emu = await startEmulator({ port: 0 })
    holder.current = { emu, net: emu.world.primary.network(emu.options.nodeNetwork) }
  })
  afterAll(async () => {
    await holder.current?.emu.close()
  })
  return holder
}

/** Numbers of either side as their digits: the json's are Go's uint64/uint32, the decoder's bigint/number. */
const normal = (v: unknown): unknown => {
  if (typeof v === "bigint" || typeof v === "number") return String(v)
  if (v !== null && typeof v === "object" && "isLosslessNumber" in v) return String((v as unknown as { value: string }).value)
  if (Array.isArray(v)) return v.map(normal)
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normal(x)]))
  return v
}

/** The json avalanchego writes for a decoded block: its Go struct's fields in order (vms/platformvm/block). */
const goJson = (b: PBlock): Json => {
  const txs = b.txs.map((t) => ({ unsignedTx: t.unsignedTx, credentials: t.credentials, id: t.id }))
  const common = { parentID: b.parentID, height: b.height, id: b.id }
  switch (b.type) {
    case "ApricotProposalBlock":
    case "ApricotAtomicBlock":
      return { ...common, tx: txs[0] }
    case "ApricotStandardBlock":
      return { ...common, txs }
    case "ApricotCommitBlock":
    case "ApricotAbortBlock":
      return common
    case "BanffProposalBlock":
      return { time: b.time, txs: txs.slice(0, -1), ...common, tx: txs[txs.length - 1] }
    case "BanffStandardBlock":
      return { time: b.time, ...common, txs }
    case "BanffCommitBlock":
    case "BanffAbortBlock":
      return { time: b.time, ...common }
  }
}

describe("the emulator's P-chain json against the decoding of its hex", () => {
  const node = useNode()

  it("given every block of the emulator's P-chain, when fetched as json and as hex, then the json is the decoded block key for key, and the decoded type is the block's", async () => {
    const { net } = node.current
    const seen = new Set<string>()
    for (let h = 0n; h <= net.height("P"); h++) {
      const call = async (encoding: "hex" | "json") => {
        const res = await fetch(`${node.current.emu.nodeUrl}/ext/bc/P`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "platform.getBlockByHeight", params: { height: Number(h), encoding } })
        })
        return ((parse(await res.text()) as Json).result as Json).block
      }
      const decoded = decodePBlock(pBytesFromNodeHex((await call("hex")) as string))
      expect(JSON.stringify(normal(await call("json"))), `height ${h}`).toBe(JSON.stringify(normal(goJson(decoded))))
      expect(decoded.type).toBe(net.block("P", h)?.blockType)
      expect(decoded.txs.map((t) => t.type)).toEqual(net.blockTxs("P", h).map((t) => t.type))
      seen.add(decoded.type)
      for (const t of decoded.txs) seen.add(t.type)
    }
    // every block type of both eras and every tx type the world issues were held to the codec
    expect(seen.size).toBe(9 + 20)
  })
})
