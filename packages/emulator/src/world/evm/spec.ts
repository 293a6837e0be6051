/**
 * The fixed description of each EVM chain of the world: ids, names, rates, and its system
 * contracts (token contracts, a CREATE2 factory, a messenger, a multicall, a dapp). Everything is
 * derived from the seed; only the two C-chains' ids are real (constants.ts).
 */
import { BLOCKCHAIN_ID, C_CHAIN_EVM_ID, PRIMARY_SUBNET_ID, type NetworkName } from "../constants.ts"
import { cb58 } from "./encoding.ts"
import { bigBelow, bytesOf, h32, intIn, saltOf } from "./hash.ts"

export type ErcType = "ERC-20" | "ERC-721" | "ERC-1155"

export interface TokenSpec {
  readonly ercType: ErcType
  readonly name: string
  readonly symbol: string
  /** ERC-20 only; NFTs have none. */
  readonly decimals: number
  /** Supply is split into lots that move whole (see tokens.ts); one lot per ERC-721 token. */
  readonly lots: number
  /** Step through the lots, coprime with `lots`, so consecutive events touch unrelated lots. */
  readonly stride: number
  /** Distinct token ids an ERC-1155 collection's lots are spread over. */
  readonly tokenIds: number
  /** Upper bound (exclusive) of one ERC-20 lot's amount; uint256-range for one token. */
  readonly lotMax: bigint
}

export type SystemRole = "token" | "factory" | "messenger" | "multicall" | "dapp"

export interface SystemContract {
  readonly index: number
  readonly role: SystemRole
  readonly name: string
  readonly token?: TokenSpec
}

export interface ChainSpec {
  /** Position in the world's chain list; part of every salt of the chain. */
  readonly ordinal: number
  readonly evmChainId: string
  readonly blockchainId: string
  readonly subnetId: string
  readonly network: NetworkName
  readonly isCChain: boolean
  readonly chainName: string
  readonly description: string
  readonly vmId: string
  readonly tokenName: string
  readonly tokenSymbol: string
  readonly tokenDescription: string
  /** Blocks before the clock's starting time at scale 1. */
  readonly blocksAtScale1: number
  /** Mean seconds between blocks at scale 1. */
  readonly gapAtScale1: number
  readonly txMean: number
  readonly txDaily: number
  readonly txWeekly: number
  readonly txNoise: number
  readonly gasLimit: bigint
  /** Mean base fee in wei. */
  readonly baseFeeWei: number
  readonly systems: ReadonlyArray<SystemContract>
  /** Funded accounts created right after the system contracts. */
  readonly genesisAccounts: number
  /** Blockchain id of the chain crosschain messages go to and come from. */
  readonly partnerBlockchainId: string
}

/** coreth's and subnet-evm's VM ids (public). */
const CORETH_VM_ID = "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6"
const SUBNET_EVM_VM_ID = "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy"

const L1_NAMES = ["Emberline", "Halcyon", "Quarrystone", "Tidewater", "Lanternfish", "Brightmoor", "Cobaltia", "Marrowgate"]
const TOKEN_WORDS = ["Orbit", "Fable", "Kestrel", "Nimbus", "Saffron", "Vortex", "Juniper", "Basalt", "Cinder", "Meridian", "Pollen", "Quartz"]

const coprimeStride = (lots: number, salt: number): number => {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
  let s = intIn(salt, Math.max(1, Math.floor(lots / 3)), Math.max(1, lots - 1), 1)
  while (gcd(s, lots) !== 1) s++
  return s
}

