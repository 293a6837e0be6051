/**
 * Route 13: L1 validators, by default only active ones (weight > 0 and balance left), optionally
 * of one subnet, node or validation id. Order: creation timestamp newest first, then validation
 * id; blockHeight is the P-chain height the balances are computed at (the latest).
 */
import type { RouteDef } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import { PAGE_SPECS, pageOf, tokenField } from "../../http/pagination.ts"
import type { PrimaryNetwork } from "../../world/primary/index.ts"
import { cb58, fromCb58 } from "../../world/primary/ids.ts"
import type { L1ValidatorView } from "../../world/primary/l1View.ts"
import type { Owners } from "../../world/primary/types.ts"
import { keysetPage } from "./keyset.ts"
import { checkNodeId, notFound, readBoolean, readNetwork } from "./params.ts"

/** A validation id as cb58 or 0x hex (the two forms the records carry). */
const readValidationId = (raw: string): string => {
  if (/^0x[0-9a-fA-F]{64}$/.test(raw)) return cb58(Buffer.from(raw.slice(2), "hex"))
  if (fromCb58(raw)?.length === 32) return raw
  throw badRequest(`l1ValidationId must be a validation id in cb58 or 0x-prefixed hex (got "${raw}")`)
}

const owner = (net: PrimaryNetwork, o: Owners): Record<string, unknown> => ({
  addresses: o.addresses.map((a) => net.ctx.bech32Of(a)),
  threshold: o.threshold
})

const shape = (net: PrimaryNetwork, v: L1ValidatorView): Record<string, unknown> => ({
  validationId: v.validator.validationId,
  validationIdHex: v.validator.validationIdHex,
  nodeId: v.validator.nodeId,
  subnetId: v.validator.l1.subnetId,
  weight: v.state.weight,
  remainingBalance: v.state.balance,
  creationTimestamp: v.creationTimestamp,
  blsCredentials: { publicKey: v.validator.signer.publicKey, proofOfPossession: v.validator.signer.proofOfPossession },
  remainingBalanceOwner: owner(net, v.validator.remainingBalanceOwner),
  deactivationOwner: owner(net, v.validator.deactivationOwner)
})

export const l1ValidatorRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/l1Validators",
    seedRoute: 13,
    handle: (ctx) => {
      const { net } = readNetwork(ctx)
      const rawValidation = ctx.query.get("l1ValidationId")
      const validationId = rawValidation === null || rawValidation === "" ? undefined : readValidationId(rawValidation)
      const includeInactive = readBoolean(ctx, "includeInactiveL1Validators") ?? false
      const rawNode = ctx.query.get("nodeId")
      const nodeId = rawNode === null || rawNode === "" ? undefined : checkNodeId(rawNode, "nodeId")
      const subnetId = ctx.query.get("subnetId")
      let views: L1ValidatorView[]
      if (subnetId !== null && subnetId !== "") {
        if (fromCb58(subnetId)?.length !== 32) throw badRequest(`subnetId must be a cb58 subnet id (got "${subnetId}")`)
        const l1 = net.l1s.bySubnetId(subnetId)
        if (!l1 || !net.l1View.subnets().some((p) => p.index === l1.index)) throw notFound(`no L1 subnet ${subnetId} on ${net.name}`)
        views = net.l1View.validatorsOf(l1)
      } else {
        views = net.l1View.allValidators()
      }
      const selected = views.filter(
        (v) =>
          (includeInactive || v.state.active) &&
          (nodeId === undefined || v.validator.nodeId === nodeId) &&
          (validationId === undefined || v.validator.validationId === validationId)
      )
      const page = pageOf(ctx, PAGE_SPECS.standard, (cursor, limit) => keysetPage(selected, (v) => [v.creationTimestamp, v.validator.validationId], "desc", cursor, limit))
      return {
        ...tokenField(page.nextPageToken),
        validators: page.items.map((v) => shape(net, v)),
        blockHeight: net.height("P").toString()
      }
    }
  }
]
