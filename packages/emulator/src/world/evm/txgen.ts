/**
 * One transaction's facts as numbers and references (no hex, no sha256): cheap enough to run
 * over every transaction of an hour when metrics are aggregated. chain.ts renders them.
 */
import { bigBelow, h32, intIn, smallBig, u01 } from "./hash.ts"
import type { Standard, TxRole } from "./layout.ts"
import type { ChainModel } from "./model.ts"
import { AddressKind, FAUCET_REF, ref, type Ref } from "./refs.ts"
import { eventCore, mintCore, pickAccount, tokensOfStandard, type TokenTransferCore } from "./tokens.ts"

export type InternalType = "CALL" | "CREATE" | "CREATE2"

export interface InternalCore {
  readonly type: InternalType
  readonly from: Ref
  readonly to: Ref
  readonly value: bigint
  readonly gasUsed: bigint
  readonly gasLimit: bigint
  readonly isReverted: boolean
}

export type CallType = "NATIVE_TRANSFER" | "CONTRACT_CALL" | "CONTRACT_CREATION"

export interface MethodCore {
  readonly callType: CallType
  readonly methodHash: string
  readonly methodName: string
}

export interface CrosschainCore {
  readonly direction: "SOURCE_TRANSACTION" | "DESTINATION_TRANSACTION"
  readonly partnerBlockchainId: string
}

export interface TxCore {
  readonly n: number
  readonly height: number
  readonly index: number
  readonly role: TxRole
  readonly from: Ref
  readonly to: Ref
  readonly value: bigint
  readonly txType: 0 | 2
  readonly status: 0 | 1
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  /** Receipt gas price (effective price paid). */
  readonly gasPrice: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly method: MethodCore
  readonly transfers: ReadonlyArray<TokenTransferCore>
  readonly internals: ReadonlyArray<InternalCore>
  readonly crosschain?: CrosschainCore
  /** Argument words of the call, for the input field. */
  readonly args: ReadonlyArray<Ref | bigint>
}

const NATIVE: MethodCore = { callType: "NATIVE_TRANSFER", methodHash: "", methodName: "Native Transfer" }
const CREATION: MethodCore = { callType: "CONTRACT_CREATION", methodHash: "", methodName: "Contract Created" }
const call = (methodHash: string, methodName: string): MethodCore => ({ callType: "CONTRACT_CALL", methodHash, methodName })

const METHODS = {
  erc20Transfer: call("0xa9059cbb", "transfer(address,uint256)"),
  nftMint: call("0x40c10f19", "mint(address,uint256)"),
  nftTransfer: call("0x42842e0e", "safeTransferFrom(address,address,uint256)"),
  mult1155Mint: call("0x731133e9", "mint(address,uint256,uint256,bytes)"),
  mult1155Transfer: call("0xf242432a", "safeTransferFrom(address,address,uint256,uint256,bytes)"),
  factoryDeploy: call("0x4af63f02", "deploy(bytes,bytes32)"),
  send: call("0x62448850", "sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))"),
  receive: call("0xccb5f809", "receiveCrossChainMessage(uint32,address)"),
  swap: call("0x38ed1739", "swapExactTokensForTokens(uint256,uint256,address[],address,uint256)"),
  aggregate: call("0x82ad56cb", "aggregate3((address,bool,bytes)[])")
} as const

/** Base fee of block h in wei: a slow wave around the chain's mean plus per-block noise. */
export const baseFeeOf = (model: ChainModel, h: number): bigint => {
  const mean = model.spec.baseFeeWei
  const wave = 0.5 + 0.5 * Math.sin((2 * Math.PI * h * model.timeline.gap) / (86_400 * 1.7))
  return BigInt(Math.floor(mean * (0.7 + 0.5 * wave + 0.1 * u01(model.sub("basefee"), h))))
}

const systemRef = (model: ChainModel, role: string): Ref => {
  const s = model.spec.systems.find((x) => x.role === role)
  if (!s) throw new RangeError(`chain has no ${role} contract`)
  return ref(AddressKind.system, s.index)
}

