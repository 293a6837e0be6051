/**
 * A TCP proxy in front of a PostgreSQL server that can model a network partition which the server
 * notices and the client does not. Until `cut()` it relays bytes both ways. `cut()` then:
 *  - destroys every connection to the server, so the server ends those sessions at once and frees
 *    what they held (advisory locks included);
 *  - keeps every connection from the client open but silent: what the client sends is read and
 *    discarded, nothing ever comes back (no reply, no FIN, no RST), so a query in flight or sent
 *    later waits forever, as behind a dropped route;
 *  - accepts the client's new connections and treats them the same (a connection attempt that
 *    never gets the server's greeting).
 */
import * as net from "node:net"

export interface PgPartition {
  readonly port: number
  /** `url` (postgres://…) reaching the server through this proxy. */
  via(url: string): string
  /** Local ports of the proxy's open connections to the server: their `pg_stat_activity.client_port`. */
  upstreamPorts(): ReadonlyArray<number>
  /** The partition: see above. Idempotent. */
  cut(): void
  /** When `cut()` was called. */
  readonly cutAt: number | undefined
  /** Connections the client opened after the cut (all blackholed). */
  readonly connectionsAfterCut: number
  close(): Promise<void>
}

/** Reads and discards everything `socket` sends; never writes to it. */
const blackhole = (socket: net.Socket) => {
  socket.removeAllListeners("data")
  socket.on("data", () => undefined)
  socket.resume()
}

export const startPgPartition = async (target: { readonly host: string; readonly port: number }): Promise<PgPartition> => {
  let cutAt: number | undefined
  let connectionsAfterCut = 0
  const pairs = new Set<{ readonly client: net.Socket; readonly upstream: net.Socket }>()
  const clients = new Set<net.Socket>()
  const server = net.createServer((client) => {
    clients.add(client)
    client.on("error", () => undefined)
    client.on("close", () => void clients.delete(client))
    if (cutAt !== undefined) {
      connectionsAfterCut++
      blackhole(client)
      return
    }
    const upstream = net.connect(target.port, target.host)
    const pair = { client, upstream }
    pairs.add(pair)
    client.setNoDelay(true)
    upstream.setNoDelay(true)
    upstream.on("error", () => undefined)
    // before the cut a closed end closes the other, as a plain relay would; after it the client's
    // side stays open whatever happens to the server's
    upstream.on("close", () => {
      pairs.delete(pair)
      if (cutAt === undefined) client.destroy()
    })
    client.on("close", () => {
      pairs.delete(pair)
      upstream.destroy()
    })
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as net.AddressInfo
  return {
    port,
    via: (url) => {
      const u = new URL(url)
      u.hostname = "127.0.0.1"
      u.port = String(port)
      return u.toString()
    },
    upstreamPorts: () => [...pairs].map((p) => p.upstream.localPort).filter((p): p is number => p !== undefined),
    cut: () => {
      if (cutAt !== undefined) return
      cutAt = Date.now()
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        upstream.destroy()
        blackhole(client)
      }
      pairs.clear()
    },
    get cutAt() {
      return cutAt
    },
    get connectionsAfterCut() {
      return connectionsAfterCut
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { upstream } of pairs) upstream.destroy()
        for (const c of clients) c.destroy()
        server.close(() => resolve())
      })
  }
}
