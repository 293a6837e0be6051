/**
 * A node in front of `target` (an emulator's node URL) whose P-chain blocks at the `broken`
 * heights are not blocks at all: what a block the pipeline cannot map looks like to a crawl.
 * Every other call is passed to `target` as sent.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface BrokenNode {
  readonly url: string
  readonly close: () => Promise<void>
}

export const brokenNode = async (target: string, broken: ReadonlySet<string>): Promise<BrokenNode> => {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8")
        const call = JSON.parse(body) as { id: unknown; method: string; params?: { height?: unknown; encoding?: string } }
        if (call.method === "platform.getBlockByHeight" && broken.has(String(call.params?.height))) {
          res.writeHead(200, { "content-type": "application/json" })
          res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: { block: "not a block", encoding: call.params?.encoding ?? "json" } }))
          return
        }
        const upstream = await fetch(new URL(req.url ?? "/", target), { method: "POST", headers: { "content-type": "application/json" }, body })
        res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" })
        res.end(Buffer.from(await upstream.arrayBuffer()))
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
