/**
 * The chain-data service's JSON shapes of EVM records (seed: Resources; exact field sets from the
 * official OpenAPI). Numbers that are exact data go out as decimal strings.
 *
 * Where the seed and the OpenAPI differ, the seed is followed: Price.value is a string, the
 * transaction's crosschain part is `crosschainMessageInfo` / `crosschainMessageId`, and NFT
 * metadata's indexStatus is `indexed` (seed: States).
 */
import type { EvmChain } from "../chain.ts"
import type { ContractInfo, EvmBlock, EvmTransaction, NftTokenInfo, TokenRef, TokenTransfer } from "../types.ts"
import { priceOf, valueOf, type Currency } from "./price.ts"

type Json = Record<string, unknown>

const DAY = 86_400
const dayOf = (t: number): number => Math.floor(t / DAY)

export const logoOf = (symbol: string): string => `https://images.chainetl.example/tokens/${symbol.toLowerCase()}.svg`

export const blockJson = (b: EvmBlock): Json => ({
  chainId: b.chainId,
  blockNumber: b.blockNumber.toString(),
  blockTimestamp: b.blockTimestamp,
  blockHash: b.blockHash,
  txCount: b.txCount,
  baseFee: b.baseFee.toString(),
  gasUsed: b.gasUsed.toString(),
  gasLimit: b.gasLimit.toString(),
  gasCost: b.gasCost.toString(),
  parentHash: b.parentHash,
  feesSpent: b.feesSpent.toString(),
  cumulativeTransactions: b.cumulativeTransactions.toString()
})

/** RichAddress: token contracts carry their name, symbol, decimals and logo. */
export const richAddress = (chain: EvmChain, address: string): Json => {
  const t = chain.token(address)
  if (!t) return { address }
  return t.ercType === "ERC-20"
    ? { name: t.name, symbol: t.symbol, decimals: t.decimals, logoUri: logoOf(t.symbol), address }
    : { name: t.name, symbol: t.symbol, logoUri: logoOf(t.symbol), address }
}

export const erc20TokenJson = (chain: EvmChain, t: TokenRef, at: number): Json => ({
  address: t.address,
  name: t.name,
  symbol: t.symbol,
  decimals: t.decimals,
  logoUri: logoOf(t.symbol),
  ercType: "ERC-20",
  price: priceOf(chain.model.seed, t.symbol, dayOf(at), "usd")
})

const metadataJson = (n: NftTokenInfo, standard: "ERC-721" | "ERC-1155"): Json => {
  const common = {
    indexStatus: "indexed",
    metadataLastUpdatedTimestamp: n.metadata.lastUpdatedTimestamp,
    name: n.metadata.name,
    symbol: n.contract.symbol,
    imageUri: n.metadata.imageUri,
    description: n.metadata.description,
    animationUri: n.metadata.animationUri,
    externalUrl: n.metadata.externalUrl,
    background: n.metadata.background
  }
  return standard === "ERC-721" ? { ...common, attributes: n.metadata.attributes } : { ...common, decimals: 0, properties: n.metadata.attributes }
}

/** NftToken (route 15, and the token of ERC-721/1155 transfers). */
export const nftTokenJson = (n: NftTokenInfo): Json => {
  if (n.contract.ercType === "ERC-1155") {
    return { address: n.contract.address, ercType: "ERC-1155", tokenId: n.tokenId.toString(), tokenUri: n.tokenUri, metadata: metadataJson(n, "ERC-1155") }
  }
  return {
    address: n.contract.address,
    name: n.contract.name,
    symbol: n.contract.symbol,
    ercType: "ERC-721",
    tokenId: n.tokenId.toString(),
    tokenUri: n.tokenUri,
    metadata: metadataJson(n, "ERC-721"),
    ...(n.ownerAddress !== undefined ? { ownerAddress: n.ownerAddress } : {})
  }
}

