import { beforeAll, describe, expect, it } from "vitest"
import { mapIdStrings, toWorld } from "../../src/http/servedIds.ts"
import { PRIMARY_SUBNET_ID } from "../../src/world/constants.ts"
import type { PrimaryNetwork, TxRecord, UtxoRecord } from "../../src/world/primary/index.ts"
import { parseAddress } from "../../src/world/primary/ids.ts"
import { decodeUtxoHex } from "../../src/world/primary/utxoCodec.ts"
import type { World } from "../../src/world/world.ts"
import { call, makeWorld, routeOf, walkPages } from "./support.ts"

let world: World
let net: PrimaryNetwork
const P = { network: "mainnet", blockchainId: "p-chain" }
/** The L1 txs route 4 lists: those behind the L1 validators active now. */
const L1_STAKING_TYPES = ["ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx", "IncreaseL1ValidatorBalanceTx"]

beforeAll(() => {
  world = makeWorld()
  net = world.primary.network("mainnet")
})

/** Route 4's txs named by world ids, as the other routes called here name them: route 4 names its served ids itself (RouteDef.namesServedIds). */
const stakingTxs = async (query: Record<string, string>): Promise<any[]> =>
  mapIdStrings((await walkPages(world, routeOf(4), P, query, "transactions")).flat(), toWorld(world.primary, "mainnet")) as any[]

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString("hex")
const bytesOfBech32 = (a: string): string => {
  const p = parseAddress(a)
  if (typeof p === "string") throw new Error(p)
  return hexOf(p.bytes)
}

/** Every UTXO record a tx declares, with where it sits. */
const declared = (tx: TxRecord): UtxoRecord[] => [...tx.outputs, ...(tx.stake ?? []), ...(tx.rewards ?? []), ...(tx.exported?.utxos ?? [])]
const consumed = (tx: TxRecord): UtxoRecord[] => [...tx.inputs, ...(tx.imported?.utxos ?? [])]