const tokenSpec = (seed: number, chain: number, i: number, ercType: ErcType, word: string, stable: boolean, huge: boolean): TokenSpec => {
  const salt = saltOf(seed, "token", chain, i)
  const lots = ercType === "ERC-721" ? intIn(salt, 60, 160, 2) : ercType === "ERC-1155" ? intIn(salt, 40, 90, 2) : intIn(salt, 24, 64, 2)
  const decimals = ercType === "ERC-20" ? (stable ? 6 : 18) : 0
  return {
    ercType,
    name: ercType === "ERC-20" ? (stable ? `${word} Dollar` : huge ? `${word} Inu` : `${word} Token`) : ercType === "ERC-721" ? `${word} Kin` : `${word} Relics`,
    symbol: (ercType === "ERC-20" ? (stable ? `${word.slice(0, 2)}USD` : huge ? `${word.slice(0, 3)}INU` : word.slice(0, 4)) : `${word.slice(0, 3)}${ercType === "ERC-721" ? "K" : "R"}`).toUpperCase(),
    decimals,
    lots,
    stride: coprimeStride(lots, salt),
    tokenIds: ercType === "ERC-1155" ? intIn(salt, 4, 12, 3) : 1,
    // the huge token's lots reach 2^230 so amounts only survive as exact decimal strings
    lotMax: huge ? 1n << 230n : stable ? 50_000_000_000_000n : 10n ** 24n
  }
}

const systemsOf = (seed: number, chain: number, isCChain: boolean): SystemContract[] => {
  const salt = saltOf(seed, "words", chain)
  const word = (k: number): string => TOKEN_WORDS[(h32(salt, k) + k * 5) % TOKEN_WORDS.length] as string
  const out: SystemContract[] = []
  const add = (role: SystemRole, name: string, token?: TokenSpec): void => {
    out.push(token ? { index: out.length, role, name, token } : { index: out.length, role, name })
  }
  // index 0 must be an ERC-20: its deployment mints to the faucet, the first use of the zero address
  const erc20 = isCChain ? 4 : 2
  for (let k = 0; k < erc20; k++) {
    const t = tokenSpec(seed, chain, out.length, "ERC-20", word(k), k === 1, k === 3)
    add("token", t.name, t)
  }
  for (let k = 0; k < (isCChain ? 3 : 2); k++) {
    const t = tokenSpec(seed, chain, out.length, "ERC-721", word(10 + k), false, false)
    add("token", t.name, t)
  }
  for (let k = 0; k < (isCChain ? 2 : 1); k++) {
    const t = tokenSpec(seed, chain, out.length, "ERC-1155", word(20 + k), false, false)
    add("token", t.name, t)
  }
  add("factory", "Create2 Deployer")
  add("messenger", "Crosschain Messenger")
  add("multicall", "Multicall3")
  add("dapp", `${word(30)} Router`)
  return out
}

const randomId = (seed: number, ...keys: ReadonlyArray<string | number>): string => cb58(bytesOf(saltOf(seed, "id"), 32, ...keys))

