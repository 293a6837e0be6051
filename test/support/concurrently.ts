/**
 * Runs `f` on every item, at most `limit` at a time, and resolves when all have finished (rejects
 * with the first failure once the others have settled). For independent cases of one test whose
 * time is mostly spent off the JavaScript thread (DuckDB's threads, child processes, the disk).
 */
export const concurrently = async <T>(items: ReadonlyArray<T>, limit: number, f: (item: T) => Promise<void>): Promise<void> => {
  let next = 0
  const lane = async () => {
    while (next < items.length) await f(items[next++]!)
  }
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane))
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected")
  if (failed !== undefined) throw failed.reason
}
