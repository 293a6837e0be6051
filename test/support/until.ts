/** Waiting in a test for what another process or fiber will do (a worker's claim, a lease running out). */

/** Polls `f` every 100 ms until it gives a value; throws naming `what` after `ms`. */
export const until = async <A>(what: string, f: () => Promise<A | undefined>, ms = 60_000): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const got = await f()
    if (got !== undefined) return got
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
