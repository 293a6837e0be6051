/**
 * The direct encoders (codec/directTx.ts, blockBytes) against avalanchejs (TxBytes.codecBytes,
 * codecBlockBytes), the reference they replace on the hashing path: the same bytes for every block
 * and tx of a world's first heights on both networks, and block ids that hash those bytes.
 */
import { describe, expect, it } from "vitest"
import { sha256 } from "../../src/world/cb58.ts"
import { P_BLOCK_TYPE_ID, blockBytes, codecBlockBytes, parentBytes } from "../../src/world/primary/codec/blockBytes.ts"
import { writeTx } from "../../src/world/primary/codec/directTx.ts"
import { TxBytes } from "../../src/world/primary/codec/txBytes.ts"
import { Writer } from "../../src/world/primary/codec/writer.ts"
import { cb58 } from "../../src/world/primary/ids.ts"
import type { PrimaryNetwork } from "../../src/world/primary/index.ts"
import { makeWorld } from "./support.ts"

const P_BLOCK_TYPES = Object.keys(P_BLOCK_TYPE_ID)

/** The txs the direct encoder writes itself; every other type falls back to avalanchejs. */
const DIRECT_TX_TYPES = [
  "P:AdvanceTimeTx",
  "P:AddValidatorTx",
  "P:AddDelegatorTx",
  "P:AddPermissionlessValidatorTx",
  "P:AddPermissionlessDelegatorTx",
  "P:RewardValidatorTx",
  "P:BaseTx",
  "P:ImportTx",
  "P:ExportTx",
  "X:BaseTx",
  "X:ImportTx",
  "X:ExportTx"
]

/** Heights compared on each chain: every block up to here (or to the tip, if lower). */
const HEIGHTS = 3000

interface Seen {
  readonly blockTypes: Set<string>
  /** "P:AddValidatorTx" → whether the direct encoder wrote it (false: left to avalanchejs). */
  readonly txTypes: Map<string, boolean>
  blocks: number
}

const compareChain = (net: PrimaryNetwork, chain: "P" | "X", seen: Seen): void => {
  const ids = net.served.of
  const direct = new TxBytes(net, ids)
  const reference = new TxBytes(net, ids, false)
  const top = Math.min(HEIGHTS, Number(net.height(chain)))
  const blocks = net.chain(chain)
  for (let h = 0; h <= top; h++) {
    const txs = blocks.txs(h)
    const block = blocks.block(h)
    for (const tx of txs) {
      const expected = reference.bytes(tx)
      expect(Buffer.from(direct.bytes(tx)).toString("hex"), `${net.name} ${chain} ${tx.type} ${tx.id} at ${h}`).toBe(Buffer.from(expected).toString("hex"))
      seen.txTypes.set(`${chain}:${tx.type}`, writeTx(new Writer(), net, tx, ids))
    }
    const expected = codecBlockBytes(block, txs, reference, ids)
    expect(Buffer.from(blockBytes(blocks.header(h), parentBytes(block, ids), txs, direct)).toString("hex"), `${net.name} ${chain} block ${h} (${block.blockType})`).toBe(Buffer.from(expected).toString("hex"))
    expect(net.served.block(chain, h), `${net.name} ${chain} block ${h}'s served id`).toBe(cb58(sha256(expected)))
    seen.blockTypes.add(`${chain}:${block.blockType}`)
    seen.blocks++
  }
}

describe("the direct encoders write avalanchejs' bytes", () => {
  it.each(["mainnet", "fuji"] as const)("for every block and tx of %s's first P- and X-chain heights", (network) => {
    // given a world whose first heights hold the archive's Apricot blocks and the world's own Banff ones
    const net = makeWorld(7, 2).primary.network(network)
    const seen: Seen = { blockTypes: new Set(), txTypes: new Map(), blocks: 0 }

    // when each block and tx is encoded both ways
    compareChain(net, "P", seen)
    compareChain(net, "X", seen)

    // then every one agreed (above), over every block type and every tx type the world makes,
    // and the direct encoder itself wrote the common txs (the rest are avalanchejs' bytes)
    expect(seen.blocks).toBeGreaterThan(3300)
    expect([...seen.blockTypes].sort()).toEqual([...P_BLOCK_TYPES.map((t) => `P:${t}`), "X:StandardBlock"].sort())
    const direct = [...seen.txTypes].filter(([, d]) => d).map(([t]) => t)
    expect(direct.sort()).toEqual([...DIRECT_TX_TYPES].sort())
    expect(seen.txTypes.size).toBe(25)
  }, 300_000)
})
