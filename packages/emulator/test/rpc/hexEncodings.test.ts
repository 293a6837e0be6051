import { createHash } from "node:crypto"
import * as runtime from "@avalabs/avalanchejs"
import { beforeAll, describe, expect, it } from "vitest"
import { fromCb58 } from "../../src/world/primary/ids.ts"
import type { BlockRecord, TxRecord } from "../../src/world/primary/types.ts"
import { useNode, type Json } from "./support.ts"

interface Codec {
  PackPrefix(s: unknown): Uint8Array
  PackPrefixList(l: ReadonlyArray<unknown>): Uint8Array
}
interface SignedTx {
  readonly unsignedTx: { readonly baseTx: { readonly outputs: ReadonlyArray<{ amount(): bigint }> } }
  readonly credentials: ReadonlyArray<unknown>
}
const lib = runtime as unknown as {
  avaxSerial: { SignedTx: { fromBytes(b: Uint8Array, codec: Codec): [SignedTx, Uint8Array] } }
  utils: { getManagerForVM(vm: "AVM" | "PVM"): { getDefaultCodec(): Codec } }
}

/** The bytes of a node hex string, once its checksum is verified. */
const body = (hex: string): Buffer => {
  const all = Buffer.from(hex.replace(/^0x/, ""), "hex")
  const data = all.subarray(0, all.length - 4)
  expect(createHash("sha256").update(data).digest().subarray(-4).equals(all.subarray(-4))).toBe(true)
  return data
}

/** A cursor over block bytes. */
const reader = (b: Buffer) => {
  let at = 0
  return {
    u16: () => ((at += 2), b.readUInt16BE(at - 2)),
    u32: () => ((at += 4), b.readUInt32BE(at - 4)),
    u64: () => ((at += 8), b.readBigUInt64BE(at - 8)),
    bytes: (n: number) => ((at += n), b.subarray(at - n, at)),
    rest: () => b.subarray(at)
  }
}

const idBytes = (id: string): Buffer => Buffer.from(fromCb58(id) as Uint8Array)

/** Parses `count` signed txs (no codec version each) with avalanchejs; returns them and what is left. */
const parseTxs = (bytes: Uint8Array, count: number, vm: "AVM" | "PVM"): [SignedTx[], Uint8Array] => {
  const codec = lib.utils.getManagerForVM(vm).getDefaultCodec()
  const txs: SignedTx[] = []
  let rest = bytes
  for (let i = 0; i < count; i++) {
    const [tx, more] = lib.avaxSerial.SignedTx.fromBytes(rest, codec)
    txs.push(tx)
    rest = more
  }
  return [txs, rest]
}

const BLS_TYPES = new Set(["AddPermissionlessValidatorTx", "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx"])

