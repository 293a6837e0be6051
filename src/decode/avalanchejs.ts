/**
 * The part of @avalabs/avalanchejs 5.2.0 the pipeline's decoders call, with the signatures copied
 * from its dist/*.d.ts.
 *
 * Its declaration files import siblings without extensions, so under NodeNext most exports type
 * as missing; this module runs the real library and restates only what we use, so a misuse still
 * fails to compile. Pipeline code: nothing here may come from the emulator.
 */
import { createRequire } from "node:module"

export interface Codec {
  /** The codec's type registry: a serializable's `_type` symbol → its type id on the wire. */
  readonly typeToTypeID: ReadonlyMap<symbol, number>
}

export interface Manager {
  /** Reads the 2-byte codec version and returns its codec and the bytes after it; throws for unknown versions. */
  getCodecFromBuffer(buff: Uint8Array): [Codec, Uint8Array]
}

export interface OutputOwners {
  readonly locktime: { value(): bigint }
  readonly threshold: { value(): number }
  readonly addrs: ReadonlyArray<{ toBytes(): Uint8Array }>
}

export interface Utxo {
  readonly utxoId: { readonly txID: { toString(): string }; readonly outputIdx: { value(): number } }
  readonly output: { readonly _type: symbol }
  getOutputOwners(): OutputOwners
  ID(): string
}

export interface UtxoInfo {
  readonly amount: bigint
  readonly assetId: string
  readonly locktime: bigint
  readonly stakeableLocktime: bigint
  readonly threshold: number
  readonly utxoId: string
}

interface Api {
  readonly Utxo: { fromBytes(bytes: Uint8Array, codec: Codec): [Utxo, Uint8Array] }
  readonly utils: {
    getManagerForVM(vm: "AVM" | "PVM" | "EVM"): Manager
    getUtxoInfo(u: Utxo): UtxoInfo
    addChecksum(b: Uint8Array): Uint8Array
    hexToBuffer(hex: string): Uint8Array
    format(chainIdAlias: string, hrp: string, addr: Uint8Array): string
  }
}

/**
 * The library, loaded on first use by its own one-file CommonJS build: only the UTXO datasets
 * decode bytes, and importing it with every command made each start slower (it precomputes
 * curve tables when loaded; docs/performance.md, "Why the code is shaped so"). Not an `import`, so the
 * CLI's bundle leaves it out and a first use reads it from node_modules.
 */
let loaded: Api | undefined
export const avalanchejs = (): Api => (loaded ??= createRequire(import.meta.url)("@avalabs/avalanchejs") as Api)