interface Draft {
  from: Ref
  to: Ref
  value: bigint
  gasUsed: bigint
  method: MethodCore
  transfers: TokenTransferCore[]
  internals: InternalCore[]
  crosschain?: CrosschainCore
  status: 0 | 1
  args: Array<Ref | bigint>
}

const gasRange = (model: ChainModel, n: number, lo: number, hi: number): bigint => smallBig(model.sub("gas"), BigInt(lo), BigInt(hi), n)

const frame = (type: InternalType, from: Ref, to: Ref, value: bigint, gasUsed: bigint, isReverted = false): InternalCore => ({
  type,
  from,
  to,
  value,
  gasUsed,
  gasLimit: gasUsed + gasUsed / 5n,
  isReverted
})

const nativeValue = (model: ChainModel, n: number): bigint => {
  // now and then a value far past 2^64, so only exact decimal strings carry it
  if (h32(model.sub("huge"), n) % 50 === 0) return 1n + bigBelow(model.sub("hugev"), 1n << 200n, n)
  return bigBelow(model.sub("value"), 5n * 10n ** 21n, n)
}

const eventDraft = (model: ChainModel, n: number, standard: Standard, q: number): Draft => {
  const tokens = tokensOfStandard(model, standard)
  const system = tokens[q % tokens.length] as number
  const e = Math.floor(q / tokens.length)
  const t = eventCore(model, system, e, n)
  const token = ref(AddressKind.system, system)
  const mint = t.from === 0
  // an NFT mint is sent by its new owner; any other move by the lot's current owner
  const sender = mint ? t.to : t.from
  const gas = standard === "ERC-20" ? gasRange(model, n, 35_000, 65_000) : standard === "ERC-721" ? gasRange(model, n, 55_000, 130_000) : gasRange(model, n, 50_000, 95_000)
  const method =
    standard === "ERC-20" ? METHODS.erc20Transfer : standard === "ERC-721" ? (mint ? METHODS.nftMint : METHODS.nftTransfer) : mint ? METHODS.mult1155Mint : METHODS.mult1155Transfer
  const args: Array<Ref | bigint> = standard === "ERC-20" ? [t.to, t.amount] : mint ? [t.to, t.tokenId] : [t.from, t.to, t.tokenId]
  if (standard === "ERC-1155") args.push(t.amount)
  return { from: sender, to: token, value: 0n, gasUsed: gas, method, transfers: [t], internals: [frame("CALL", sender, token, 0n, gas)], status: 1, args }
}

const plainDraft = (model: ChainModel, n: number): Draft => {
  const from = pickAccount(model, n, 1)
  const r = u01(model.sub("plain"), n)
  if (r < 0.45) {
    const to = pickAccount(model, n, 2)
    const value = nativeValue(model, n)
    return { from, to, value, gasUsed: 21_000n, method: NATIVE, transfers: [], internals: [frame("CALL", from, to, value, 21_000n)], status: 1, args: [] }
  }
  const reverted = h32(model.sub("revert"), n) % 50 === 0
  const gas = gasRange(model, n, 30_000, 300_000)
  if (r < 0.6) {
    const to = systemRef(model, "messenger")
    const source = h32(model.sub("xdir"), n) % 2 === 0
    return {
      from,
      to,
      value: 0n,
      gasUsed: gas,
      method: source ? METHODS.send : METHODS.receive,
      transfers: [],
      internals: [frame("CALL", from, to, 0n, gas, reverted)],
      crosschain: { direction: source ? "SOURCE_TRANSACTION" : "DESTINATION_TRANSACTION", partnerBlockchainId: model.spec.partnerBlockchainId },
      status: reverted ? 0 : 1,
      args: [from, BigInt(n)]
    }
  }
  if (r < 0.75) {
    const to = systemRef(model, "multicall")
    return { from, to, value: 0n, gasUsed: gas, method: METHODS.aggregate, transfers: [], internals: [frame("CALL", from, to, 0n, gas, reverted)], status: reverted ? 0 : 1, args: [BigInt(n % 7)] }
  }
  const to = systemRef(model, "dapp")
  const value = h32(model.sub("dappv"), n) % 3 === 0 ? bigBelow(model.sub("dappvalue"), 10n ** 20n, n) : 0n
  const internals = [frame("CALL", from, to, value, gas, reverted)]
  if (!reverted && h32(model.sub("payout"), n) % 4 === 0) {
    // the dapp pays someone out: an internal CALL with value
    internals.push(frame("CALL", to, pickAccount(model, n, 3), bigBelow(model.sub("payoutv"), 10n ** 19n, n), 2_300n))
  }
  return { from, to, value, gasUsed: gas, method: METHODS.swap, transfers: [], internals, status: reverted ? 0 : 1, args: [value, BigInt(n % 1000), from] }
}