describe("hex encodings", () => {
  const node = useNode()
  const xTxs = new Map<string, TxRecord>()
  let plainPBlock: BlockRecord
  let proposalBlock: BlockRecord

  beforeAll(() => {
    const { net } = node.current
    for (let h = 0n; h <= net.height("X"); h++) for (const tx of net.blockTxs("X", h)) if (!xTxs.has(tx.type)) xTxs.set(tx.type, tx)
    for (let h = 1n; h <= net.height("P"); h++) {
      const b = net.block("P", h)!
      const txs = net.blockTxs("P", h)
      if (b.blockType === "BanffProposalBlock") proposalBlock ??= b
      else if (b.blockType === "BanffStandardBlock" && txs.length > 1 && txs.every((t) => !BLS_TYPES.has(t.type))) plainPBlock ??= b
    }
  })

  it("given X-chain txs of every type, when fetched as hex, then avalanchejs parses them back into the same bytes with the json's amounts and credentials", async () => {
    const { net } = node.current
    const codec = lib.utils.getManagerForVM("AVM").getDefaultCodec()
    expect([...xTxs.keys()].sort()).toEqual(["BaseTx", "CreateAssetTx", "ExportTx", "ImportTx", "OperationTx"])
    for (const tx of xTxs.values()) {
      const hex = (await node.current.result("X", "avm.getTx", { txID: tx.id })).tx as string
      const json = (await node.current.result("X", "avm.getTx", { txID: tx.id, encoding: "json" })).tx as Json
      const bytes = body(hex)
      expect(bytes.readUInt16BE(0)).toBe(0)
      const [signed, rest] = lib.avaxSerial.SignedTx.fromBytes(bytes.subarray(2), codec)
      expect(rest.length, tx.type).toBe(0)
      expect(Buffer.concat([Buffer.alloc(2), codec.PackPrefix(signed.unsignedTx), codec.PackPrefixList(signed.credentials)]).equals(bytes)).toBe(true)
      expect(signed.credentials.length).toBe((json.credentials as unknown[]).length)
      const outputs = signed.unsignedTx.baseTx.outputs
      const jsonOutputs = ((json.unsignedTx as Json).outputs as Json[]).map((o) => (o.output as Json).amount)
      expect(outputs.map((o) => o.amount())).toEqual(jsonOutputs.map((a) => BigInt(a as number)))
      expect(net.tx(tx.id, "X")).toBeDefined()
    }
  })

  it("given an X-chain block, when fetched as hex, then it is a StandardBlock (type 20): parent, height, time, zero root, then its txs", async () => {
    const { net } = node.current
    const b = net.block("X", 9n)!
    const r = reader(body((await node.current.result("X", "avm.getBlockByHeight", { height: "9" })).block as string))
    expect([r.u16(), r.u32()]).toEqual([0, 20])
    expect(r.bytes(32).equals(idBytes(node.current.net.served.of(b.parentId)))).toBe(true)
    expect(r.u64()).toBe(9n)
    expect(r.u64()).toBe(BigInt(b.timestamp))
    expect(r.bytes(32).equals(Buffer.alloc(32))).toBe(true)
    const count = r.u32()
    expect(count).toBe(b.txIds.length)
    const [txs, rest] = parseTxs(r.rest(), count, "AVM")
    expect(txs).toHaveLength(count)
    expect(rest.length).toBe(0)
  })

  it("given a P-chain standard block without BLS material, when fetched as hex, then it is a BanffStandardBlock (type 32) whose txs avalanchejs parses", async () => {
    const b = plainPBlock
    const r = reader(body((await node.current.result("P", "platform.getBlockByHeight", { height: Number(b.height) })).block as string))
    expect([r.u16(), r.u32()]).toEqual([0, 32])
    expect(r.u64()).toBe(BigInt(b.timestamp))
    expect(r.bytes(32).equals(idBytes(node.current.net.served.of(b.parentId)))).toBe(true)
    expect(r.u64()).toBe(b.height)
    const count = r.u32()
    expect(count).toBe(b.txIds.length)
    const [, rest] = parseTxs(r.rest(), count, "PVM")
    expect(rest.length).toBe(0)
  })

  it("given a reward-only P-chain block, when fetched as hex, then it is a BanffProposalBlock (type 29) holding one RewardValidatorTx (type 20) of the rewarded tx", async () => {
    const { net } = node.current
    const b = proposalBlock
    const reward = net.blockTxs("P", b.height)[0]!
    const r = reader(body((await node.current.result("P", "platform.getBlock", { blockID: b.id })).block as string))
    expect([r.u16(), r.u32()]).toEqual([0, 29])
    expect(r.u64()).toBe(BigInt(b.timestamp))
    expect(r.u32()).toBe(0)
    expect(r.bytes(32).equals(idBytes(node.current.net.served.of(b.parentId)))).toBe(true)
    expect(r.u64()).toBe(b.height)
    expect(r.u32()).toBe(20)
    expect(r.bytes(32).equals(idBytes(node.current.net.served.of(reward.rewardedTxId as string)))).toBe(true)
    expect(r.u32()).toBe(0)
    expect(r.rest().length).toBe(0)
  })

  it("given P-chain txs with BLS keys, when their block is fetched as hex, then each tx carries its type id and the validator's public key bytes", async () => {
    const { net } = node.current
    for (let h = 1n; h <= net.height("P"); h++) {
      const tx = net.blockTxs("P", h).find((t) => t.type === "AddPermissionlessValidatorTx" && t.staking?.signer)
      if (!tx) continue
      const bytes = body((await node.current.result("P", "platform.getBlockByHeight", { height: Number(h) })).block as string)
      const key = Buffer.from((tx.staking?.signer?.publicKey as string).slice(2), "hex")
      const at = bytes.indexOf(key)
      expect(at).toBeGreaterThan(0)
      return
    }
    throw new Error("no permissionless validator tx on the P-chain")
  })
})