describe("cross-route consistency of the primary-network world", () => {
  it("given the active staking transactions of route 4, L1 ones included, when their blocks are read, then each sits in the P-chain block it names", async () => {
    const txs = await stakingTxs({ pageSize: "100" })
    expect(txs.length).toBeGreaterThan(20)
    expect(new Set(txs.map((t) => t.txType))).toEqual(new Set(["AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx", ...L1_STAKING_TYPES]))
    // route 12 once per block timestamp: several txs often share a block
    const blocksAt = new Map<number, any[]>()
    for (const t of txs) {
      const block = net.block("P", BigInt(t.blockNumber))
      expect(block?.txIds).toContain(t.txHash)
      expect([block?.id, block?.timestamp]).toEqual([t.blockHash, t.blockTimestamp])
      if (!blocksAt.has(t.blockTimestamp)) {
        blocksAt.set(t.blockTimestamp, (await walkPages(world, routeOf(12), P, { startTimestamp: String(t.blockTimestamp), endTimestamp: String(t.blockTimestamp) }, "blocks")).flat())
      }
      expect(blocksAt.get(t.blockTimestamp)?.find((b: any) => b.blockHash === t.blockHash)?.transactions, `${t.txType} ${t.txHash}`).toContain(t.txHash)
    }
  })

  it("given the L1 txs route 4 lists, when route 1 is asked for each, then the warp-carrying ones are signed (200) and top-ups, which carry none, are refused (400)", async () => {
    const txs = await stakingTxs({ pageSize: "100", txTypes: L1_STAKING_TYPES.join(",") })
    const signable = txs.filter((t) => t.txType !== "IncreaseL1ValidatorBalanceTx")
    expect(new Set(signable.map((t) => t.txType))).toEqual(new Set(["ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx"]))
    for (const t of signable) {
      const r = await call(world, routeOf(1), { network: "mainnet", txHash: t.txHash })
      expect([t.txType, r.status], t.txHash).toEqual([t.txType, 200])
      expect(r.body.signedMessage).toMatch(/^([0-9a-f]{2})+$/)
    }
    const topUp = txs.find((t) => t.txType === "IncreaseL1ValidatorBalanceTx")
    expect((await call(world, routeOf(1), { network: "mainnet", txHash: topUp.txHash })).status).toBe(400)
  })

  it("given the active L1 validators of route 13, when route 4 is listed, then each one's creating tx (conversion or registration) is there", async () => {
    const vals = (await walkPages(world, routeOf(13), { network: "mainnet" }, { pageSize: "100" }, "validators")).flat()
    expect(vals.length).toBeGreaterThan(5)
    const listed = new Set((await stakingTxs({ pageSize: "100", txTypes: "ConvertSubnetToL1Tx,RegisterL1ValidatorTx" })).map((t) => t.txHash))
    const creators = new Set(vals.map((v) => net.l1s.byValidationId(v.validationId)!.creationTxId))
    expect(listed).toEqual(creators)
  })

  it("given every P-chain block, when each of its transactions is looked up by id, then the lookup names the same block", () => {
    const h = Number(net.height("P"))
    net.prefetch("P", 0n, 150n)
    for (let x = 0; x <= h; x += 3) {
      const b = net.block("P", BigInt(x))
      for (const id of b?.txIds ?? []) expect(net.tx(id, "P")?.block.blockId).toBe(b?.id)
    }
  })

  it("given every node's validations (route 7), when their hashes are resolved, then each is a validator tx of that node and completed ones name their reward tx", async () => {
    let completed = 0
    for (const n of net.stakingView.nodes()) {
      const vals = (await walkPages(world, routeOf(7), { network: "mainnet", nodeId: n.nodeId }, { pageSize: "100" }, "validators")).flat()
      for (const v of vals) {
        const tx = net.tx(v.txHash, "P")
        expect(tx?.type).toMatch(/^Add(Permissionless)?ValidatorTx$/)
        expect([tx?.staking?.nodeId, tx?.staking?.start, tx?.staking?.end]).toEqual([n.nodeId, v.startTimestamp, v.endTimestamp])
        if (v.validationStatus === "completed") {
          completed++
          expect(net.tx(v.rewards.rewardTxHash, "P")?.rewardedTxId).toBe(v.txHash)
        }
      }
    }
    expect(completed).toBeGreaterThan(10)
  })

  it("given all delegators (route 8), when their node and tx are resolved, then the node validates through the whole delegation", async () => {
    const dels = (await walkPages(world, routeOf(8), { network: "mainnet" }, { pageSize: "100" }, "delegators")).flat()
    expect(dels.length).toBeGreaterThan(50)
    for (const d of dels) {
      const tx = net.tx(d.txHash, "P")
      expect(tx?.type).toMatch(/^Add(Permissionless)?DelegatorTx$/)
      const node = net.stakingView.node(d.nodeId)
      expect(node).toBeDefined()
      const host = net.stakingView.validationsOf(node!).find((v) => v.validation.start <= d.startTimestamp && d.endTimestamp <= v.validation.end)
      expect(host, `${d.txHash} outside its validator's periods`).toBeDefined()
    }
  })

  it("given all L1 validators (route 13), when their subnet and creating tx are resolved, then the subnet was created and converted on the P-chain", async () => {
    const vals = (await walkPages(world, routeOf(13), { network: "mainnet" }, { includeInactiveL1Validators: "true", pageSize: "100" }, "validators")).flat()
    expect(vals.length).toBeGreaterThan(5)
    for (const v of vals) {
      expect(net.tx(v.subnetId, "P")?.type).toBe("CreateSubnetTx")
      const l1 = net.l1s.bySubnetId(v.subnetId)
      expect(net.tx(l1!.conversionTxId, "P")?.type).toBe("ConvertSubnetToL1Tx")
      const record = net.l1s.byValidationId(v.validationId)
      expect(net.tx(record!.creationTxId, "P")?.block.timestamp).toBe(v.creationTimestamp)
    }
    expect(net.blockchains().some((b) => b.subnetID === vals[0].subnetId)).toBe(true)
  })

  it("given the EVM world's L1, when the P-chain is read, then its subnet and chain were created there and the chain is listed", () => {
    const l1 = world.evm.chains().find((c) => c.info.network === "mainnet" && !c.info.isCChain)
    expect(net.tx(l1!.info.subnetId, "P")?.type).toBe("CreateSubnetTx")
    expect(net.tx(l1!.info.blockchainId, "P")?.type).toBe("CreateChainTx")
    expect(net.blockchains().find((b) => b.id === l1!.info.blockchainId)?.subnetID).toBe(l1!.info.subnetId)
  })

  it("given a sample address set, when each listed UTXO's bytes are decoded by avalanchejs, then they give back the world's amount, owners, asset, tx and index", async () => {
    const set = net.addressSets()[2]!
    for (const [chain, addrs] of [["p-chain", set.p], ["x-chain", set.x]] as const) {
      const utxos = (await walkPages(world, routeOf(2, "POST"), { network: "mainnet", blockchainId: chain }, { includeSpent: "true", pageSize: "1024" }, "utxos", { addresses: addrs.join(",") })).flat()
      expect(utxos.length).toBeGreaterThan(10)
      for (const u of utxos) {
        const d = decodeUtxoHex(chain === "p-chain" ? "P" : "X", u.utxoBytes)
        const txHash = chain === "p-chain" ? u.txHash : u.creationTxHash
        const locktime = chain === "p-chain" ? u.platformLocktime : u.locktime
        expect({
          txId: d.txId,
          outputIndex: String(d.outputIndex),
          utxoId: d.utxoId,
          assetId: d.assetId,
          amount: d.amount.toString(),
          locktime: d.locktime,
          threshold: d.threshold,
          addresses: d.addresses.map(hexOf).sort()
        }).toEqual({
          // routes called in-process name the world's ids; the HTTP layer serves them as hashes, as the bytes do
          txId: net.served.of(txHash),
          outputIndex: String(u.outputIndex),
          utxoId: u.utxoId,
          assetId: net.served.of(u.asset.assetId),
          amount: u.asset.amount,
          locktime: BigInt(locktime),
          threshold: u.threshold,
          addresses: u.addresses.map(bytesOfBech32).sort()
        })
        if (chain === "p-chain") expect(d.stakeableLocktime).toBe(BigInt(u.stakeableLocktime))
      }
    }
  })

  it("given every address set of both networks, when each world UTXO's node hex is decoded by avalanchejs, then it gives back the record's fields", () => {
    const w = makeWorld(11)
    for (const name of ["mainnet", "fuji"] as const) {
      const n = w.primary.network(name)
      let count = 0
      for (const set of n.addressSets()) {
        for (const c of ["P", "X"] as const) {
          for (const u of n.utxos(c, set.addresses, { view: "rest", includeSpent: true })) {
            const d = decodeUtxoHex(u.consumedOn === "P" ? "P" : "X", n.utxoHex(u))
            // the bytes name the tx and asset by the ids a node serves (hashes of their bytes)
            expect([d.txId, d.outputIndex, d.assetId, d.amount, d.locktime, d.stakeableLocktime, d.threshold, d.addresses.map(hexOf).sort()]).toEqual([
              n.served.of(u.txId),
              u.outputIndex,
              n.served.of(u.assetId),
              u.amount,
              u.owners.locktime,
              u.stakeableLocktime,
              u.owners.threshold,
              u.owners.addresses.map(hexOf).sort()
            ])
            expect(d.utxoId).toBe(n.utxoId(u))
            count++
          }
        }
      }
      expect(count).toBeGreaterThan(500)
    }
  })

  it("given an address set's UTXOs, when their creating and consuming txs are read, then the txs declare and consume exactly those outputs", () => {
    const set = net.addressSets()[0]!
    const now = world.options.clock.now()
    for (const c of ["P", "X"] as const) {
      for (const u of net.utxos(c, set.addresses, { view: "rest", includeSpent: true })) {
        const key = `${u.txId}:${u.outputIndex}`
        const creator = net.tx(u.txId)
        // funding outside the generated history (genesis allocations) has no creating tx
        if (creator) expect(declared(creator).map((x) => `${x.txId}:${x.outputIndex}`)).toContain(key)
        else expect(u.created.height).toBe(0n)
        if (u.spent && u.spent.block.timestamp <= now) {
          const spender = net.tx(u.spent.txId)
          expect(consumed(spender!).map((x) => `${x.txId}:${x.outputIndex}`)).toContain(key)
          expect(spender?.block.blockId).toBe(u.spent.block.blockId)
        }
      }
    }
  })

  it("given exports never imported, when the node lists atomic UTXOs by source chain, then they are pending in shared memory", () => {
    const pending = (["P", "X"] as const).flatMap((c) => net.addressSets().flatMap((s) => net.utxos(c, s.addresses, { view: "node", sourceChain: c === "P" ? "X" : "P" })))
    expect(pending.length).toBeGreaterThan(0)
    for (const u of pending) {
      expect(u.createdOn).not.toBe(u.consumedOn)
      expect(net.tx(u.txId)?.exported?.utxos.map((x) => x.outputIndex)).toContain(u.outputIndex)
    }
  })

  it("given a future export that is imported two days later at most, when time reaches it and then its import, then it is pending in between and spent after", () => {
    const w = makeWorld()
    const n = w.primary.network("mainnet")
    const now = w.options.clock.now()
    let found: { ev: ReturnType<typeof n.wallets.event>; importAt: number } | undefined
    for (let wallet = 0; wallet < n.wallets.count && !found; wallet++) {
      for (let e = 0; e < 400 && !found; e++) {
        const ev = n.wallets.event(wallet, "P", e)
        const importAt = n.wallets.importTime(ev)
        if (ev.type === "ExportTx" && importAt !== undefined && ev.time > now + 3600) found = { ev, importAt }
      }
    }
    expect(found).toBeDefined()
    const { ev, importAt } = found!
    const owners = n.wallets.addresses(ev.wallet)
    const exportedIds = n.wallets.tx(ev).exported!.utxos.map((x) => `${x.txId}:${x.outputIndex}`)
    const pendingIds = (): string[] => n.utxos("X", owners, { view: "node", sourceChain: "P" }).map((x) => `${x.txId}:${x.outputIndex}`)
    w.options.clock.advance(ev.time + 1 - now)
    expect(pendingIds()).toEqual(expect.arrayContaining(exportedIds))
    w.options.clock.advance(Math.max(0, importAt + 60 - w.options.clock.now()))
    expect(pendingIds().filter((id) => exportedIds.includes(id))).toEqual([])
    const importTx = n.tx(n.wallets.importTxId(ev), "X")
    expect(importTx?.imported?.utxos.map((x) => `${x.txId}:${x.outputIndex}`)).toEqual(exportedIds)
  })

  it("given the node's current validators, when compared with route 7, then each is an active validation with the same stake and delegators inside it", async () => {
    const current = net.currentValidators() as ReadonlyArray<any>
    expect(current.length).toBeGreaterThan(10)
    for (const v of current.slice(0, 8)) {
      const page = await walkPages(world, routeOf(7), { network: "mainnet", nodeId: v.nodeID }, { validationStatus: "active" }, "validators")
      const active = page.flat()
      expect(active.map((a: any) => [a.txHash, a.amountStaked])).toEqual([[v.txID, v.weight]])
      for (const d of v.delegators) expect(Number(d.startTime)).toBeGreaterThanOrEqual(Number(v.startTime))
    }
    expect(net.currentValidators(PRIMARY_SUBNET_ID)).toEqual(current)
  })
})
