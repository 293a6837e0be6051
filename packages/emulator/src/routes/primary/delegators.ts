/**
 * Route 8: delegations across the primary network, narrowed by node ids, reward addresses and
 * status; each in the document's variant for its status. Order: start timestamp, then tx hash.
 */
import type { CursorPage, RouteDef } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import { PAGE_SPECS, pageOf, tokenField } from "../../http/pagination.ts"
import type { PrimaryNetwork } from "../../world/primary/index.ts"
import { feePercent } from "../../world/primary/nodeViews.ts"
import type { NodeParams } from "../../world/primary/staking.ts"
import type { DelegationView } from "../../world/primary/stakingView.ts"
import { compareKeys, keysetPage, parseCursor, type Key } from "./keyset.ts"
import { checkNodeId, parseAddresses, readEnum, readList, readNetwork, readSortOrder } from "./params.ts"

const LIST_LIMIT = 64

/**
 * Keyset paging over every delegation without listing them all: scans start-time windows from
 * the cursor outwards, doubling the window until the page (plus one, to know there is more) is
 * full. Each window is scanned completely, so the items found are exactly the next ones.
 */
const scanByStart = (
  net: PrimaryNetwork,
  nodes: ReadonlyArray<NodeParams> | undefined,
  keep: (d: DelegationView) => boolean,
  keyOf: (d: DelegationView) => Key,
  order: "asc" | "desc",
  cursor: string | undefined,
  limit: number
): CursorPage<DelegationView> => {
  const view = net.stakingView
  const lowest = view.earliestPossibleStart
  const highest = view.latestPossibleStart
  const after = cursor === undefined ? undefined : parseCursor(cursor, 2)
  const afterStart = after === undefined ? undefined : Number(after[0])
  const found: DelegationView[] = []
  let width = Math.max(3600, Math.floor((highest - lowest) / 256))
  let edge = order === "desc" ? Math.min(highest, afterStart === undefined ? highest : afterStart + 1) : Math.max(lowest, afterStart ?? lowest)
  const inside = (d: DelegationView): boolean => after === undefined || (order === "desc" ? compareKeys(keyOf(d), after) < 0 : compareKeys(keyOf(d), after) > 0)
  while (found.length <= limit && (order === "desc" ? edge > lowest : edge < highest)) {
    const [from, to] = order === "desc" ? [Math.max(lowest, edge - width), edge] : [edge, Math.min(highest, edge + width)]
    found.push(...view.delegationsStartedIn(from, to, nodes).filter((d) => keep(d) && inside(d)))
    edge = order === "desc" ? from : to
    width *= 2
  }
  return keysetPage(found, keyOf, order, undefined, limit)
}

const shape = (net: PrimaryNetwork, d: DelegationView): Record<string, unknown> => {
  const del = d.delegation
  const base = {
    txHash: d.txId,
    nodeId: del.validation.node.nodeId,
    rewardAddresses: [net.ctx.bech32Of(net.ctx.address(del.wallet, 0))],
    amountDelegated: del.amount.toString(),
    delegationFee: feePercent(del.validation.node.shares),
    startTimestamp: del.start,
    endTimestamp: del.end
  }
  return d.status === "completed"
    ? { ...base, grossReward: del.grossReward.toString(), netReward: del.netReward.toString(), delegationStatus: "completed" }
    : { ...base, estimatedGrossReward: del.grossReward.toString(), estimatedNetReward: del.netReward.toString(), delegationStatus: d.status }
}

export const delegatorRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/delegators",
    seedRoute: 8,
    handle: (ctx) => {
      const { net } = readNetwork(ctx)
      const nodeIds = readList(ctx, "nodeIds")
      const rewardAddresses = readList(ctx, "rewardAddresses")
      if (nodeIds.length > LIST_LIMIT) throw badRequest(`at most ${LIST_LIMIT} nodeIds per request (got ${nodeIds.length})`)
      if (rewardAddresses.length > LIST_LIMIT) throw badRequest(`at most ${LIST_LIMIT} rewardAddresses per request (got ${rewardAddresses.length})`)
      nodeIds.forEach((n) => checkNodeId(n, "nodeIds"))
      const wanted = new Set(parseAddresses(net, rewardAddresses, "rewardAddresses", ["P", "X"]).map((a) => Buffer.from(a).toString("hex")))
      const status = readEnum(ctx, "delegationStatus", ["completed", "active", "pending"] as const)
      const order = readSortOrder(ctx)
      const nodes = nodeIds.length > 0 ? nodeIds.map((n) => net.stakingView.node(n)).filter((n): n is NodeParams => n !== undefined) : undefined
      const keep = (d: DelegationView): boolean =>
        (status === undefined || d.status === status) && (wanted.size === 0 || wanted.has(Buffer.from(net.ctx.address(d.delegation.wallet, 0)).toString("hex")))
      const keyOf = (d: DelegationView): Key => [d.delegation.start, d.txId]
      const page = pageOf(ctx, PAGE_SPECS.standard, (cursor, limit) => {
        // a reward address names a wallet, whose delegations are found by arithmetic: small lists
        if (wanted.size > 0) {
          const wallets = new Set([...wanted].map((hex) => net.wallets.walletOf(Buffer.from(hex, "hex"))).filter((w): w is number => w !== undefined))
          const list = [...wallets].flatMap((w) => net.stakingView.delegationsOfWallet(w)).filter((d) => keep(d) && (!nodes || nodes.some((n) => n.index === d.delegation.validation.node.index)))
          return keysetPage(list, keyOf, order, cursor, limit)
        }
        return scanByStart(net, nodes, keep, keyOf, order, cursor, limit)
      })
      return {
        ...tokenField(page.nextPageToken),
        delegators: page.items.map((d) => shape(net, d))
      }
    }
  }
]
