/**
 * A kept-alive socket the server has closed is not an attempt: the transport sends the request
 * again on a new connection. Staged by a server that resets the connection when a second request
 * arrives on a socket it has already answered on (what a server's idle-socket timeout looks like
 * to a client that wrote just as it closed).
 */
import { Effect, Either } from "effect"
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { makeNodeTransport } from "../../src/source/Transport.ts"

const LIMITS = { timeoutMs: 5_000, maxBodyBytes: 1 << 20 }

describe("the node:http transport and stale kept-alive sockets", () => {
  let server: http.Server | undefined
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  })

  /** Answers the first request of each connection; resets the connection on any later one (up to `resets` times). */
  const start = async (resets: number) => {
    const served: number[] = []
    let connections = 0
    let left = resets
    server = http.createServer((req, res) => {
      const socket = req.socket as Socket & { seen?: boolean; id?: number }
      if (socket.seen === true && left > 0) {
        left--
        socket.resetAndDestroy()
        return
      }
      socket.seen = true
      served.push(socket.id!)
      res.end(JSON.stringify({ n: served.length }))
    })
    server.on("connection", (s: Socket & { id?: number }) => {
      s.id = ++connections
    })
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/x`, served, connections: () => connections }
  }

  it("given a server that resets a kept-alive connection on its next request, when two requests are sent one after the other, then both succeed, the second on a new connection", async () => {
    const { url, served, connections } = await start(1)
    const t = makeNodeTransport()
    try {
      const first = await Effect.runPromise(t.send({ method: "GET", url, headers: {} }, LIMITS, "GET /x"))
      const second = await Effect.runPromise(t.send({ method: "GET", url, headers: {} }, LIMITS, "GET /x"))
      expect([first.status, second.status]).toEqual([200, 200])
      expect(JSON.parse(Buffer.from(second.bytes).toString())).toEqual({ n: 2 })
      expect(served).toEqual([1, 2])
      expect(connections()).toBe(2)
    } finally {
      t.close()
    }
  })

  it("given a fresh connection reset, when a request is sent, then it fails as a Transport error (only a reused socket is sent again)", async () => {
    server = http.createServer((req) => req.socket.resetAndDestroy())
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/x`
    const t = makeNodeTransport()
    try {
      const result = await Effect.runPromise(Effect.either(t.send({ method: "GET", url, headers: {} }, LIMITS, "GET /x")))
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(result.left.error.message).toMatch(/ECONNRESET/)
    } finally {
      t.close()
    }
  })
})
