import { describe, expect, it } from "vitest"
import { avax } from "../../src/world/primary/avax.ts"

// the facade states avalanchejs' signatures by hand (its ESM typings do not resolve under NodeNext):
// every member it declares must exist in the library that actually runs
describe("typed avalanchejs facade", () => {
  it("given the running avalanchejs 5.2.0, when the facade's members are looked up, then each is a function or namespace", () => {
    const a = avax as unknown as Record<string, Record<string, unknown>>
    const missing = [
      ...["Id", "Int", "Short", "Bool", "BigIntPr", "Bytes", "Address", "OutputOwners", "TransferOutput", "Utxo"].filter((k) => typeof a[k] !== "function"),
      ...(typeof a.avaxSerial?.UTXOID === "function" ? [] : ["avaxSerial.UTXOID"]),
      ...(typeof a.pvmSerial?.StakeableLockOut === "function" ? [] : ["pvmSerial.StakeableLockOut"]),
      ...["sign", "secretKeyFromBytes", "signatureFromBytes"].filter((k) => typeof a.bls?.[k] !== "function").map((k) => `bls.${k}`),
      ...["concatBytes", "bufferToHex", "hexToBuffer", "addChecksum", "getManagerForVM", "getUtxoInfo", "formatBech32", "format", "parseBech32"]
        .filter((k) => typeof a.utils?.[k] !== "function")
        .map((k) => `utils.${k}`)
    ]
    const warp = avax.pvmSerial.warp as unknown as Record<string, unknown>
    const payloads = avax.pvmSerial.warp.AddressedCallPayloads as unknown as Record<string, unknown>
    missing.push(...["getWarpManager", "WarpUnsignedMessage", "WarpSignature", "WarpMessage"].filter((k) => typeof warp[k] !== "function"))
    missing.push(...["L1ValidatorRegistrationMessage", "L1ValidatorWeightMessage", "SubnetToL1ConversionMessage"].filter((k) => typeof payloads[k] !== "function"))
    expect(missing).toEqual([])
    expect(typeof avax.utils.base58check.encode).toBe("function")
  })
})
