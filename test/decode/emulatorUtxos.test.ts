/**
 * The pipeline's UTXO decoder on the emulator's node answers: every hex UTXO avm.getUTXOs serves
 * reads back to the record REST route 2 gives for the same addresses (the emulator's own tests
 * read the hex with avalanchejs; this holds src/decode/utxo.ts to the same bytes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEmulator, type RunningEmulator } from "@chainetl/emulator"
import { decodeUtxoHex } from "../../src/decode/utxo.ts"

type Json = Record<string, unknown>

describe("the pipeline's UTXO decoder on the emulator's node", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 })
  })
  afterAll(async () => {
    await emu?.close()
  })

  const getUtxos = async (params: Json): Promise<string[]> => {
    const body = { jsonrpc: "2.0", id: 1, method: "avm.getUTXOs", params }
    const res = await fetch(`${emu.nodeUrl}/ext/bc/X`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    const doc = (await res.json()) as { result?: { utxos: string[] }; error?: unknown }
    if (doc.result === undefined) throw new Error(`avm.getUTXOs failed: ${JSON.stringify(doc.error)}`)
    return doc.result.utxos
  }
  const decodeAll = (hexes: ReadonlyArray<string>) => hexes.map((h) => decodeUtxoHex(h, "avax", "X"))

  it("given every hex UTXO, when decoded by the pipeline's decoder, then it agrees with REST route 2 for the same addresses, bytes included", async () => {
    const net = emu.world.primary.network(emu.options.nodeNetwork)
    for (const set of net.addressSets().slice(0, 3)) {
      const local = decodeAll(await getUtxos({ addresses: set.x }))
      const atomic = decodeAll(await getUtxos({ addresses: set.x, sourceChain: "P" }))
      const res = await fetch(`${emu.baseUrl}/v1/networks/mainnet/blockchains/${net.blockchainIds.X}/utxos?pageSize=1024`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ addresses: set.x.join(",") })
      })
      expect(res.status).toBe(200)
      const rest = ((await res.json()) as { utxos: Json[] }).utxos
      const restById = new Map(rest.map((u) => [String(u.utxoId), u]))
      const mine = [...local, ...atomic]
      expect(mine.length).toBe(rest.length)
      expect(mine.length).toBeGreaterThan(0)
      for (const u of mine) {
        const r = restById.get(u.utxoId)
        expect(r, u.utxoId).toBeDefined()
        const restAmount = (r?.amount ?? (r?.asset as Json | undefined)?.amount) as string
        expect(u.amount.toString()).toBe(restAmount)
        expect(u.txId).toBe(r?.txHash ?? r?.creationTxHash)
        expect(String(u.outputIndex)).toBe(String(r?.outputIndex))
        expect(u.addresses.map((a) => a.replace(/^X-/, "")).sort()).toEqual([...(r?.addresses as string[])].sort())
        expect(u.bytes).toBe(r?.utxoBytes)
        expect(u.outputType).toBe(7)
      }
    }
  })
})
