/**
 * The chain-data service's `x-service-api-key` (seed: Authentication). The metrics service and
 * the node take no key, so only chain-data requests come here.
 *
 * Optional mode (the seed's service): no key is fine and gets the keyless limit. In both modes a
 * key outside a non-empty validKeys list answers 401 and an unprivileged key 403, so a client's
 * handling of both can be exercised without switching to required mode.
 */
import { HttpError } from "./contract.ts"
import type { AuthOptions } from "./options.ts"

export const API_KEY_HEADER = "x-service-api-key"

/** Which rate-limit class the request falls in. */
export type Caller = { readonly kind: "keyless" } | { readonly kind: "keyed"; readonly key: string }

export const authorize = (apiKey: string | undefined, auth: AuthOptions): Caller => {
  if (apiKey === undefined || apiKey === "") {
    if (auth.mode === "required") throw new HttpError(401, `missing API key: send it in the ${API_KEY_HEADER} header`)
    return { kind: "keyless" }
  }
  if (auth.unprivilegedKeys.includes(apiKey)) throw new HttpError(403, "this API key does not have access to this resource")
  if (auth.validKeys.length > 0 && !auth.validKeys.includes(apiKey)) throw new HttpError(401, "invalid API key")
  return { kind: "keyed", key: apiKey }
}
