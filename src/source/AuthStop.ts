/**
 * 401 and 403 are about our credentials, not about one request: every other request to that
 * service would get the same answer. The first one names the service and what to set, and from
 * then on no request goes to that host (each fails at once with the same explanation), so the
 * slices in flight stop after one request and the runner starts no other slice (Runner.ts).
 */
import type { SourceSettings } from "../Config.ts"
import { SourceError } from "../Errors.ts"

const clip = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/** The service a URL belongs to, as the user configured it. */
const serviceOf = (settings: SourceSettings, url: string): { readonly name: string; readonly variable: string; readonly root: string; readonly takesKey: boolean } => {
  const under = (root: string) => root !== "" && (url === root || url.startsWith(`${root}/`) || url.startsWith(`${root}?`))
  if (under(settings.baseUrl)) return { name: "chain-data service", variable: "CHAINETL_BASE_URL", root: settings.baseUrl, takesKey: true }
  if (under(settings.metricsUrl)) return { name: "metrics service", variable: "CHAINETL_METRICS_URL", root: settings.metricsUrl, takesKey: false }
  return { name: "node", variable: "CHAINETL_NODE_URL", root: settings.nodeUrl, takesKey: false }
}

/** The error a 401/403 becomes: short, naming the service, what it said and what to set. */
export const authError = (settings: SourceSettings, url: string, failure: SourceError, scrub: (text: string) => string): SourceError => {
  const service = serviceOf(settings, url)
  const keys = settings.apiKeys
  // one key named `default` is CHAINETL_API_KEY's (src/ApiKeys.ts)
  const several = keys.length > 1 || (keys.length === 1 && keys[0]!.name !== "default")
  const key =
    keys.length === 0
      ? "no API key is set"
      : several
        ? `every key of CHAINETL_API_KEYS (${keys.map((k) => k.name).join(", ")}) was refused, sent in the ${settings.apiKeyHeader} header`
        : `the key set was sent in the ${settings.apiKeyHeader} header`
  // the variable the user sets, then what it should hold
  const [variable, what] = several ? ["CHAINETL_API_KEYS", "keys"] : ["CHAINETL_API_KEY", "a key"]
  const fix = service.takesKey
    ? `${key}. Set ${variable} to ${what} this service accepts (and CHAINETL_API_KEY_HEADER if it expects another header than ${settings.apiKeyHeader})`
    : `chainetl sends it no API key (CHAINETL_API_KEY and CHAINETL_API_KEY_HEADER go to the chain-data service only); check that ${service.variable} is the right service`
  return new SourceError({
    reason: "Auth",
    request: failure.request,
    ...(failure.status === undefined ? {} : { status: failure.status }),
    detail: scrub(`the ${service.name} at ${service.root} refused the request (${clip(failure.detail)}): ${fix}. The run stops: no other request is sent to it`)
  })
}

/** Per host, the refusal that stopped it: later requests fail with it, unsent. */
export const makeAuthStop = () => {
  const refused = new Map<string, SourceError>()
  return {
    refusal: (host: string, request: string): SourceError | undefined => {
      const first = refused.get(host)
      return first === undefined
        ? undefined
        : new SourceError({ reason: "Auth", request, ...(first.status === undefined ? {} : { status: first.status }), detail: `not sent: ${first.detail}` })
    },
    record: (host: string, error: SourceError): void => {
      if (!refused.has(host)) refused.set(host, error)
    }
  }
}
