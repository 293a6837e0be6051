/**
 * Route 1: the aggregated signature over the warp message of an L1-related P-chain tx
 * (conversion, registration, weight change, disable). Unknown tx → 404; a known tx without a
 * warp message → 400. The document lists the success as 201; the seed's "every route replies
 * 200" rules, so the core's 200 stands.
 */
import type { RouteDef } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import { fromCb58 } from "../../world/primary/ids.ts"
import { notFound, readNetwork } from "./params.ts"

export const signatureRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}",
    seedRoute: 1,
    handle: (ctx) => {
      const { net } = readNetwork(ctx)
      const txHash = ctx.params.txHash ?? ""
      if (fromCb58(txHash)?.length !== 32) throw badRequest(`txHash must be a cb58 transaction hash (got "${txHash}")`)
      const signed = net.signedWarpMessage(txHash)
      if (signed === undefined) throw notFound(`no P-chain transaction ${txHash} on ${net.name}`)
      if (signed === "none") throw badRequest(`transaction ${txHash} is not L1-related: it carries no warp message to sign`)
      return { signedMessage: signed }
    }
  }
]