const nftOf = (chain: EvmChain, t: TokenTransfer): NftTokenInfo => {
  const info = chain.nftToken(t.token.address, t.tokenId ?? 0n)
  if (!info) throw new Error(`NFT ${t.token.address} #${t.tokenId} transferred but not minted`)
  return info
}

/** A transfer inside a transaction detail (no block fields). */
export const transferDetailJson = (chain: EvmChain, t: TokenTransfer): Json => {
  const ends = { from: richAddress(chain, t.from), to: richAddress(chain, t.to), logIndex: t.logIndex }
  switch (t.token.ercType) {
    case "ERC-20":
      return { ...ends, value: t.value.toString(), erc20Token: erc20TokenJson(chain, t.token, t.blockTimestamp) }
    case "ERC-721":
      return { ...ends, erc721Token: nftTokenJson(nftOf(chain, t)) }
    case "ERC-1155":
      return { ...ends, value: t.value.toString(), erc1155Token: nftTokenJson(nftOf(chain, t)) }
  }
}

/** An item of route 6 (ERC transfer with its block and transaction). */
export const transferJson = (chain: EvmChain, t: TokenTransfer): Json => ({
  blockNumber: t.blockNumber.toString(),
  blockTimestamp: t.blockTimestamp,
  blockHash: t.blockHash,
  txHash: t.txHash,
  ...transferDetailJson(chain, t)
})

const networkTokenJson = (chain: EvmChain): Json => ({
  name: chain.info.networkToken.name,
  symbol: chain.info.networkToken.symbol,
  decimals: chain.info.networkToken.decimals,
  logoUri: logoOf(chain.info.networkToken.symbol),
  description: chain.info.networkToken.description
})

/** Route 11's body. */
export const transactionJson = (chain: EvmChain, tx: EvmTransaction): Json => {
  const seed = chain.model.seed
  const symbol = chain.info.networkToken.symbol
  const body: Json = {
    erc20Transfers: tx.tokenTransfers.filter((t) => t.token.ercType === "ERC-20").map((t) => transferDetailJson(chain, t)),
    erc721Transfers: tx.tokenTransfers.filter((t) => t.token.ercType === "ERC-721").map((t) => transferDetailJson(chain, t)),
    erc1155Transfers: tx.tokenTransfers.filter((t) => t.token.ercType === "ERC-1155").map((t) => transferDetailJson(chain, t)),
    internalTransactions: tx.internalTransactions.map((f) => ({
      from: richAddress(chain, f.from),
      to: richAddress(chain, f.to),
      internalTxType: f.type,
      value: f.value.toString(),
      isReverted: f.isReverted,
      gasUsed: f.gasUsed.toString(),
      gasLimit: f.gasLimit.toString()
    })),
    networkTokenDetails: {
      networkToken: networkTokenJson(chain),
      currentPrice: priceOf(seed, symbol, dayOf(chain.now()), "usd"),
      historicalPrice: priceOf(seed, symbol, dayOf(tx.blockTimestamp), "usd")
    },
    nativeTransaction: {
      blockNumber: tx.blockNumber.toString(),
      blockTimestamp: tx.blockTimestamp,
      blockHash: tx.blockHash,
      chainId: tx.chainId,
      blockIndex: tx.blockIndex,
      txHash: tx.txHash,
      txStatus: String(tx.txStatus),
      txType: tx.txType,
      gasLimit: tx.gasLimit.toString(),
      gasUsed: tx.gasUsed.toString(),
      gasPrice: tx.gasPrice.toString(),
      nonce: tx.nonce.toString(),
      from: richAddress(chain, tx.from),
      to: richAddress(chain, tx.to),
      method: { ...tx.method },
      value: tx.value.toString(),
      input: tx.input,
      baseFeePerGas: tx.baseFeePerGas.toString(),
      ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: tx.maxFeePerGas.toString() } : {}),
      ...(tx.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString() } : {})
    }
  }
  if (tx.crosschain) {
    body.crosschainMessageInfo = {
      crosschainMessageId: tx.crosschain.messageId,
      direction: tx.crosschain.direction,
      ...(tx.crosschain.sourceBlockchainId !== undefined ? { sourceChainId: tx.crosschain.sourceBlockchainId } : {}),
      ...(tx.crosschain.destinationBlockchainId !== undefined ? { destinationChainId: tx.crosschain.destinationBlockchainId } : {})
    }
  }
  return body
}

