/**
 * The emulator carries the real network constants as code (it reads no file at run time); they
 * must equal the official reference/network-constants.json they were copied from.
 */
import { describe, expect, it } from "vitest"
import {
  AVAX_ASSET_ID,
  AVAX_DENOMINATION,
  BECH32_HRP,
  BLOCKCHAIN_ID,
  C_CHAIN_EVM_ID,
  NETWORK_ID,
  PRIMARY_SUBNET_ID,
  SECP256K1_FX_ID
} from "@chainetl/emulator/world/constants"
import { readReferenceJson } from "../support/reference.ts"

interface Constants {
  readonly networkIds: Record<string, number>
  readonly bech32Hrp: Record<string, string>
  readonly evmChainIds: Record<string, string>
  readonly primaryNetworkSubnetId: string
  readonly blockchainIds: Record<string, { P: string; X: string; C: string }>
  readonly avaxAssetId: Record<string, string>
  readonly avaxDenomination: number
  readonly secp256k1FxId: string
}

describe("the emulator's network constants", () => {
  const ref = readReferenceJson<Constants>("network-constants.json")

  it.each(["mainnet", "fuji"] as const)("given the reference document, when %s's constants are compared, then every one is equal", (net) => {
    expect(NETWORK_ID[net]).toBe(ref.networkIds[net])
    expect(BECH32_HRP[net]).toBe(ref.bech32Hrp[net])
    expect(BLOCKCHAIN_ID[net]).toEqual(ref.blockchainIds[net])
    expect(AVAX_ASSET_ID[net]).toBe(ref.avaxAssetId[net])
    expect(C_CHAIN_EVM_ID[net]).toBe(ref.evmChainIds[`${net} C-chain`])
  })

  it("given the reference document, when the network-wide constants are compared, then they are equal", () => {
    expect(PRIMARY_SUBNET_ID).toBe(ref.primaryNetworkSubnetId)
    expect(AVAX_DENOMINATION).toBe(ref.avaxDenomination)
    expect(SECP256K1_FX_ID).toBe(ref.secp256k1FxId)
  })
})
