/**
 * Ids as a node computes them, held over HTTP against the bytes the emulator serves (parsed with
 * avalanchejs, hashed here): a block's id is cb58(sha256(block bytes)), a tx's cb58(sha256(signed
 * tx bytes)), a block's parent is the previous block's id, getBlock by id gives what getBlockByHeight
 * gave, and the REST routes name the same ids. Then one UTXO set: every output of the last X-chain
 * blocks' txs is a UTXO of its owners (avm.getUTXOs) or was consumed by an accepted tx that says so.
 */
import { createHash } from "node:crypto"
import * as runtime from "@avalabs/avalanchejs"
import { beforeAll, describe, expect, it } from "vitest"
import { decodeUtxoHex } from "../../src/world/primary/utxoCodec.ts"
import { useNode, type Json } from "./support.ts"

interface Codec {
  PackPrefix(s: unknown): Uint8Array
  PackPrefixList(l: ReadonlyArray<unknown>): Uint8Array
}
const lib = runtime as unknown as {
  avaxSerial: { SignedTx: { fromBytes(b: Uint8Array, codec: Codec): [unknown, Uint8Array] } }
  utils: {
    getManagerForVM(vm: "AVM" | "PVM"): { getDefaultCodec(): Codec }
    base58check: { encode(b: Uint8Array): string }
  }
}

const N = 12
/** Enough X-chain history (weeks, near the anchor) to hold wallet txs whose outputs were spent since. */
const UTXO_BLOCKS = 60
const cb58 = (b: Uint8Array): string => lib.utils.base58check.encode(b)
const sha256 = (b: Uint8Array): Uint8Array => createHash("sha256").update(b).digest()
const idOf = (b: Uint8Array): string => cb58(sha256(b))

/** The bytes of a node hex string, checksum verified and dropped. */
const body = (hex: string): Buffer => {
  const all = Buffer.from(hex.replace(/^0x/, ""), "hex")
  const data = all.subarray(0, all.length - 4)
  expect(Buffer.from(sha256(data).subarray(-4)).equals(all.subarray(-4))).toBe(true)
  return data
}

/** A block json's txs in block order: a BanffProposalBlock's decision `txs`, then its proposal `tx`. */
const jsonTxs = (json: Json): Json[] => [...((json.txs as Json[] | undefined) ?? []), ...(json.tx ? [json.tx as Json] : [])]

/** Banff commit and abort blocks: time, parent, height, no tx. */
const DECISION_BLOCKS = new Set([30, 31])

/** Splits the signed txs out of a block's bytes (each written without its codec version), as the node would. */
const txSlices = (block: Buffer, chain: "X" | "P"): Buffer[] => {
  const type = block.readUInt32BE(2)
  if (chain === "P" && DECISION_BLOCKS.has(type)) return []
  // X StandardBlock: version, type, parent, height, time, root; P standard: version, type, time, parent, height
  const header = chain === "X" ? 2 + 4 + 32 + 8 + 8 + 32 : type === 29 ? 2 + 4 + 8 + 4 + 32 + 8 : 2 + 4 + 8 + 32 + 8
  const count = type === 29 ? 1 : block.readUInt32BE(header)
  let rest: Uint8Array = block.subarray(type === 29 ? header : header + 4)
  const codec = lib.utils.getManagerForVM(chain === "X" ? "AVM" : "PVM").getDefaultCodec()
  const out: Buffer[] = []
  for (let i = 0; i < count; i++) {
    const [, more] = lib.avaxSerial.SignedTx.fromBytes(rest, codec)
    out.push(Buffer.from(rest.subarray(0, rest.length - more.length)))
    rest = more
  }
  expect(rest.length).toBe(0)
  return out
}

/** The parent id inside a block's bytes. */
const parentOf = (block: Buffer, chain: "X" | "P"): string => {
  const at = chain === "X" ? 6 : block.readUInt32BE(2) === 29 ? 2 + 4 + 8 + 4 : 2 + 4 + 8
  return cb58(block.subarray(at, at + 32))
}

