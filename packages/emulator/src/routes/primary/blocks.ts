/**
 * Route 12: latest blocks of the P-, X- or C-chain, newest first, optionally within a block
 * timestamp window (both bounds inclusive). The cursor is the last height returned, so a page
 * costs its own size; C-chain blocks are the EVM world's C-chain blocks.
 */
import type { RouteDef } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import { PAGE_SPECS, pageOf, tokenField } from "../../http/pagination.ts"
import type { BlockRecord, ChainLetter, PrimaryNetwork } from "../../world/primary/index.ts"
import { Kind } from "../../world/primary/ids.ts"
import { chainName, readChain, readNetwork, readTimeWindow } from "./params.ts"

const heightAt = (net: PrimaryNetwork, chain: ChainLetter, t: number): number =>
  chain === "C" ? Number(net.cChain.heightAtTime(t)) : net.ctx.timelines[chain].heightAt(t)

const latest = (net: PrimaryNetwork, chain: ChainLetter): number => (chain === "C" ? Number(net.cHeight()) : Number(net.height(chain)))

const blockAt = (net: PrimaryNetwork, chain: ChainLetter, h: number): BlockRecord | undefined =>
  chain === "C" ? net.cBlock(BigInt(h)) : net.block(chain, BigInt(h))

/** Snowman++ wrapper of a block: its own id, the wrapper of its parent, the proposing node. */
const proposerDetails = (net: PrimaryNetwork, b: BlockRecord): Record<string, unknown> => {
  const ctx = net.ctx
  const h = Number(b.height)
  const kind = b.chain === "P" ? Kind.PBlock : b.chain === "X" ? Kind.XBlock : Kind.CBlock
  const node = net.staking.node(ctx.int(0, net.staking.nodeCount - 1, "proposer", b.chain, h))
  const pHeight = b.chain === "P" ? h - 1 : ctx.timelines.P.heightAt(b.timestamp) - 1
  return {
    proposerId: ctx.id(kind, h, 0, 1),
    proposerParentId: ctx.id(kind, Math.max(0, h - 1), 0, 1),
    proposerNodeId: node.nodeId,
    proposerPChainHeight: Math.max(0, pHeight),
    proposerTimestamp: b.timestamp
  }
}

interface L1Stats {
  readonly active: number
  readonly accruedFees: bigint
}

const shape = (net: PrimaryNetwork, b: BlockRecord, l1: L1Stats | undefined): Record<string, unknown> => ({
  blockNumber: b.height.toString(),
  blockHash: b.id,
  parentHash: b.parentId,
  blockTimestamp: b.timestamp,
  blockType: b.blockType,
  txCount: b.txIds.length,
  transactions: [...b.txIds],
  blockSizeBytes: b.sizeBytes,
  ...(b.chain === "P" && l1
    ? {
        l1ValidatorsAccruedFees: l1.accruedFees,
        activeL1Validators: l1.active,
        currentSupply: net.supplyAt(b.timestamp).toString()
      }
    : {}),
  proposerDetails: proposerDetails(net, b)
})

export const blockRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/blockchains/{blockchainId}/blocks",
    seedRoute: 12,
    handle: (ctx) => {
      const { param, net } = readNetwork(ctx)
      const chain = readChain(ctx, net, ["P", "X", "C"])
      const { start, end } = readTimeWindow(ctx)
      const top = Math.min(latest(net, chain), end === undefined ? Number.MAX_SAFE_INTEGER : heightAt(net, chain, end))
      const bottom = start === undefined ? 0 : heightAt(net, chain, start - 1) + 1
      const page = pageOf(ctx, PAGE_SPECS.standard, (cursor, limit) => {
        if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) throw badRequest("invalid page token: its position is not one this listing issued")
        const from = Math.min(top, cursor === undefined ? top : Number(cursor) - 1)
        const heights: number[] = []
        for (let h = from; h >= bottom && heights.length < limit; h--) heights.push(h)
        const last = heights[heights.length - 1]
        return last !== undefined && last > bottom ? { items: heights, nextCursor: String(last) } : { items: heights }
      })
      const lo = page.items[page.items.length - 1]
      const hi = page.items[0]
      if (chain !== "C" && lo !== undefined && hi !== undefined) net.prefetch(chain, BigInt(lo), BigInt(hi))
      const blocks = page.items.map((h) => blockAt(net, chain, h)).filter((b): b is BlockRecord => b !== undefined)
      const stats = chain === "P" ? net.l1View.blockStats(blocks.map((b) => b.timestamp)) : []
      return {
        ...tokenField(page.nextPageToken),
        blocks: blocks.map((b, i) => shape(net, b, stats[i])),
        chainInfo: { chainName: chainName(chain), network: param }
      }
    }
  }
]
