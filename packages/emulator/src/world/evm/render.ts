/** Turns cores (numbers and references) into public records with hashes and hex addresses. */
import { opaqueHash, encodeBlockHash, encodeTxHash } from "./ids.ts"
import { ZERO_HASH } from "./encoding.ts"
import { bytesOf } from "./hash.ts"
import type { ChainModel } from "./model.ts"
import { AddressKind, indexOf, kindOf, type Ref } from "./refs.ts"
import type { TokenTransferCore } from "./tokens.ts"
import type { TxCore } from "./txgen.ts"
import type { EvmTransaction, TokenRef, TokenTransfer } from "./types.ts"

export const blockHashOf = (model: ChainModel, h: number): string => encodeBlockHash(model.salt, h)
export const parentHashOf = (model: ChainModel, h: number): string => (h === 0 ? ZERO_HASH : blockHashOf(model, h - 1))
export const txHashOf = (model: ChainModel, h: number, i: number): string => encodeTxHash(model.salt, h, i)

export const tokenRefOf = (model: ChainModel, system: number): TokenRef => {
  const s = model.spec.systems[system]
  const t = s?.token
  if (!s || !t) throw new RangeError(`system contract ${system} is not a token`)
  return { address: model.hex(kindRef(system)), ercType: t.ercType, name: t.name, symbol: t.symbol, decimals: t.decimals }
}

const kindRef = (system: number): Ref => AddressKind.system * 2 ** 40 + system

const word = (model: ChainModel, v: Ref | bigint): string =>
  typeof v === "bigint" ? (v & ((1n << 256n) - 1n)).toString(16).padStart(64, "0") : model.hex(v).slice(2).toLowerCase().padStart(64, "0")

const inputOf = (model: ChainModel, core: TxCore): string => {
  if (core.method.callType === "NATIVE_TRANSFER") return "0x"
  if (core.method.callType === "CONTRACT_CREATION") {
    // a constructor prologue and a body that differs per contract
    return "0x608060405234801561001057600080fd5b50" + bytesOf(model.sub("code"), 48, core.n).toString("hex")
  }
  return core.method.methodHash + core.args.map((a) => word(model, a)).join("")
}

/** Transaction number of the sender's first appearance, so nonces rise with every send. */
const nonceOf = (model: ChainModel, core: TxCore): bigint => {
  const i = indexOf(core.from)
  switch (kindOf(core.from)) {
    case AddressKind.account:
      return BigInt(core.n - model.layout.accountTx(i))
    case AddressKind.deployer:
      return BigInt(core.n - model.layout.deployerFirstTx(i))
    default:
      return BigInt(core.n)
  }
}

export const transferOf = (model: ChainModel, t: TokenTransferCore, h: number, i: number, time: number, logIndex: number): TokenTransfer => {
  const base = {
    token: tokenRefOf(model, t.system),
    blockNumber: BigInt(h),
    blockTimestamp: time,
    blockHash: blockHashOf(model, h),
    txHash: txHashOf(model, h, i),
    logIndex,
    from: model.hex(t.from),
    to: model.hex(t.to),
    value: t.amount
  }
  return t.standard === "ERC-20" ? base : { ...base, tokenId: t.tokenId }
}

/** Renders one transaction; `logsBefore` is the number of logs of earlier transactions in its block. */
export const renderTx = (model: ChainModel, core: TxCore, time: number, baseFee: bigint, logsBefore: number): EvmTransaction => {
  const h = core.height
  const tx: EvmTransaction = {
    chainId: model.spec.evmChainId,
    blockNumber: BigInt(h),
    blockTimestamp: time,
    blockHash: blockHashOf(model, h),
    blockIndex: core.index,
    txHash: txHashOf(model, h, core.index),
    txStatus: core.status,
    txType: core.txType,
    from: model.hex(core.from),
    to: model.hex(core.to),
    value: core.value,
    gasLimit: core.gasLimit,
    gasUsed: core.gasUsed,
    gasPrice: core.gasPrice,
    baseFeePerGas: baseFee,
    nonce: nonceOf(model, core),
    input: inputOf(model, core),
    method: core.method,
    tokenTransfers: core.transfers.map((t, k) => transferOf(model, t, h, core.index, time, logsBefore + k)),
    internalTransactions: core.internals.map((f) => ({
      type: f.type,
      from: model.hex(f.from),
      to: model.hex(f.to),
      value: f.value,
      gasUsed: f.gasUsed,
      gasLimit: f.gasLimit,
      isReverted: f.isReverted
    })),
    ...(core.maxFeePerGas !== undefined ? { maxFeePerGas: core.maxFeePerGas } : {}),
    ...(core.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: core.maxPriorityFeePerGas } : {})
  }
  if (!core.crosschain) return tx
  const source = core.crosschain.direction === "SOURCE_TRANSACTION"
  return {
    ...tx,
    crosschain: {
      messageId: opaqueHash(model.salt, "crosschain", core.n),
      direction: core.crosschain.direction,
      ...(source ? { destinationBlockchainId: core.crosschain.partnerBlockchainId } : { sourceBlockchainId: core.crosschain.partnerBlockchainId })
    }
  }
}