/** Every UTXO (spent ones too) route 3 lists for some addresses, all pages. */
const restUtxos = async (baseUrl: string, alias: string, addresses: string[]): Promise<Json[]> => {
  const out: Json[] = []
  let token: string | undefined
  do {
    const q = new URLSearchParams({ includeSpent: "true", pageSize: "100", addresses: addresses.join(","), ...(token ? { pageToken: token } : {}) })
    const page = (await (await fetch(`${baseUrl}/v1/networks/mainnet/blockchains/${alias}/utxos?${q}`)).json()) as { utxos: Json[]; nextPageToken?: string }
    out.push(...page.utxos)
    token = page.nextPageToken
  } while (token)
  return out
}

const RPC = { X: { prefix: "avm", ext: "X" }, P: { prefix: "platform", ext: "P" } } as const

describe("ids a node would serve", () => {
  const node = useNode()
  const blocks: Record<"X" | "P", Array<{ height: bigint; id: string; bytes: Buffer; json: Json }>> = { X: [], P: [] }

  beforeAll(async () => {
    const { net } = node.current
    for (const chain of ["X", "P"] as const) {
      const top = net.height(chain)
      for (let h = top - BigInt(N) + 1n; h <= top; h++) {
        const method = `${RPC[chain].prefix}.getBlockByHeight`
        const hex = (await node.current.result(chain, method, { height: h.toString() })).block as string
        const json = (await node.current.result(chain, method, { height: h.toString(), encoding: "json" })).block as Json
        blocks[chain].push({ height: h, id: String(json.id), bytes: body(hex), json })
      }
    }
  })

  for (const chain of ["X", "P"] as const) {
    it(`given the last ${N} ${chain}-chain blocks as hex, when their bytes are hashed, then each id is cb58(sha256(bytes)) and each parent the previous block's id`, () => {
      for (const [i, b] of blocks[chain].entries()) {
        expect(idOf(b.bytes)).toBe(b.id)
        expect(b.json.parentID).toBe(parentOf(b.bytes, chain))
        if (i > 0) expect(parentOf(b.bytes, chain)).toBe(blocks[chain][i - 1]!.id)
      }
    })

    it(`given those ${chain}-chain blocks, when each is fetched again by its id, then it is the same block`, async () => {
      for (const b of blocks[chain]) {
        const again = (await node.current.result(chain, `${RPC[chain].prefix}.getBlock`, { blockID: b.id })).block as string
        expect(body(again).equals(b.bytes)).toBe(true)
      }
    })

    it(`given the txs inside those ${chain}-chain blocks, when their signed bytes are hashed, then each is the tx id the block and getTx name`, async () => {
      let txs = 0
      for (const b of blocks[chain]) {
        const ids = jsonTxs(b.json).map((t) => String(t.id))
        const slices = txSlices(b.bytes, chain)
        // the node hashes the signed tx with its codec version (0), which the block leaves out
        expect(slices.map((s) => idOf(Buffer.concat([Buffer.alloc(2), s])))).toEqual(ids)
        for (const id of ids) {
          const hex = (await node.current.result(chain, `${RPC[chain].prefix}.getTx`, { txID: id })).tx as string
          expect(idOf(body(hex))).toBe(id)
          txs++
        }
      }
      // every block but a commit block holds at least one
      expect(txs).toBeGreaterThanOrEqual(blocks[chain].filter((b) => jsonTxs(b.json).length > 0).length)
      expect(txs).toBeGreaterThan(N / 2)
    })
  }

  it("given route 12 on the X- and P-chain, when its newest blocks are listed, then their hashes and parents are the node's ids at the same heights", async () => {
    const { emu } = node.current
    for (const [chain, alias] of [["X", "x-chain"], ["P", "p-chain"]] as const) {
      const res = await fetch(`${emu.baseUrl}/v1/networks/mainnet/blockchains/${alias}/blocks?pageSize=${N}`)
      const listed = ((await res.json()) as { blocks: Json[] }).blocks
      const byHeight = new Map(blocks[chain].map((b) => [b.height.toString(), b]))
      let matched = 0
      for (const l of listed) {
        const b = byHeight.get(String(l.blockNumber))
        if (!b) continue
        expect([l.blockHash, l.parentHash, l.transactions]).toEqual([b.id, b.json.parentID, jsonTxs(b.json).map((t) => t.id)])
        matched++
      }
      expect(matched).toBeGreaterThan(N / 2)
    }
  })

  it("given route 4's staking txs and their UTXOs, when checked against the node, then every tx hash hashes its served bytes and every utxoId follows from its bytes", async () => {
    const { emu } = node.current
    const res = await fetch(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?pageSize=25`)
    const txs = ((await res.json()) as { transactions: Json[] }).transactions
    expect(txs.length).toBeGreaterThan(5)
    for (const t of txs) {
      const hex = (await node.current.result("P", "platform.getTx", { txID: t.txHash })).tx as string
      expect(idOf(body(hex))).toBe(t.txHash)
      const block = (await node.current.result("P", "platform.getBlock", { blockID: t.blockHash, encoding: "json" })).block as Json
      expect(jsonTxs(block).map((x) => x.id)).toContain(t.txHash)
      for (const u of [...(t.emittedUtxos as Json[]), ...(t.consumedUtxos as Json[])]) {
        const decoded = decodeUtxoHex("P", String(u.utxoBytes))
        expect([decoded.utxoId, decoded.txId]).toEqual([u.utxoId, u.txHash])
      }
    }
  })

  it(`given every output of the txs in the last ${UTXO_BLOCKS} X-chain blocks, when looked for, then it is a UTXO of its owners or was consumed by an accepted tx that names it`, async () => {
    const { emu, net } = node.current
    let listed = 0
    let consumed = 0
    const top = net.height("X")
    for (let h = top - BigInt(UTXO_BLOCKS) + 1n; h <= top; h++) {
      const b = (await node.current.result("X", "avm.getBlockByHeight", { height: h.toString(), encoding: "json" })).block as Json
      for (const tx of b.txs as Json[]) {
        const unsigned = tx.unsignedTx as Json
        const local = (unsigned.outputs as Json[]).map((o) => o.output as Json)
        const minted = ((unsigned.initialStates as Json[] | undefined) ?? []).flatMap((s) => s.outputs as Json[])
        const exported = ((unsigned.exportedOutputs as Json[] | undefined) ?? []).map((o) => o.output as Json)
        const outputs: Json[] = [...local, ...minted, ...exported.map((o) => ({ ...o, exported: true }))]
        expect(outputs.length).toBeGreaterThan(0)
        for (const [index, out] of outputs.entries()) {
          const addresses = out.addresses as string[]
          if (!out.exported) {
            const page = await node.current.result("X", "avm.getUTXOs", { addresses: addresses.map((a) => `X-${a.slice(2)}`) })
            const here = (page.utxos as string[]).map((h) => decodeUtxoHex("X", h)).find((d) => d.txId === tx.id && d.outputIndex === index)
            if (here) {
              expect(here.amount.toString()).toBe(String(out.amount))
              listed++
              continue
            }
          }
          // not a UTXO of the X-chain node (any more): the indexer shows it, and who consumed it
          const alias = out.exported ? "p-chain" : "x-chain"
          const known = (await restUtxos(emu.baseUrl, alias, addresses.map((a) => a.slice(2)))).find(
            (u) => (u.txHash ?? u.creationTxHash) === tx.id && Number(u.outputIndex) === index
          )
          expect(known, `${tx.id}:${index} is unknown to the indexer`).toBeDefined()
          if (out.exported && known!.consumingTxHash === undefined) {
            // exported and not imported yet: an atomic UTXO waiting in shared memory
            listed++
            continue
          }
          expect(known!.consumingTxHash, `${tx.id}:${index} is neither a UTXO nor consumed`).toBeDefined()
          const chain = out.exported ? "P" : "X"
          const spender = (await node.current.result(chain, `${RPC[chain].prefix}.getTx`, { txID: known!.consumingTxHash, encoding: "json" })).tx as Json
          const inputs = [...((spender.unsignedTx as Json).inputs as Json[]), ...(((spender.unsignedTx as Json).importedInputs as Json[] | undefined) ?? [])]
          expect(inputs.some((i) => i.txID === tx.id && Number(i.outputIndex) === index)).toBe(true)
          consumed++
        }
      }
    }
    expect(listed).toBeGreaterThan(0)
    expect(consumed).toBeGreaterThan(0)
  })
})
