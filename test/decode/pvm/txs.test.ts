import * as avalanchejs from "@avalabs/avalanchejs"
import { describe, expect, it } from "vitest"
import { P_TX_TYPES, decodePTx } from "../../../src/decode/pvm/index.ts"
import { HRP, buildTx, cb58, hrpFor, sha256, withCodecVersion } from "./encode.ts"
import { avalanchejsLeaves, decodedLeaves } from "./leaves.ts"

interface AvalanchejsCodec {
  readonly typeToTypeID: ReadonlyMap<unknown, number>
}
const lib = avalanchejs as unknown as {
  utils: { getManagerForVM(vm: "PVM"): { getCodecFromBuffer(b: Uint8Array): [AvalanchejsCodec, Uint8Array] } }
  avaxSerial: { SignedTx: { fromBytes(b: Uint8Array, codec: AvalanchejsCodec): [{ unsignedTx: { _type: unknown } }, Uint8Array] } }
}

/** avalanchejs' own parse of a standalone signed P-chain tx: an independent decoder of the same bytes. */
const avalanchejsParse = (signed: Uint8Array) => {
  const [codec, rest] = lib.utils.getManagerForVM("PVM").getCodecFromBuffer(signed)
  const [tx, remaining] = lib.avaxSerial.SignedTx.fromBytes(rest, codec)
  return { tx, remaining: remaining.length, typeId: codec.typeToTypeID.get(tx.unsignedTx._type) }
}

const inOrder = (v: unknown): string => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x))

const NETWORKS = [1, 5, 12345, 1337]

describe("decodePTx, every P-chain tx type", () => {
  P_TX_TYPES.forEach(({ name, typeId }, i) => {
    const networkId = NETWORKS[i % NETWORKS.length] as number

    it(`given a signed ${name} (type id ${typeId}, network ${networkId}), when decoded, then its type, id and every field are the node's JSON`, () => {
      const built = buildTx(name, networkId)
      const signed = withCodecVersion(built.bytes)

      const tx = decodePTx(signed)

      expect(tx.type).toBe(name)
      expect(tx.id).toBe(cb58(sha256(signed)))
      expect(tx).toEqual({ type: name, id: built.id, unsignedTx: built.unsignedTx, credentials: built.credentials })
      // same keys in the same order as Go's encoder writes them
      expect(inOrder(tx.unsignedTx)).toBe(inOrder(built.unsignedTx))
    })

    it(`given the same ${name} bytes, when avalanchejs parses them too, then it reads the same type id and the same values in the same order`, () => {
      const signed = withCodecVersion(buildTx(name, networkId).bytes)
      const tx = decodePTx(signed)

      const theirs = avalanchejsParse(signed)

      expect(theirs.remaining).toBe(0)
      expect(theirs.typeId).toBe(typeId)
      expect(decodedLeaves({ u: tx.unsignedTx, c: tx.credentials })).toEqual(avalanchejsLeaves(theirs.tx))
    })
  })

  it("given a BaseTx on each network id avalanchego names and one it does not, when decoded, then owners are bech32 with that network's hrp", () => {
    for (const networkId of [...Object.keys(HRP).map(Number), 1337, 0]) {
      const built = buildTx("BaseTx", networkId)

      const tx = decodePTx(withCodecVersion(built.bytes))

      if (tx.type !== "BaseTx") throw new Error(`decoded a ${tx.type}`)
      const output = tx.unsignedTx.outputs[0]?.output
      const address = output !== undefined && "addresses" in output ? output.addresses[0] : undefined
      expect(address?.startsWith(`P-${hrpFor(networkId)}1`), `network ${networkId}: ${address}`).toBe(true)
      expect(tx.unsignedTx).toEqual(built.unsignedTx)
    }
  })

  it("given a tx with no credentials and empty lists, when decoded, then they are [] as Go's codec leaves them (never null)", () => {
    const built = buildTx("AdvanceTimeTx", 1, [])
    const tx = decodePTx(withCodecVersion(built.bytes))
    expect(tx.credentials).toEqual([])

    const emptySigs = decodePTx(withCodecVersion(buildTx("RewardValidatorTx", 1, [0]).bytes))
    expect(emptySigs.credentials).toEqual([{ signatures: [] }])
  })

  it("given the chain alias option, when decoded, then owner addresses carry that alias", () => {
    const built = buildTx("CreateSubnetTx", 5)
    const tx = decodePTx(withCodecVersion(built.bytes), { chainAlias: "11111111111111111111111111111111LpoYY" })
    if (tx.type !== "CreateSubnetTx") throw new Error(`decoded a ${tx.type}`)
    const expected = (built.unsignedTx as { owner: { addresses: string[] } }).owner.addresses
    expect(tx.unsignedTx.owner.addresses).toEqual(expected.map((a) => a.replace(/^P-/, "11111111111111111111111111111111LpoYY-")))
  })
})
