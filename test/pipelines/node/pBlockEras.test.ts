/**
 * node_p_blocks over the emulator's whole P-chain, genesis to tip: every era's block and tx types
 * (Apricot proposal/commit/abort/standard/atomic blocks, Banff's, every tx type up to Etna) are
 * written once, typed by the codec, with the ids, parents, times and amounts the chain has.
 */
import * as avalanchejs from "@avalabs/avalanchejs"
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TIMELESS_DAY } from "../../../pipelines/node_p_blocks.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { PrimaryNetwork } from "@chainetl/emulator/world/primary"
import { decodePTx, pBytesFromNodeHex } from "../../../src/decode/pvm/index.ts"
import { cb58 } from "../../../src/decode/pvm/text.ts"
import { avalanchejsLeaves, decodedLeaves } from "../../decode/pvm/leaves.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { runSpine } from "../../support/spine.ts"
import { type Rec, rejectReasons, rows } from "../../support/catalogReads.ts"
import { call } from "../../support/emulatorAnswers.ts"
import { newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("pBlockEras")

/** avalanchejs' own parse of a signed P-chain tx (codec version included): an independent decoder. */
const pvm = (avalanchejs as unknown as { utils: { getManagerForVM(vm: "PVM"): { getCodecFromBuffer(b: Uint8Array): [unknown, Uint8Array] } } }).utils.getManagerForVM("PVM")
const { avaxSerial } = avalanchejs as unknown as { avaxSerial: { SignedTx: { fromBytes(b: Uint8Array, codec: unknown): [unknown, Uint8Array] } } }

describe("node_p_blocks over every era of the P-chain", () => {
  let emu: RunningEmulator
  let net: PrimaryNetwork
  let out: string
  let blocks: Rec[]
  let txs: Rec[]

  beforeAll(async () => {
    emu = await startEmulator({ seed: 5 })
    net = emu.world.primary.network("mainnet")
    out = await tempOut()
    const report = await Effect.runPromise(runSpine(out, emu, { job: nodeJob(emu, { nodePHeights: { from: "0" } }), datasets: ["node_p_blocks"] }, overRpc(newCalls())))
    expect(report.status).toBe("succeeded")
    blocks = await rows(
      out,
      `SELECT height::VARCHAR AS height, block_id, parent_id, block_type, epoch(block_timestamp)::BIGINT AS ts, date::VARCHAR AS date, tx_count FROM node_p_blocks`,
      (r) => String(r["height"]).padStart(20, "0")
    )
    txs = await rows(
      out,
      `SELECT height::VARCHAR AS height, t.tx_id, t.tx_type, t.node_id, t.subnet_id, t.rewarded_tx_id, t.weight::VARCHAR AS weight, t.other_fields,
              list_sum(list_transform(t.outputs, o -> o.amount))::VARCHAR AS paid, list_sum(list_transform(t.stake, o -> o.amount))::VARCHAR AS staked
       FROM (SELECT height, unnest(txs) AS t FROM node_p_blocks)`,
      (r) => `${String(r["height"]).padStart(20, "0")}${r["tx_id"]}`
    )
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the whole chain, when it is crawled, then every height is written once, with no reject, typed as the emulator built it and linked to its parent", async () => {
    const tip = Number(net.height("P"))
    expect(blocks.map((b) => Number(b["height"]))).toEqual(Array.from({ length: tip + 1 }, (_, h) => h))
    expect(await rejectReasons(out, "node_p_blocks")).toEqual([])
    for (const b of blocks) {
      const h = BigInt(String(b["height"]))
      const built = net.block("P", h)!
      expect([b["block_type"], b["block_id"], b["tx_count"]]).toEqual([built.blockType, net.served.of(built.id), built.txIds.length])
      if (h > 0n) expect(b["parent_id"]).toBe(blocks[Number(h) - 1]?.["block_id"])
    }
    expect(new Set(blocks.map((b) => b["block_type"])).size).toBe(9)
  })

  it("given Apricot blocks, whose bytes carry no time, when written, then their time is null and they are filed under the P-chain's genesis day; Banff blocks carry their own", () => {
    for (const b of blocks) {
      const built = net.block("P", BigInt(String(b["height"])))!
      if (String(b["block_type"]).startsWith("Apricot")) expect([b["ts"], b["date"]]).toEqual([null, TIMELESS_DAY])
      else expect([b["ts"], b["date"]]).toEqual([BigInt(built.timestamp), new Date(built.timestamp * 1000).toISOString().slice(0, 10)])
    }
  })

  it("given every tx of the chain, when written, then its type is the emulator's, its outputs and stake sum to the emulator's, and its node, subnet and rewarded tx are named", () => {
    const want = [...Array(Number(net.height("P")) + 1).keys()].flatMap((h) => net.blockTxs("P", BigInt(h)).map((t) => ({ h, t })))
    expect(txs).toHaveLength(want.length)
    const byId = new Map(txs.map((r) => [String(r["tx_id"]), r]))
    for (const { h, t } of want) {
      const row = byId.get(net.served.of(t.id))!
      expect([row["height"], row["tx_type"]]).toEqual([String(h), t.type])
      const paid = t.type === "CreateAssetTx" ? 0n : t.outputs.reduce((s, u) => s + u.amount, 0n)
      expect(row["paid"] === null ? 0n : BigInt(String(row["paid"]))).toBe(paid)
      expect(row["staked"] === null ? 0n : BigInt(String(row["staked"]))).toBe((t.stake ?? []).reduce((s, u) => s + u.amount, 0n))
      if (t.staking) expect([row["node_id"], row["weight"], row["subnet_id"]]).toEqual([t.staking.nodeId, String(t.staking.weight), t.type.startsWith("AddPermissionless") ? net.served.of(t.staking.subnetId) : null])
      if (t.subnet?.kind === "addValidator") expect([row["node_id"], row["weight"], row["subnet_id"]]).toEqual([t.subnet.nodeId, String(t.subnet.weight), net.served.of(t.subnet.subnetId)])
      if (t.type === "RewardValidatorTx") expect(row["rewarded_tx_id"]).toBe(net.served.of(t.rewardedTxId!))
      if (t.type === "AdvanceTimeTx") expect(JSON.parse(String(row["other_fields"]))).toEqual({ time: String(t.advanceTime) })
    }
    expect(new Set(txs.map((r) => r["tx_type"])).size).toBe(20)
  })

  it("given one tx of each type in the chain, when the node's bytes of it are parsed by avalanchejs, then every value on the wire is the one the row was made from, and the row's id hashes those bytes", async () => {
    const firstOfType = new Map<string, Rec>()
    for (const r of txs) if (!firstOfType.has(String(r["tx_type"]))) firstOfType.set(String(r["tx_type"]), r)
    // avalanchejs checks that BLS keys are curve points; the emulator's are random bytes of the right
    // size (as src/decode/pvm, like Go's codec, reads them): those types are held to the json instead
    // (test/decode/pvm/emulatorJson.test.ts)
    const bls = ["ConvertSubnetToL1Tx", "RegisterL1ValidatorTx"]
    for (const t of bls) firstOfType.delete(t)
    expect(firstOfType.size).toBe(20 - bls.length)
    for (const [type, row] of firstOfType) {
      const bytes = pBytesFromNodeHex(String((await call(emu, "P", "platform.getTx", { txID: row["tx_id"], encoding: "hex" }))["tx"]))
      expect(cb58(createHash("sha256").update(bytes).digest()), type).toBe(row["tx_id"])
      const [codec, rest] = pvm.getCodecFromBuffer(bytes)
      const [parsed, left] = avaxSerial.SignedTx.fromBytes(rest, codec)
      expect(left.length, type).toBe(0)
      const ours = decodePTx(bytes)
      expect(ours.type).toBe(type)
      expect(decodedLeaves({ u: ours.unsignedTx, c: ours.credentials }), type).toEqual(avalanchejsLeaves(parsed))
    }
  })
})
