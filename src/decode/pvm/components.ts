/**
 * The parts P-chain txs are built from, read in their Go field order and returned in the shape
 * of their Go JSON (avax.BaseTx, TransferableOutput/Input, secp256k1fx types, stakeable locks,
 * signers, validators, PChainOwner).
 *
 * An interface-typed field is a u32 type id then the value. Go's codec takes any registered type
 * that implements the field's interface; the sets below are those implementors. Credentials and
 * authorizations (verify.Verifiable in Go) are read as secp256k1fx.Credential and
 * secp256k1fx.Input only: the P-chain fx casts them to exactly those types when it verifies a tx,
 * so no accepted block holds any other there.
 */
import { AddressFormatter, hrpOf } from "./address.ts"
import type { ByteReader } from "./reader.ts"
import type {
  BaseTxJson,
  CredentialJson,
  InputJson,
  InputTypeJson,
  OutputJson,
  OutputOwnersJson,
  PChainOwnerJson,
  ProofOfPossessionJson,
  SignerJson,
  TransferableInputJson,
  TransferableOutputJson,
  TransferInputJson,
  TransferOutputJson,
  ValidatorJson
} from "./shapes.ts"
import { cb58, hex0x } from "./text.ts"
import { P_COMPONENT_TYPE_IDS as T } from "./types.ts"

/** secp256k1fx.ID (ids.ID{'s','e','c','p','2','5','6','k','1','f','x'}): the fxID InitCtx sets on every input and output. */
export const SECP256K1FX_ID = cb58(Uint8Array.from({ length: 32 }, (_, i) => "secp256k1fx".charCodeAt(i) || 0))

const PUBLIC_KEY_BYTES = 48
const BLS_SIGNATURE_BYTES = 96
const SECP_SIGNATURE_BYTES = 65
const ADDRESS_BYTES = 20
const ID_BYTES = 32

/** The reader and how this tx's owner addresses are written (known once its networkID is read). */
export interface TxReader {
  readonly r: ByteReader
  readonly chainAlias: string
  addresses: AddressFormatter | undefined
}

const formatters = new Map<string, AddressFormatter>()

export const setNetwork = (c: TxReader, networkId: number): void => {
  const key = `${c.chainAlias}\u0000${networkId}`
  let f = formatters.get(key)
  if (f === undefined) formatters.set(key, (f = new AddressFormatter(c.chainAlias, hrpOf(networkId))))
  c.addresses = f
}

const typeId = (c: TxReader, label: string): [number, number] => {
  const at = c.r.pos
  return [c.r.u32(`${label} type id`), at]
}

const wrongType = (c: TxReader, label: string, id: number, at: number, expected: string): never =>
  c.r.fail(`unknown ${label} type id ${id} (expected ${expected})`, at)

const addresses = (c: TxReader): string[] => {
  const n = c.r.count("addresses", ADDRESS_BYTES)
  const out = new Array<string>(n)
  const f = c.addresses
  for (let i = 0; i < n; i++) {
    const b = c.r.shortId("address")
    // only txs without a networkID lack a formatter, and none of those has owners
    out[i] = f === undefined ? cb58(b) : f.format(b)
  }
  return out
}

const outputOwnersBody = (c: TxReader): OutputOwnersJson => {
  const locktime = c.r.u64("locktime")
  const threshold = c.r.u32("threshold")
  return { addresses: addresses(c), locktime, threshold }
}

const transferOutputBody = (c: TxReader): TransferOutputJson => {
  const amount = c.r.u64("amount")
  const locktime = c.r.u64("locktime")
  const threshold = c.r.u32("threshold")
  return { addresses: addresses(c), amount, locktime, threshold }
}

const transferOutput = (c: TxReader, label: string): TransferOutputJson => {
  const [id, at] = typeId(c, label)
  if (id !== T.TransferOutput) wrongType(c, label, id, at, `${T.TransferOutput} TransferOutput`)
  return transferOutputBody(c)
}

/** avax.TransferableOut: TransferOutput or a stakeable.LockOut around one (Go refuses a lock in a lock). */
const output = (c: TxReader): OutputJson => {
  const [id, at] = typeId(c, "output")
  if (id === T.TransferOutput) return transferOutputBody(c)
  if (id === T.StakeableLockOut) {
    const locktime = c.r.u64("stakeable locktime")
    return { locktime, output: transferOutput(c, "locked output") }
  }
  return wrongType(c, "output", id, at, `${T.TransferOutput} TransferOutput or ${T.StakeableLockOut} StakeableLockOut`)
}

const signatureIndices = (c: TxReader): number[] => {
  const n = c.r.count("signature indices", 4)
  const out = new Array<number>(n)
  for (let i = 0; i < n; i++) out[i] = c.r.u32("signature index")
  return out
}

const transferInputBody = (c: TxReader): TransferInputJson => {
  const amount = c.r.u64("amount")
  return { amount, signatureIndices: signatureIndices(c) }
}

/** avax.TransferableIn: TransferInput or a stakeable.LockIn around one. */
const input = (c: TxReader): InputTypeJson => {
  const [id, at] = typeId(c, "input")
  if (id === T.TransferInput) return transferInputBody(c)
  if (id === T.StakeableLockIn) {
    const locktime = c.r.u64("stakeable locktime")
    const [inner, innerAt] = typeId(c, "locked input")
    if (inner !== T.TransferInput) wrongType(c, "locked input", inner, innerAt, `${T.TransferInput} TransferInput`)
    return { locktime, input: transferInputBody(c) }
  }
  return wrongType(c, "input", id, at, `${T.TransferInput} TransferInput or ${T.StakeableLockIn} StakeableLockIn`)
}

