/**
 * The official client library against the emulator: avalanchejs' AVMApi and PVMApi, pointed at
 * the emulator's base URL, call the methods they offer that the seed lists, and parse what comes
 * back without errors. (PVMApi.getHeight, getTx and getUTXOs call platform methods the seed does
 * not list, so the emulator does not serve them.)
 */
import * as runtime from "@avalabs/avalanchejs"
import { describe, expect, it } from "vitest"
import { useNode } from "./support.ts"

interface Utxo {
  ID(): string
  getAssetId(): string
}
interface AVMApi {
  getUTXOs(input: { addresses: ReadonlyArray<string>; limit?: number; startIndex?: { address: string; utxo: string }; sourceChain?: string }): Promise<{
    utxos: Utxo[]
    numFetched: number | string
    endIndex: { address: string; utxo: string }
    encoding: string
  }>
  getTx(p: { txID: string }): Promise<{ readonly unsignedTx: { readonly _type: symbol }; readonly credentials: ReadonlyArray<unknown>; getAllSignatures(): string[] }>
  getTxJson(p: { txID: string }): Promise<{ tx: { id: string }; encoding: string }>
  getTxStatus(p: { txID: string }): Promise<{ status: string }>
  getAssetDescription(assetID: string): Promise<{ assetID: string; name: string; symbol: string; denomination: number | string }>
  getTxFee(): Promise<{ txFee: bigint; createAssetTxFee: bigint }>
  getAllBalances(p: { address: string }): Promise<{ balances: Array<{ asset: string; balance: string }> }>
  getBalance(p: unknown): Promise<{ balance: string; utxoIDs: unknown[] }>
}
interface PVMApi {
  getCurrentValidators(p?: { subnetID?: string; nodeIDs?: string[] }): Promise<{ validators: Array<Record<string, unknown>> }>
  getCurrentSupply(): Promise<{ supply: string }>
  getBalance(p: { addresses: ReadonlyArray<string> }): Promise<{ balance: bigint; unlocked: bigint; lockedStakeable: bigint; lockedNotStakeable: bigint; utxoIDs: unknown[] }>
  getBlockchains(): Promise<{ blockchains: Array<{ id: string; name: string; subnetID: string; vmID: string }> }>
  getBlockchainStatus(id: string): Promise<{ status: string }>
}
const lib = runtime as unknown as {
  avm: { AVMApi: new (baseUrl: string) => AVMApi }
  pvm: { PVMApi: new (baseUrl: string) => PVMApi }
}

describe("avalanchejs clients against the emulator", () => {
  const node = useNode()

  it("given AVMApi, when getUTXOs pages a wallet, then it parses every UTXO into avalanchejs Utxo objects with the node's ids", async () => {
    const { net, emu } = node.current
    const api = new lib.avm.AVMApi(emu.nodeUrl)
    const set = net.addressSets()[0]!
    const first = await api.getUTXOs({ addresses: set.x, limit: 10 })
    const second = await api.getUTXOs({ addresses: set.x, limit: 10, startIndex: first.endIndex })
    const expected = new Set(net.utxos("X", set.addresses, { view: "node" }).map((u) => net.utxoId(u)))
    expect(first.utxos).toHaveLength(10)
    for (const u of [...first.utxos, ...second.utxos]) expect(expected.has(u.ID())).toBe(true)
    expect(new Set([...first.utxos, ...second.utxos].map((u) => u.ID())).size).toBe(first.utxos.length + second.utxos.length)
    expect(first.encoding).toBe("hex")
  })

  it("given AVMApi, when getTx fetches txs of every X-chain type, then it unpacks each hex into a SignedTx with its signatures", async () => {
    const { net, emu } = node.current
    const api = new lib.avm.AVMApi(emu.nodeUrl)
    const seen = new Set<string>()
    for (let h = 0n; h <= net.height("X") && seen.size < 4; h++) {
      for (const tx of net.blockTxs("X", h)) {
        if (seen.has(tx.type)) continue
        seen.add(tx.type)
        const signed = await api.getTx({ txID: tx.id })
        expect(signed.credentials.length, tx.type).toBe(tx.inputs.length + (tx.imported?.utxos.length ?? 0))
        expect(signed.getAllSignatures().every((s) => /^0x[0-9a-f]{130}$/.test(s))).toBe(true)
        expect((await api.getTxJson({ txID: tx.id })).tx.id).toBe(node.current.net.served.of(tx.id))
        expect(await api.getTxStatus({ txID: tx.id })).toEqual({ status: "Accepted" })
      }
    }
    expect(seen.size).toBe(4)
  })

  it("given AVMApi, when asking for the AVAX description, fees and balances, then the answers parse", async () => {
    const { net, emu } = node.current
    const api = new lib.avm.AVMApi(emu.nodeUrl)
    expect(await api.getAssetDescription("AVAX")).toMatchObject({ assetID: net.avaxAssetId, symbol: "AVAX" })
    expect(await api.getTxFee()).toEqual({ txFee: 1_000_000n, createAssetTxFee: 10_000_000n })
    const address = net.addressSets()[1]!.x[0]!
    const all = await api.getAllBalances({ address })
    const avax = all.balances.find((b) => b.asset === "AVAX")
    // AvaxApi.getBalance is typed with the P-chain's {addresses}; the avm method takes address and assetID
    expect((await api.getBalance({ address, assetID: "AVAX" })).balance).toBe(avax?.balance)
  })

  it("given PVMApi, when asking for validators, supply, balances, blockchains and a chain's status, then every answer parses", async () => {
    const { net, emu } = node.current
    const api = new lib.pvm.PVMApi(emu.nodeUrl)
    const { validators } = await api.getCurrentValidators()
    expect(validators.length).toBeGreaterThan(0)
    const one = await api.getCurrentValidators({ nodeIDs: [validators[0]!.nodeID as string] })
    expect(one.validators[0]).toMatchObject({ nodeID: validators[0]!.nodeID, delegators: expect.any(Array) })
    expect(BigInt((await api.getCurrentSupply()).supply)).toBe(net.supplyAt(net.now()))
    const balance = await api.getBalance({ addresses: net.addressSets()[0]!.p })
    expect(typeof balance.balance).toBe("bigint")
    expect(balance.unlocked + balance.lockedStakeable + balance.lockedNotStakeable).toBe(balance.balance)
    const { blockchains } = await api.getBlockchains()
    expect(blockchains.map((c) => c.id)).toContain(net.blockchainIds.X)
    expect(await api.getBlockchainStatus(net.blockchainIds.C)).toEqual({ status: "Validating" })
  })
})