/** The chains of a world: C-chain mainnet and fuji, and one invented L1 on each network. */
export const chainSpecs = (seed: number): ChainSpec[] => {
  const idSalt = saltOf(seed, "l1-chain-id")
  const l1Name = (k: number): string => L1_NAMES[(h32(idSalt, k) + k) % L1_NAMES.length] as string
  const l1Id = (k: number): string => {
    // six digits, clear of the C-chains' 43113/43114
    return String(100_000 + (h32(idSalt, k, 7) % 800_000) + k)
  }
  const mainL1 = randomId(seed, "l1", 0)
  const fujiL1 = randomId(seed, "l1", 1)
  const nameMain = l1Name(0)
  let nameFuji = l1Name(1)
  if (nameFuji === nameMain) nameFuji = `${nameFuji} Testnet`
  const base = { genesisAccounts: 12 }
  return [
    {
      ...base,
      ordinal: 0,
      evmChainId: C_CHAIN_EVM_ID.mainnet,
      blockchainId: BLOCKCHAIN_ID.mainnet.C,
      subnetId: PRIMARY_SUBNET_ID,
      network: "mainnet",
      isCChain: true,
      chainName: "Avalanche (C-Chain)",
      description: "The Contract Chain on Avalanche's primary network supports EVM compatibility and is used to deploy and interact with smart contracts.",
      vmId: CORETH_VM_ID,
      tokenName: "Avalanche",
      tokenSymbol: "AVAX",
      tokenDescription: "AVAX is the native utility token of Avalanche.",
      blocksAtScale1: 1600,
      gapAtScale1: 1134,
      txMean: 7,
      txDaily: 3,
      txWeekly: 1,
      txNoise: 2,
      gasLimit: 15_000_000n,
      baseFeeWei: 25_000_000_000,
      systems: systemsOf(seed, 0, true),
      partnerBlockchainId: mainL1
    },
    {
      ...base,
      ordinal: 1,
      evmChainId: C_CHAIN_EVM_ID.fuji,
      blockchainId: BLOCKCHAIN_ID.fuji.C,
      subnetId: PRIMARY_SUBNET_ID,
      network: "fuji",
      isCChain: true,
      chainName: "Avalanche Fuji (C-Chain)",
      description: "The Contract Chain on Avalanche's test network.",
      vmId: CORETH_VM_ID,
      tokenName: "Avalanche",
      tokenSymbol: "AVAX",
      tokenDescription: "AVAX is the native utility token of Avalanche.",
      blocksAtScale1: 1100,
      gapAtScale1: 2200,
      txMean: 4,
      txDaily: 1.5,
      txWeekly: 0.5,
      txNoise: 1,
      gasLimit: 15_000_000n,
      baseFeeWei: 25_000_000_000,
      systems: systemsOf(seed, 1, true),
      partnerBlockchainId: fujiL1
    },
    {
      ...base,
      ordinal: 2,
      evmChainId: l1Id(0),
      blockchainId: mainL1,
      subnetId: randomId(seed, "subnet", 0),
      network: "mainnet",
      isCChain: false,
      chainName: `${nameMain} L1`,
      description: `${nameMain} is an Avalanche L1 for on-chain games.`,
      vmId: SUBNET_EVM_VM_ID,
      tokenName: `${nameMain} Gas`,
      tokenSymbol: nameMain.slice(0, 3).toUpperCase(),
      tokenDescription: `The gas token of ${nameMain}.`,
      blocksAtScale1: 900,
      gapAtScale1: 1536,
      txMean: 5,
      txDaily: 2,
      txWeekly: 0.5,
      txNoise: 1.5,
      gasLimit: 20_000_000n,
      baseFeeWei: 1_000_000_000,
      systems: systemsOf(seed, 2, false),
      partnerBlockchainId: BLOCKCHAIN_ID.mainnet.C
    },
    {
      ...base,
      ordinal: 3,
      evmChainId: l1Id(1),
      blockchainId: fujiL1,
      subnetId: randomId(seed, "subnet", 1),
      network: "fuji",
      isCChain: false,
      chainName: `${nameFuji} Testnet L1`,
      description: `Test network of the ${nameFuji} L1.`,
      vmId: SUBNET_EVM_VM_ID,
      tokenName: `${nameFuji} Test Gas`,
      tokenSymbol: `T${nameFuji.slice(0, 3).toUpperCase()}`,
      tokenDescription: `Test gas token of ${nameFuji}.`,
      blocksAtScale1: 600,
      gapAtScale1: 2016,
      txMean: 3,
      txDaily: 1,
      txWeekly: 0.25,
      txNoise: 0.75,
      gasLimit: 16_000_000n,
      baseFeeWei: 1_000_000_000,
      systems: systemsOf(seed, 3, false),
      partnerBlockchainId: BLOCKCHAIN_ID.fuji.C
    }
  ]
}

/** Exact amount of one ERC-20 lot. */
export const lotAmount = (seed: number, chain: number, system: number, token: TokenSpec, lot: number): bigint =>
  token.ercType === "ERC-721" ? 1n : token.ercType === "ERC-1155" ? BigInt(1 + (h32(saltOf(seed, "lot", chain, system), lot) % 40)) : 1n + bigBelow(saltOf(seed, "lot", chain, system), token.lotMax, lot)
