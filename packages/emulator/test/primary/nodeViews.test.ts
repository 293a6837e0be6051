import { describe, expect, it } from "vitest"
import { AVAX_ASSET_ID, BLOCKCHAIN_ID, PRIMARY_SUBNET_ID, SECP256K1_FX_ID } from "../../src/world/constants.ts"
import { avax } from "../../src/world/primary/avax.ts"
import type { TxRecord } from "../../src/world/primary/index.ts"
import { encodeBlock, encodeTx } from "../../src/world/primary/codec/encodings.ts"
import { makeWorld } from "./support.ts"

const world = makeWorld()
const net = world.primary.network("mainnet")

const findTx = (chain: "P" | "X", pick: (t: TxRecord) => boolean): TxRecord => {
  for (let h = Number(net.height(chain)); h >= 0; h--) {
    const t = net.blockTxs(chain, BigInt(h)).find(pick)
    if (t) return t
  }
  throw new Error("no such tx")
}

const checksumOk = (hex: string): boolean => {
  const all = avax.utils.hexToBuffer(hex)
  return avax.utils.bufferToHex(avax.utils.addChecksum(all.subarray(0, all.length - 4))) === hex
}

describe("node-shaped answers of the primary-network world (what avm.* and platform.* return)", () => {
  it("given an X-chain export, when encoded as json, then it has the node's unsignedTx fields, one credential per input and its id", () => {
    const tx = findTx("X", (t) => t.type === "ExportTx")
    const json = encodeTx(net, tx, "json") as any
    expect(Object.keys(json)).toEqual(["unsignedTx", "credentials", "id"])
    expect(json.id).toBe(tx.id)
    expect(json.unsignedTx).toMatchObject({ networkID: 1, blockchainID: BLOCKCHAIN_ID.mainnet.X, destinationChain: BLOCKCHAIN_ID.mainnet.P, memo: "0x" })
    expect(json.unsignedTx.exportedOutputs[0]).toMatchObject({ assetID: AVAX_ASSET_ID.mainnet, fxID: SECP256K1_FX_ID })
    // formatted with the exporting chain's context (secp256k1fx formatAddress), as on a real node
    expect(json.unsignedTx.exportedOutputs[0].output.addresses[0]).toMatch(/^X-avax1/)
    expect(json.credentials).toHaveLength(json.unsignedTx.inputs.length)
    expect(json.credentials[0]).toEqual({ fxID: SECP256K1_FX_ID, credential: { signatures: [expect.stringMatching(/^0x[0-9a-f]{130}$/)] } })
    expect(typeof json.unsignedTx.inputs[0].input.amount).toBe("bigint")
  })

  it("given a P-chain standard block, when encoded as json and hex, then json has parentID, height and txs, and hex carries the node's checksum", () => {
    let h = net.height("P") - 3n
    while (net.block("P", h)?.blockType !== "BanffStandardBlock") h--
    const b = net.block("P", h)!
    const json = encodeBlock(net, b, "json") as any
    expect([json.parentID, json.height, json.txs.length]).toEqual([net.block("P", h - 1n)?.id, h, b.txIds.length])
    expect(json.txs[0]).toHaveProperty("unsignedTx")
    const hex = encodeBlock(net, b, "hex") as string
    expect(hex).toMatch(/^0x[0-9a-f]+$/)
    expect(checksumOk(hex)).toBe(true)
    expect(encodeBlock(net, b, "hex")).toBe(hex)
  })

  it("given a validator tx and a reward tx, when encoded as json, then they carry the validator, stake and owners, or the rewarded tx id", () => {
    const add = findTx("P", (t) => t.type === "AddPermissionlessValidatorTx")
    const json = encodeTx(net, add, "json") as any
    expect(json.unsignedTx.validator).toEqual({ nodeID: add.staking?.nodeId, start: BigInt(add.staking!.start), end: BigInt(add.staking!.end), weight: add.staking?.weight })
    expect(json.unsignedTx.subnetID).toBe(PRIMARY_SUBNET_ID)
    expect(json.unsignedTx.stake.map((o: any) => o.output.amount).reduce((a: bigint, b: bigint) => a + b, 0n)).toBe(add.staking?.weight)
    expect(json.credentials[0]).toEqual({ signatures: [expect.stringMatching(/^0x/)] })
    const reward = findTx("P", (t) => t.type === "RewardValidatorTx")
    expect(encodeTx(net, reward, "json")).toEqual({ unsignedTx: { txID: reward.rewardedTxId }, credentials: [], id: reward.id })
    expect(checksumOk(encodeTx(net, add, "hex") as string)).toBe(true)
  })

  it("given ids, when their status is asked, then revealed txs are Accepted and hidden or foreign ones Unknown", () => {
    const tx = findTx("X", () => true)
    expect(net.txStatus(tx.id, "X")).toBe("Accepted")
    expect(net.txStatus(tx.id, "P")).toBe("Unknown")
    expect(net.txStatus(net.ctx.id(1, 999_999), "P")).toBe("Unknown")
    expect(world.primary.network("fuji").tx(tx.id)).toBeUndefined()
  })

  it("given the assets, when described, then AVAX and the created minted assets have names, symbols and denominations", () => {
    expect(net.asset(AVAX_ASSET_ID.mainnet)).toEqual({ assetId: AVAX_ASSET_ID.mainnet, name: "Avalanche", symbol: "AVAX", denomination: 9 })
    const minted = net.assetList().slice(1)
    expect(minted.length).toBeGreaterThanOrEqual(2)
    for (const a of minted) {
      expect(net.tx(a.assetId, "X")?.type).toBe("CreateAssetTx")
      expect(a.symbol).toMatch(/^[A-Z]{3,4}$/)
    }
    expect(net.txFee()).toEqual({ txFee: 1_000_000n, createAssetTxFee: 10_000_000n })
  })

  it("given an address set, when balances are asked, then they sum the node's UTXOs and split locked from unlocked", () => {
    const set = net.addressSets()[0]!
    const utxos = net.utxos("P", set.addresses, { view: "node" })
    const b = net.balances("P", set.addresses)
    const total = utxos.reduce((s, u) => s + u.amount, 0n)
    expect(b.balances[AVAX_ASSET_ID.mainnet]).toBe(total)
    const parts = (b.unlocked[AVAX_ASSET_ID.mainnet] ?? 0n) + (b.lockedStakeable[AVAX_ASSET_ID.mainnet] ?? 0n) + (b.lockedNotStakeable[AVAX_ASSET_ID.mainnet] ?? 0n)
    expect(parts).toBe(total)
    expect(b.utxoIDs).toHaveLength(utxos.length)
    // the node lists neither staked outputs nor spent ones
    const now = world.options.clock.now()
    for (const u of utxos) {
      expect(u.spent === undefined || u.spent.block.timestamp > now).toBe(true)
      expect(u.listed!.timestamp).toBeLessThanOrEqual(now)
    }
  })

  it("given the chains, when listed and their status asked, then X, C and the created L1 chains are listed and only the primary ones validated", () => {
    const chains = net.blockchains()
    expect(chains.slice(0, 2).map((c) => c.id)).toEqual([BLOCKCHAIN_ID.mainnet.X, BLOCKCHAIN_ID.mainnet.C])
    expect(chains.length).toBeGreaterThan(2)
    expect(net.blockchainStatus(BLOCKCHAIN_ID.mainnet.X)).toBe("Validating")
    expect(net.blockchainStatus(chains[2]!.id)).toBe("Created")
    expect(net.blockchainStatus(BLOCKCHAIN_ID.fuji.X)).toBe("Unknown")
  })

  it("given the supply, when asked for the primary network and an L1, then the primary supply grows with time and an unknown subnet has none", () => {
    const before = net.currentSupply()!
    const l1 = net.l1View.subnets()[0]!
    expect(net.currentSupply(l1.subnetId)).toBeGreaterThan(0n)
    expect(net.currentSupply(BLOCKCHAIN_ID.mainnet.X)).toBeUndefined()
    const w = makeWorld()
    const n = w.primary.network("mainnet")
    w.options.clock.advance(3600)
    expect(n.currentSupply()).toBeGreaterThan(before)
  })

  it("given an L1 subnet, when its current validators are asked, then active ones come with validation id, balance and owners, and node ids narrow the list", () => {
    const l1 = net.l1View.subnets().find((p) => net.l1View.validatorsOf(p).some((v) => v.state.active))!
    const vals = net.currentValidators(l1.subnetId) as ReadonlyArray<any>
    expect(vals.length).toBeGreaterThan(0)
    expect(Object.keys(vals[0])).toEqual(["validationID", "nodeID", "publicKey", "remainingBalanceOwner", "deactivationOwner", "startTime", "weight", "minNonce", "balance"])
    expect(vals[0].remainingBalanceOwner.addresses[0]).toMatch(/^P-avax1/)
    expect(net.currentValidators(l1.subnetId, [vals[0].nodeID])).toHaveLength(1)
    expect(net.currentValidators(undefined, ["NodeID-unknown"])).toEqual([])
  })

  it("given a registration tx, when its warp message is decoded by avalanchejs, then it is the P-chain's signed message for this network", () => {
    const reg = findTx("P", (t) => t.type === "RegisterL1ValidatorTx")
    const hex = net.signedWarpMessage(reg.id) as string
    const bytes = Buffer.from(hex, "hex")
    const manager = avax.pvmSerial.warp.getWarpManager()
    expect(bytes.subarray(0, 2).toString("hex")).toBe("0000")
    const warp = avax.pvmSerial.warp as unknown as { WarpMessage: { fromBytes(b: Uint8Array, c: unknown): [any, Uint8Array] } }
    const [msg, rest] = warp.WarpMessage.fromBytes(bytes.subarray(2), manager.getDefaultCodec())
    expect(rest.length).toBe(0)
    expect(msg.unsignedMessage.networkId.value()).toBe(1)
    expect(msg.unsignedMessage.sourceChainId.toString()).toBe(BLOCKCHAIN_ID.mainnet.P)
    expect(msg.signature.numOfSigners()).toBeGreaterThan(0)
    expect(net.signedWarpMessage(findTx("P", (t) => t.type === "BaseTx").id)).toBe("none")
  })
})