// smallest encodings: asset id + type id + TransferOutput with no owners; utxo id + asset id + type id + TransferInput with no indices
const MIN_TRANSFERABLE_OUTPUT = ID_BYTES + 4 + 8 + 8 + 4 + 4
const MIN_TRANSFERABLE_INPUT = ID_BYTES + 4 + ID_BYTES + 4 + 8 + 4

export const transferableOutputs = (c: TxReader, label: string): TransferableOutputJson[] => {
  const n = c.r.count(label, MIN_TRANSFERABLE_OUTPUT)
  const out = new Array<TransferableOutputJson>(n)
  for (let i = 0; i < n; i++) {
    const assetID = c.r.recurringId("assetID")
    out[i] = { assetID, fxID: SECP256K1FX_ID, output: output(c) }
  }
  return out
}

export const transferableInputs = (c: TxReader, label: string): TransferableInputJson[] => {
  const n = c.r.count(label, MIN_TRANSFERABLE_INPUT)
  const out = new Array<TransferableInputJson>(n)
  for (let i = 0; i < n; i++) {
    const txID = c.r.id("txID")
    const outputIndex = c.r.u32("outputIndex")
    const assetID = c.r.recurringId("assetID")
    out[i] = { txID, outputIndex, assetID, fxID: SECP256K1FX_ID, input: input(c) }
  }
  return out
}

/**
 * txs.BaseTx (embedding avax.BaseTx): the head of every tx but AdvanceTime and the reward txs.
 * The node writes owners with its own network's hrp; the tx's networkID is that network's in every
 * accepted tx (avax.BaseTx.Verify refuses any other), so the bytes alone give the same text.
 */
export const baseTx = (c: TxReader): BaseTxJson => {
  const networkID = c.r.u32("networkID")
  setNetwork(c, networkID)
  const blockchainID = c.r.recurringId("blockchainID")
  const outputs = transferableOutputs(c, "outputs")
  const inputs = transferableInputs(c, "inputs")
  const memo = hex0x(c.r.byteSlice("memo"))
  return { networkID, blockchainID, outputs, inputs, memo }
}

/** fx.Owner: only secp256k1fx.OutputOwners implements it. */
export const owner = (c: TxReader, label: string): OutputOwnersJson => {
  const [id, at] = typeId(c, label)
  if (id !== T.OutputOwners) wrongType(c, label, id, at, `${T.OutputOwners} OutputOwners`)
  return outputOwnersBody(c)
}

/** A subnet, disable or config authorization (verify.Verifiable, a secp256k1fx.Input on chain). */
export const authorization = (c: TxReader, label: string): InputJson => {
  const [id, at] = typeId(c, label)
  if (id !== T.Input) wrongType(c, label, id, at, `${T.Input} Input`)
  return { signatureIndices: signatureIndices(c) }
}

export const proofOfPossession = (c: TxReader): ProofOfPossessionJson => {
  const publicKey = hex0x(c.r.fixed(PUBLIC_KEY_BYTES, "BLS public key"))
  return { publicKey, proofOfPossession: hex0x(c.r.fixed(BLS_SIGNATURE_BYTES, "BLS proof of possession")) }
}

/** signer.Signer: Empty ({}) or ProofOfPossession. */
export const signer = (c: TxReader): SignerJson => {
  const [id, at] = typeId(c, "signer")
  if (id === T.EmptySigner) return {}
  if (id === T.ProofOfPossession) return proofOfPossession(c)
  return wrongType(c, "signer", id, at, `${T.EmptySigner} Empty or ${T.ProofOfPossession} ProofOfPossession`)
}

export const validator = (c: TxReader): ValidatorJson => {
  const nodeID = c.r.nodeId("validator nodeID")
  const start = c.r.u64("validator start")
  const end = c.r.u64("validator end")
  return { nodeID, start, end, weight: c.r.u64("validator weight") }
}

export const pChainOwner = (c: TxReader): PChainOwnerJson => {
  const threshold = c.r.u32("owner threshold")
  const n = c.r.count("owner addresses", ADDRESS_BYTES)
  const addrs = new Array<string>(n)
  for (let i = 0; i < n; i++) addrs[i] = cb58(c.r.shortId("owner address"))
  return { threshold, addresses: addrs }
}

const MIN_CREDENTIAL = 4 + 4

export const credentials = (c: TxReader): CredentialJson[] => {
  const n = c.r.count("credentials", MIN_CREDENTIAL)
  const out = new Array<CredentialJson>(n)
  for (let i = 0; i < n; i++) {
    const [id, at] = typeId(c, "credential")
    if (id !== T.Credential) wrongType(c, "credential", id, at, `${T.Credential} Credential`)
    const k = c.r.count("signatures", SECP_SIGNATURE_BYTES)
    const signatures = new Array<string>(k)
    for (let j = 0; j < k; j++) signatures[j] = hex0x(c.r.fixed(SECP_SIGNATURE_BYTES, "signature"))
    out[i] = { signatures }
  }
  return out
}

export const idList = (c: TxReader, label: string): string[] => {
  const n = c.r.count(label, ID_BYTES)
  const out = new Array<string>(n)
  for (let i = 0; i < n; i++) out[i] = c.r.recurringId(label)
  return out
}

export { BLS_SIGNATURE_BYTES, PUBLIC_KEY_BYTES }
