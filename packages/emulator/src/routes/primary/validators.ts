/**
 * Route 7: one node's primary-network validations, each in the document's variant for its
 * status (completed / active / pending; this world has no removed permissioned-subnet
 * validations, so that filter answers an empty list). Order: start timestamp, then tx hash.
 */
import type { RouteDef } from "../../http/contract.ts"
import { PAGE_SPECS, pageOf, tokenField } from "../../http/pagination.ts"
import { PRIMARY_SUBNET_ID } from "../../world/constants.ts"
import type { PrimaryNetwork } from "../../world/primary/index.ts"
import { feePercent } from "../../world/primary/nodeViews.ts"
import type { ValidationView } from "../../world/primary/stakingView.ts"
import { keysetPage } from "./keyset.ts"
import { checkNodeId, notFound, readEnum, readNetwork, readSortOrder } from "./params.ts"

const GEO = [
  { city: "Frankfurt am Main", country: "Germany", countryCode: "DE", latitude: 50.1109, longitude: 8.6821 },
  { city: "Ashburn", country: "United States", countryCode: "US", latitude: 39.0438, longitude: -77.4874 },
  { city: "Singapore", country: "Singapore", countryCode: "SG", latitude: 1.3521, longitude: 103.8198 },
  { city: "Helsinki", country: "Finland", countryCode: "FI", latitude: 60.1699, longitude: 24.9384 },
  { city: "Tokyo", country: "Japan", countryCode: "JP", latitude: 35.6762, longitude: 139.6503 }
]

const shape = (net: PrimaryNetwork, v: ValidationView, totalStake: bigint): Record<string, unknown> => {
  const val = v.validation
  const n = val.node
  const ctx = net.ctx
  const base = {
    txHash: v.txId,
    nodeId: n.nodeId,
    subnetId: PRIMARY_SUBNET_ID,
    amountStaked: val.stake.toString(),
    delegationFee: feePercent(n.shares),
    startTimestamp: val.start,
    endTimestamp: val.end,
    ...(val.permissionless ? { blsCredentials: { publicKey: n.signer.publicKey, proofOfPossession: n.signer.proofOfPossession } } : {})
  }
  if (v.status === "pending") return { ...base, validationStatus: "pending" }
  const rewardAddresses = [ctx.bech32Of(ctx.address(n.wallet, 0))]
  if (v.status === "completed") {
    const delegations = net.stakingView.delegationsOf(val)
    return {
      ...base,
      delegatorCount: delegations.length,
      amountDelegated: delegations.reduce((sum, d) => sum + d.delegation.amount, 0n).toString(),
      rewards: {
        validationRewardAmount: val.reward.toString(),
        delegationRewardAmount: delegations.reduce((sum, d) => sum + d.delegation.fee, 0n).toString(),
        rewardAddresses,
        rewardTxHash: v.rewardTxId
      },
      validationStatus: "completed"
    }
  }
  const open = net.stakingView.openDelegations(val)
  const geo = ctx.unit("geo-known", n.index) < 0.85 ? GEO[ctx.int(0, GEO.length - 1, "geo", n.index)] : null
  const percent = (x: number): number => Math.round(x * 100) / 100
  return {
    ...base,
    stakePercentage: totalStake > 0n ? Number((val.stake * 1_000_000n) / totalStake) / 10_000 : 0,
    delegatorCount: open.length,
    amountDelegated: open.reduce((sum, d) => sum + d.delegation.amount, 0n).toString(),
    uptimePerformance: net.stakingView.uptime(n),
    avalancheGoVersion: `avalanchego/1.${ctx.int(11, 13, "ago-minor", n.index)}.${ctx.int(0, 14, "ago-patch", n.index)}`,
    delegationCapacity: net.stakingView.delegationCapacity(val).toString(),
    potentialRewards: {
      validationRewardAmount: val.reward.toString(),
      delegationRewardAmount: open.reduce((sum, d) => sum + d.delegation.fee, 0n).toString(),
      rewardAddresses
    },
    validationStatus: "active",
    validatorHealth: {
      reachabilityPercent: percent(97 + ctx.unit("reach", n.index) * 3),
      benchedPChainRequestsPercent: percent(ctx.unit("bench-p", n.index) * 2),
      benchedXChainRequestsPercent: percent(ctx.unit("bench-x", n.index) * 2),
      benchedCChainRequestsPercent: percent(ctx.unit("bench-c", n.index) * 2)
    },
    geolocation: geo ?? null
  }
}

export const validatorRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/validators/{nodeId}",
    seedRoute: 7,
    handle: (ctx) => {
      const { net } = readNetwork(ctx)
      const nodeId = checkNodeId(ctx.params.nodeId ?? "", "nodeId")
      const status = readEnum(ctx, "validationStatus", ["completed", "active", "pending", "removed"] as const)
      const order = readSortOrder(ctx)
      const node = net.stakingView.node(nodeId)
      if (!node) throw notFound(`no primary-network validator with node id ${nodeId} on ${net.name}`)
      const views = net.stakingView.validationsOf(node).filter((v) => status === undefined || v.status === status)
      const page = pageOf(ctx, PAGE_SPECS.standard, (cursor, limit) => keysetPage(views, (v) => [v.validation.start, v.txId], order, cursor, limit))
      const total = page.items.some((v) => v.status === "active") ? net.stakingView.totalActiveStake() : 0n
      return {
        ...tokenField(page.nextPageToken),
        validators: page.items.map((v) => shape(net, v, total))
      }
    }
  }
]
