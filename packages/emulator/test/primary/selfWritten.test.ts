/**
 * The txs the hashing pass writes without their records (stakerAdds.ts: the staker adds,
 * backgroundTxs.ts: the background txs, walletWritten.ts: the wallets' txs and their imports)
 * against their records encoded by avalanchejs
 * (TxBytes.codecBytes): every slot of a world's P- and X-chain holds the same txs in the same order
 * either way, and each written tx's bytes are its record's.
 */
import { describe, expect, it } from "vitest"
import { TxBytes } from "../../src/world/primary/codec/txBytes.ts"
import { Kind } from "../../src/world/primary/ids.ts"
import { makeWorld } from "./support.ts"

describe("txs written without their records", () => {
  it.each(["mainnet", "fuji"] as const)("are the bytes of their records, in the same blocks, on %s", (network) => {
    // given a world's P- and X-chain, as records and as the hashing pass takes them
    const net = makeWorld(7, 2).primary.network(network)
    const ids = net.served.of
    const reference = new TxBytes(net, ids, false)
    const written = new Map<string, number>()
    let restaked = 0

    for (const chain of ["P", "X"] as const) for (let h = 0; h <= Number(net.height(chain)); h++) {
      if (chain === "P" && net.ctx.pLayout.at(h).kind !== "main") continue
      // when a slot's txs are taken both ways
      const records = net.chain(chain).txs(h)
      const hashed = net.chain(chain).hashTxs(h)

      // then they are the same txs in the same order, and each written one has its record's bytes
      expect(hashed.map((t) => t.id), `block ${h}`).toEqual(records.map((t) => t.id))
      hashed.forEach((t, i) => {
        if (!("signed" in t)) return
        const record = records[i]!
        expect(Buffer.from(t.signed(ids)).toString("hex"), `${t.type} ${t.id} at ${h}`).toBe(Buffer.from(reference.bytes(record)).toString("hex"))
        written.set(`${chain}:${t.type}`, (written.get(`${chain}:${t.type}`) ?? 0) + 1)
        if (record.inputs.length > 1) restaked++
      })
    }

    // over every kind of staker add and both chains' background and wallet txs, validations
    // re-staking their node's last stake among them
    expect([...written.keys()].sort()).toEqual([
      "P:AddDelegatorTx",
      "P:AddPermissionlessDelegatorTx",
      "P:AddPermissionlessValidatorTx",
      "P:AddValidatorTx",
      "P:BaseTx",
      "P:ExportTx",
      "P:ImportTx",
      "X:BaseTx",
      "X:ExportTx",
      "X:ImportTx"
    ])
    expect(restaked).toBeGreaterThan(10)
  })

  it("are the wallets' txs by locator, as hashing regenerates them out of their block's turn", () => {
    // given every wallet's first stream events on both chains and the imports of their exports
    const net = makeWorld(7, 2).primary.network("mainnet")
    const ids = net.served.of
    const reference = new TxBytes(net, ids, false)
    const kinds = [Kind.WalletPTx, Kind.WalletXTx, Kind.WalletImportPTx, Kind.WalletImportXTx]
    let compared = 0
    let none = 0

    for (const kind of kinds) for (let w = 0; w <= net.wallets.count; w++) for (let e = 0; e < 12; e++) {
      // when each is taken by its locator both ways
      const record = net.wallets.txByLocator(kind, w, e)
      const written = net.wallets.writtenByLocator(kind, w, e)

      // then both find the same tx (or both none: an export never imported, a wallet past the last) with the same bytes
      expect(written?.id, `kind ${kind} wallet ${w} event ${e}`).toBe(record?.id)
      if (record === undefined || written === undefined) {
        none++
        continue
      }
      expect(Buffer.from(written.signed(ids)).toString("hex"), `${record.type} ${record.id}`).toBe(Buffer.from(reference.bytes(record)).toString("hex"))
      compared++
    }
    expect(compared).toBeGreaterThan(300)
    expect(none).toBeGreaterThan(100)
  })
})