const draftOf = (model: ChainModel, n: number, role: TxRole): Draft => {
  switch (role.kind) {
    case "deploySystem": {
      const to = ref(AddressKind.system, role.system)
      const gas = gasRange(model, n, 600_000, 900_000)
      const token = model.spec.systems[role.system]?.token
      const transfers = token?.ercType === "ERC-20" ? [mintCore(model, role.system)] : []
      return { from: FAUCET_REF, to, value: 0n, gasUsed: gas, method: CREATION, transfers, internals: [frame("CREATE", FAUCET_REF, to, 0n, gas)], status: 1, args: [] }
    }
    case "fundGenesis":
    case "birth": {
      const to = ref(AddressKind.account, role.account)
      const from = role.kind === "birth" && h32(model.sub("funder"), n) % 2 === 0 ? pickAccount(model, n - 1, 4) : FAUCET_REF
      const value = bigBelow(model.sub("fund"), 10n ** 22n, n) + 10n ** 17n
      return { from, to, value, gasUsed: 21_000n, method: NATIVE, transfers: [], internals: [frame("CALL", from, to, value, 21_000n)], status: 1, args: [] }
    }
    case "create": {
      const created = ref(AddressKind.created, role.creation)
      if (role.viaFactory) {
        const from = pickAccount(model, n, 5)
        const factory = systemRef(model, "factory")
        const gas = gasRange(model, n, 200_000, 700_000)
        return {
          from,
          to: factory,
          value: 0n,
          gasUsed: gas,
          method: METHODS.factoryDeploy,
          transfers: [],
          internals: [frame("CALL", from, factory, 0n, gas), frame("CREATE2", factory, created, 0n, gas - 40_000n)],
          status: 1,
          args: [BigInt(role.creation)]
        }
      }
      const from = ref(AddressKind.deployer, role.deployer ?? 0)
      const gas = gasRange(model, n, 300_000, 900_000)
      return { from, to: created, value: 0n, gasUsed: gas, method: CREATION, transfers: [], internals: [frame("CREATE", from, created, 0n, gas)], status: 1, args: [] }
    }
    case "event":
      return eventDraft(model, n, role.standard, role.event)
    case "plain":
      return plainDraft(model, n)
  }
}

/** The n-th transaction of the chain, at (height, index) that the caller already knows. */
export const txCore = (model: ChainModel, n: number, height: number, index: number, baseFee: bigint): TxCore => {
  const role = model.layout.role(n)
  const d = draftOf(model, n, role)
  const s = model.sub("fee")
  const legacy = h32(s, n) % 5 === 0
  // tips scale with the chain's fee level: up to 8% of the mean base fee
  const tip = BigInt(intIn(s, 0, Math.floor(model.spec.baseFeeWei * 0.08), n, 1))
  const gasLimit = d.gasUsed + (d.gasUsed * BigInt(intIn(s, 0, 30, n, 2))) / 100n
  const common = {
    n,
    height,
    index,
    role,
    from: d.from,
    to: d.to,
    value: d.value,
    status: d.status,
    gasLimit: d.gasUsed === 21_000n ? 21_000n : gasLimit,
    gasUsed: d.gasUsed,
    gasPrice: baseFee + tip,
    method: d.method,
    transfers: d.status === 1 ? d.transfers : [],
    internals: d.internals,
    args: d.args
  }
  const withXc = d.crosschain ? { ...common, crosschain: d.crosschain } : common
  if (legacy) return { ...withXc, txType: 0 }
  return { ...withXc, txType: 2, maxPriorityFeePerGas: tip, maxFeePerGas: baseFee * 2n + tip }
}
