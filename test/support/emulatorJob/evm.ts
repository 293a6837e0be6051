/**
 * The EVM group's part of a job against a running emulator: entries its world actually has, so
 * evm_blocks, token_transfers, evm_transactions (and its transfer tables), native_balances,
 * contract_metadata, nft_tokens and chains all come out non-empty while `npm start` stays short.
 * evm_blocks and chains crawl the job's default two C-Chains (the metrics group uses them too).
 * Every transaction found in the token transfers is then looked up one by one (and every NFT
 * seen in them), so the tokens are one per standard on the chain where they move least.
 */
import type { RunningEmulator } from "@chainetl/emulator"
import type { EvmChain } from "@chainetl/emulator/world/evm"
import type { Job } from "../../../src/Job.ts"

const CHAINS = ["43114", "43113"] as const
const STANDARDS = ["ERC-20", "ERC-721", "ERC-1155"] as const

/** Blocks per token_transfers window: small enough that the emulator's history spans several, so closed and open windows both occur. */
export const EMULATOR_TRANSFER_WINDOW = "256"

const transfersOf = (chain: EvmChain, address: string): number => {
  const range = chain.tokenTransfers(address)
  return range === undefined ? 0 : range.end - range.first
}

/** The newest native transfer of a chain: a hash the token transfers do not lead to. */
const nativeTransfer = (chain: EvmChain) => {
  for (let h = chain.latestHeight(); h >= 0n; h--) {
    const tx = chain.transactionsOf(h).find((t) => t.method.callType === "NATIVE_TRANSFER" && t.tokenTransfers.length === 0)
    if (tx !== undefined) return tx
  }
  throw new Error(`chain ${chain.info.evmChainId} has no native transfer`)
}

/** The least transferred token of a standard on a chain, if one has transfers. */
const quietest = (chain: EvmChain, standard: (typeof STANDARDS)[number]) =>
  chain
    .tokens()
    .filter((t) => t.ercType === standard && transfersOf(chain, t.address) > 0)
    .sort((a, b) => transfersOf(chain, a.address) - transfersOf(chain, b.address))[0]

export const evmJobPart = (emu: RunningEmulator): Partial<Job> => {
  const cChains = CHAINS.map((id) => {
    const chain = emu.world.evm.chain(id)
    if (chain === undefined) throw new Error(`the emulator has no chain ${id}`)
    return chain
  })
  // the chain whose quietest token of each standard together moves least
  const cost = (c: EvmChain): number =>
    STANDARDS.reduce((n, s) => {
      const t = quietest(c, s)
      return t === undefined ? Infinity : n + transfersOf(c, t.address)
    }, 0)
  const tokenChain = emu.world.evm.chains().reduce((a, b) => (cost(b) < cost(a) ? b : a))
  if (cost(tokenChain) === Infinity) throw new Error("no emulator chain has tokens of every standard with transfers")
  const tokenContracts = STANDARDS.map((s) => ({ chainId: tokenChain.info.evmChainId, address: quietest(tokenChain, s)!.address }))
  return {
    evmChains: [...CHAINS],
    tokenContracts,
    transferBlockWindow: EMULATOR_TRANSFER_WINDOW,
    transactionHashes: [tokenChain, cChains[0]!].map((c) => ({ chainId: c.info.evmChainId, txHash: nativeTransfer(c).txHash })),
    // a sender and a recipient of recent native transfers: addresses with a balance now
    nativeBalances: cChains.flatMap((c) => {
      const tx = nativeTransfer(c)
      return [tx.from, tx.to].map((address) => ({ chainId: c.info.evmChainId, address }))
    })
  }
}