/** Route 9's body. */
export const nativeBalanceJson = (chain: EvmChain, balance: bigint, currency: Currency, at: number): Json => {
  const symbol = chain.info.networkToken.symbol
  const seed = chain.model.seed
  return {
    nativeTokenBalance: {
      name: chain.info.networkToken.name,
      symbol,
      decimals: chain.info.networkToken.decimals,
      logoUri: logoOf(symbol),
      chainId: chain.info.evmChainId,
      price: priceOf(seed, symbol, dayOf(at), currency),
      balance: balance.toString(),
      balanceValue: valueOf(seed, symbol, dayOf(at), currency, balance, chain.info.networkToken.decimals)
    }
  }
}

const LINK_TYPES = ["Website", "Twitter", "Discord", "Github", "Blog", "Documentation"] as const

/** Route 16's body: the ERC-20/721/1155 contract shapes, or UnknownContract for anything else. */
export const contractJson = (c: ContractInfo): Json => {
  const slug = c.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")
  const common: Json = {
    name: c.name,
    description: `${c.name} on chainetl's emulated network.`,
    officialSite: `https://${slug}.example`,
    email: `hello@${slug}.example`,
    logoAsset: { assetId: `${slug}-logo`, imageUri: `https://images.chainetl.example/contracts/${slug}.png` },
    bannerAsset: { assetId: `${slug}-banner`, imageUri: `https://images.chainetl.example/contracts/${slug}-banner.png` },
    color: `#${c.address.slice(2, 8).toLowerCase()}`,
    resourceLinks: LINK_TYPES.slice(0, 2 + (parseInt(c.address.slice(8, 10), 16) % 4)).map((type) => ({ type, url: `https://${type.toLowerCase()}.example/${slug}` })),
    tags: c.token ? [c.token.ercType.toLowerCase(), "token"] : [c.kind],
    address: c.address,
    deploymentDetails: {
      txHash: c.deployment.txHash,
      deployerAddress: c.deployment.deployerAddress,
      ...(c.deployment.deployerContractAddress !== undefined ? { deployerContractAddress: c.deployment.deployerContractAddress } : {})
    }
  }
  if (!c.token) return { ...common, ercType: "UNKNOWN" }
  if (c.token.ercType === "ERC-20") return { ...common, ercType: "ERC-20", symbol: c.token.symbol, decimals: c.token.decimals }
  return { ...common, ercType: c.token.ercType, symbol: c.token.symbol }
}

const slugOf = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")

/** Route 17's body. */
export const chainInfoJson = (chain: EvmChain): Json => {
  const i = chain.info
  const slug = slugOf(i.chainName)
  const rpcBase = i.isCChain ? `https://api.${i.isTestnet ? "fuji." : ""}chainetl.example/ext/bc/C` : `https://rpc.${slug}.example/ext/bc/${i.blockchainId}`
  return {
    chainId: i.evmChainId,
    status: "OK",
    chainName: i.chainName,
    description: i.description,
    platformChainId: i.blockchainId,
    subnetId: i.subnetId,
    vmId: i.vmId,
    vmName: "EVM",
    explorerUrl: `https://explorer.${slug}.example`,
    rpcUrl: `${rpcBase}/rpc`,
    wsUrl: `${rpcBase.replace("https://", "wss://")}/ws`,
    isTestnet: i.isTestnet,
    utilityAddresses: { multicall: i.multicallAddress },
    networkToken: networkTokenJson(chain),
    chainLogoUri: `https://images.chainetl.example/chains/${slug}.svg`,
    private: false,
    enabledFeatures: ["nftIndexing"]
  }
}

