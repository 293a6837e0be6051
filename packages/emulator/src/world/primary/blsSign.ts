/**
 * BLS signatures (BLS12-381, signature in G2, avalanchego's proof-of-possession ciphersuite) for
 * the warp messages the emulator signs, by blst (supranational's C library, through ChainSafe's
 * prebuilt Node binding), the implementation Ethereum's clients sign with.
 *
 * Why not avalanchejs' own `bls.sign` (@noble/curves in JavaScript): ~25 ms a signature, and a
 * nightly emulator run signs ~125 messages (3.5 of its ~20 CPU-s were BLS, profiled on `npm
 * start`); blst takes ~0.45 ms. Both are deterministic and give the same 96 bytes for the same key
 * and message (packages/emulator/test/primary/blsSign.test.ts compares them), so avalanchejs stays the
 * fallback where no blst binary exists for the platform: slower, never different.
 */
import { createRequire } from "node:module"
import { avax } from "./avax.ts"

interface Blst {
  readonly SecretKey: { fromBytes(b: Uint8Array): { sign(msg: Uint8Array): { toBytes(compress?: boolean): Uint8Array } } }
}

const loadBlst = (): Blst | undefined => {
  try {
    // required at run time, not imported: the CLI bundle cannot hold a native addon, and a
    // platform without a prebuilt binary falls back instead of failing to start
    return createRequire(import.meta.url)("@chainsafe/blst") as Blst
  } catch {
    return undefined
  }
}

const blst = loadBlst()

/** Which implementation signs in this process (tests name it). */
export const blsBackend: "blst" | "avalanchejs" = blst === undefined ? "avalanchejs" : "blst"

/** avalanchejs' signature: the fallback, and the reference blst is held to. */
export const referenceBlsSign = (message: Uint8Array, secret: Uint8Array): Uint8Array => avax.bls.sign(message, avax.bls.secretKeyFromBytes(secret))

/**
 * The compressed signature (96 bytes) of `message` under the secret key `secret` (32 bytes,
 * big-endian, nonzero and below the group order).
 */
export const blsSign: (message: Uint8Array, secret: Uint8Array) => Uint8Array =
  blst === undefined ? referenceBlsSign : (message, secret) => blst.SecretKey.fromBytes(secret).sign(message).toBytes(true)
