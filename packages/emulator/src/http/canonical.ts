/**
 * A query string in a fixed order, so two requests that differ only in parameter order count as
 * the same request (for page-token fingerprints and for which page carries a persistent fault).
 */
export const canonicalQuery = (query: URLSearchParams, omit: ReadonlyArray<string> = []): string =>
  [...query.entries()]
    .filter(([k]) => !omit.includes(k))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join("&")
