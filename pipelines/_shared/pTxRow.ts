/**
 * A P-chain tx's row, from the tx as src/decode/pvm decoded it out of the node's block bytes (its
 * fields named and shaped as the node's json names them). The type is the codec's. Fields that
 * several types share have columns (the base tx, atomic inputs and outputs, stake, the validator,
 * the subnet, the rewarded tx); every other field of a type is kept, under its json name, in
 * `other_fields` — nothing a tx carries is dropped (test/pipelines/node/pTxRow.test.ts walks every type).
 */
import type { PTx, SubnetValidatorJson, TransferableInputJson, TransferableOutputJson } from "../../src/decode/pvm/index.ts"
import { cb58 } from "../../src/decode/pvm/text.ts"
import type { InputRow, OutputRow } from "../../schemas/_node.ts"
import type { PTxRow } from "../../schemas/node_p_blocks.ts"
import { jsonText, nodeTime } from "../../schemas/wire.ts"

export const outputRow = (o: TransferableOutputJson): OutputRow => {
  const locked = "output" in o.output ? o.output : undefined
  const t = locked === undefined ? (o.output as Exclude<typeof o.output, { output: unknown }>) : locked.output
  return {
    asset_id: o.assetID,
    fx_id: o.fxID,
    amount: t.amount,
    locktime: t.locktime,
    threshold: t.threshold,
    addresses: t.addresses,
    stakeable_locktime: locked?.locktime ?? null,
    output_json: null
  }
}

export const inputRow = (i: TransferableInputJson): InputRow => {
  const locked = "input" in i.input ? i.input : undefined
  const t = locked === undefined ? (i.input as Exclude<typeof i.input, { input: unknown }>) : locked.input
  return {
    tx_id: i.txID,
    output_index: i.outputIndex,
    asset_id: i.assetID,
    fx_id: i.fxID,
    amount: t.amount,
    signature_indices: t.signatureIndices,
    stakeable_locktime: locked?.locktime ?? null,
    input_json: null
  }
}

/** What any P-chain unsigned tx may hold under the names the columns take from. */
interface Columned {
  readonly networkID?: number
  readonly blockchainID?: string
  readonly outputs?: ReadonlyArray<TransferableOutputJson>
  readonly inputs?: ReadonlyArray<TransferableInputJson>
  readonly memo?: string
  readonly sourceChain?: string
  readonly importedInputs?: ReadonlyArray<TransferableInputJson>
  readonly destinationChain?: string
  readonly exportedOutputs?: ReadonlyArray<TransferableOutputJson>
  readonly stake?: ReadonlyArray<TransferableOutputJson>
  readonly validator?: Partial<SubnetValidatorJson>
  readonly subnetID?: string
  readonly nodeID?: string
  readonly txID?: string
}

/** The columns' fields; a type's others go to other_fields. */
const COLUMNED = new Set<string>([
  "networkID",
  "blockchainID",
  "outputs",
  "inputs",
  "memo",
  "sourceChain",
  "importedInputs",
  "destinationChain",
  "exportedOutputs",
  "stake",
  "validator",
  "subnetID"
])

/** Types whose `txID` names the staker tx they reward (SetAutoRenewedValidatorConfigTx's names one it configures: other_fields). */
const REWARDS = new Set(["RewardValidatorTx", "RewardAutoRenewedValidatorTx"])

/** The validator's node: "NodeID-…", or the 20 bytes a few Etna/Helicon types write as hex, in that form. */
const nodeIdOf = (type: PTx["type"], u: Columned): string | null => {
  const id = u.validator?.nodeID ?? (type === "RemoveSubnetValidatorTx" || type === "AddAutoRenewedValidatorTx" ? u.nodeID : undefined)
  if (id === undefined) return null
  return id.startsWith("0x") ? `NodeID-${cb58(Buffer.from(id.slice(2), "hex"))}` : id
}

const takesNodeId = (type: PTx["type"]): boolean => type === "RemoveSubnetValidatorTx" || type === "AddAutoRenewedValidatorTx"

export const pTxRow = (tx: PTx): PTxRow => {
  const u = tx.unsignedTx as Columned
  const other = Object.entries(tx.unsignedTx).filter(([k]) => !COLUMNED.has(k) && !(k === "nodeID" && takesNodeId(tx.type)) && !(k === "txID" && REWARDS.has(tx.type)))
  const v = u.validator
  return {
    tx_id: tx.id,
    tx_type: tx.type,
    network_id: u.networkID ?? null,
    blockchain_id: u.blockchainID ?? null,
    memo: u.memo ?? null,
    inputs: (u.inputs ?? []).map(inputRow),
    outputs: (u.outputs ?? []).map(outputRow),
    source_chain: u.sourceChain ?? null,
    imported_inputs: (u.importedInputs ?? []).map(inputRow),
    destination_chain: u.destinationChain ?? null,
    exported_outputs: (u.exportedOutputs ?? []).map(outputRow),
    credentials: tx.credentials.map((c) => ({ fx_id: null, signatures: c.signatures })),
    other_fields: other.length > 0 ? jsonText(Object.fromEntries(other)) : null,
    stake: (u.stake ?? []).map(outputRow),
    node_id: nodeIdOf(tx.type, u),
    start_time: v?.start === undefined ? null : nodeTime(v.start),
    end_time: v?.end === undefined ? null : nodeTime(v.end),
    weight: v?.weight ?? null,
    subnet_id: v?.subnetID ?? u.subnetID ?? null,
    rewarded_tx_id: REWARDS.has(tx.type) ? (u.txID ?? null) : null
  }
}
