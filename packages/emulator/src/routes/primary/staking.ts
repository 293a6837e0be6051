/**
 * Route 4: the P-chain's active staking transactions — validator and delegator txs whose staking
 * period runs at now, and the L1 txs behind the L1 validators active now (conversion,
 * registration, weight change, top-up) — optionally narrowed to addresses (reward addresses or
 * owners of the tx's UTXOs), tx types and a window on the block timestamp. Order: block
 * timestamp, then tx hash (sortOrder, default desc).
 */
import type { RouteDef } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import { PAGE_SPECS, pageOf, tokenField } from "../../http/pagination.ts"
import { servedIdsFor } from "../../http/servedIds.ts"
import type { StakingEntry } from "../../world/primary/stakingView.ts"
import { sortedPage } from "./keyset.ts"
import { parseAddresses, readChain, readList, readNetwork, readSortOrder, readTimeWindow } from "./params.ts"
import { stakingTransaction } from "./wire.ts"

/** PrimaryNetworkTxType, the enum the txTypes parameter takes. */
export const PRIMARY_NETWORK_TX_TYPES = [
  "AddValidatorTx",
  "AddSubnetValidatorTx",
  "AddDelegatorTx",
  "CreateChainTx",
  "CreateSubnetTx",
  "ImportTx",
  "ExportTx",
  "AdvanceTimeTx",
  "RewardValidatorTx",
  "RemoveSubnetValidatorTx",
  "TransformSubnetTx",
  "AddPermissionlessValidatorTx",
  "AddPermissionlessDelegatorTx",
  "BaseTx",
  "TransferSubnetOwnershipTx",
  "ConvertSubnetToL1Tx",
  "RegisterL1ValidatorTx",
  "SetL1ValidatorWeightTx",
  "DisableL1ValidatorTx",
  "IncreaseL1ValidatorBalanceTx",
  "UNKNOWN",
  "CreateAssetTx",
  "OperationTx"
] as const

const ADDRESS_LIMIT = 64


export const stakingRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking",
    seedRoute: 4,
    // a page names ~40 ids an entry in known fields: served as they are built, not found again by a walk of every string
    namesServedIds: true,
    handle: (ctx) => {
      const { param, net } = readNetwork(ctx)
      readChain(ctx, net, ["P"])
      const rawAddresses = readList(ctx, "addresses")
      if (rawAddresses.length > ADDRESS_LIMIT) throw badRequest(`at most ${ADDRESS_LIMIT} addresses per request (got ${rawAddresses.length})`)
      const wanted = new Set(parseAddresses(net, rawAddresses, "addresses", ["P", "X"]).map((a) => Buffer.from(a).toString("hex")))
      const types = readList(ctx, "txTypes")
      const unknown = types.filter((t) => !(PRIMARY_NETWORK_TX_TYPES as ReadonlyArray<string>).includes(t))
      if (unknown.length > 0) throw badRequest(`txTypes must be primary network tx types (${PRIMARY_NETWORK_TX_TYPES.join(", ")}); unknown: ${unknown.join(", ")}`)
      const { start, end } = readTimeWindow(ctx)
      const order = readSortOrder(ctx)
      const now = net.now()
      const keep = (e: StakingEntry): boolean =>
        (types.length === 0 || types.includes(e.txType)) && (wanted.size === 0 || e.addresses().some((a) => wanted.has(Buffer.from(a).toString("hex"))))
      // the entries come sorted by (block timestamp, tx id), once per instant: a page costs its own items
      const page = pageOf(ctx, PAGE_SPECS.standard, (cursor, limit) =>
        sortedPage(net.activeStakingEntries(), (e) => [e.blockTimestamp, e.txId], order, cursor, limit, keep, { from: start, to: end })
      )
      const ids = servedIdsFor(ctx.world.primary, net)
      return {
        ...tokenField(page.nextPageToken === undefined ? undefined : ids(page.nextPageToken)),
        transactions: page.items.map((e) => stakingTransaction(net, e.tx(), now, ids)),
        chainInfo: { chainName: "p-chain", network: param }
      }
    }
  }
]
