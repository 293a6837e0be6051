/**
 * The EVM group's part of a job against a running emulator: entries its world actually has, so
 * evm_blocks, token_transfers, evm_transactions (and its transfer tables), native_balances,
 * contract_metadata, nft_tokens and chains all come out non-empty while `npm start` stays a few
 * seconds long. The chains are the job's default two C-Chains (the metrics group uses them too);
 * the tokens are those of the quieter one, one per standard, the least transferred of each, since
 * every transaction found in their transfers is looked up one by one.
 */
import type { RunningEmulator } from "../../../src/emulator/index.ts"
import type { EvmChain } from "../../../src/emulator/world/evm/index.ts"
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

export const evmJobPart = (emu: RunningEmulator): Partial<Job> => {
  const chains = CHAINS.map((id) => {
    const chain = emu.world.evm.chain(id)
    if (chain === undefined) throw new Error(`the emulator has no chain ${id}`)
    return chain
  })
  const quiet = chains.reduce((a, b) => (b.latest() < a.latest() ? b : a))
  const tokenContracts = STANDARDS.map((standard) => {
    const candidates = quiet
      .tokens()
      .filter((t) => t.ercType === standard && transfersOf(quiet, t.address) > 0)
      .sort((a, b) => transfersOf(quiet, a.address) - transfersOf(quiet, b.address))
    const token = candidates[0]
    if (token === undefined) throw new Error(`chain ${quiet.info.evmChainId} has no ${standard} token with transfers`)
    return { chainId: quiet.info.evmChainId, address: token.address }
  })
  return {
    evmChains: [...CHAINS],
    tokenContracts,
    transferBlockWindow: EMULATOR_TRANSFER_WINDOW,
    transactionHashes: chains.map((c) => ({ chainId: c.info.evmChainId, txHash: nativeTransfer(c).txHash })),
    // a sender and a recipient of recent native transfers: addresses with a balance now
    nativeBalances: chains.flatMap((c) => {
      const tx = nativeTransfer(c)
      return [tx.from, tx.to].map((address) => ({ chainId: c.info.evmChainId, address }))
    })
  }
}
