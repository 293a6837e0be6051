/**
 * node_transactions: X-chain transactions as the node's avm.getTx (json) gives them, for every
 * transaction of the crawled node_x_blocks; inputs, outputs and credentials as nested lists.
 * Hive keys: network, date (UTC day of the block's time). The output, input and credential
 * structs are shared with node_p_blocks' txs.
 */
import { address, amount, defineSchema, hash, int32, int64, list, str, struct, ts } from "./common.ts"

export const outputStruct = (name: string, comment: string) =>
  struct(
    name,
    [
      hash("asset_id", "Asset id (cb58)"),
      hash("fx_id", "Feature extension id (cb58; secp256k1fx for transfers)"),
      amount("amount", "Amount in the asset's smallest unit (null for outputs without one: mint, NFT)"),
      int64("locktime", "Unix time before which the output cannot be spent (0: none)"),
      int32("threshold", "Signatures required to spend"),
      list("addresses", address("item", "Address"), "Owners, bech32 with chain prefix, as the node writes them"),
      int64("stakeable_locktime", "P-chain stakeable lock: Unix time before which the output may only be staked (null: not locked)"),
      str("output_json", "The output as sent, JSON text, when it is not a transfer output (mint, NFT…); null otherwise")
    ],
    comment
  )

export const inputStruct = (name: string, comment: string) =>
  struct(
    name,
    [
      hash("tx_id", "Transaction that created the spent output (cb58)"),
      int32("output_index", "Index of the spent output in that transaction"),
      hash("asset_id", "Asset id (cb58)"),
      hash("fx_id", "Feature extension id (cb58)"),
      amount("amount", "Amount spent in the asset's smallest unit"),
      list("signature_indices", int32("item", "Index"), "Which owners sign, by index in the output's address list"),
      int64("stakeable_locktime", "P-chain stakeable lock of the spent output (null: not locked)"),
      str("input_json", "The input as sent, JSON text, when it is not a transfer input; null otherwise")
    ],
    comment
  )

export const credentialStruct = (name: string, comment: string) =>
  struct(name, [hash("fx_id", "Feature extension id (X-chain credentials; null on the P-chain)"), list("signatures", str("item", "Signature"), "Signatures, 0x hex")], comment)

/** The json tx columns both chains share (pipelines/_shared/nodeTx.ts txColumns fills them). */
export const txFields = [
  hash("tx_id", "Transaction id (cb58)", { nullable: false }),
  str("tx_type", "Tx type, avalanchego's struct name (BaseTx, ImportTx, ExportTx, CreateAssetTx, OperationTx on the X-chain; AddValidatorTx … DisableL1ValidatorTx on the P-chain): on the P-chain from the codec's type id in the bytes, on the X-chain from the json's fields (each type has its own set)", { nullable: false }),
  int32("network_id", "Network id in the tx (1 mainnet, 5 fuji)"),
  hash("blockchain_id", "Blockchain the tx was issued on (cb58)"),
  str("memo", "Memo, 0x hex"),
  list("inputs", inputStruct("item", "Input"), "Inputs: the outputs this tx spends"),
  list("outputs", outputStruct("item", "Output"), "Outputs this tx creates"),
  hash("source_chain", "ImportTx: blockchain the imported outputs come from"),
  list("imported_inputs", inputStruct("item", "Input"), "ImportTx: atomic inputs spent from the source chain"),
  hash("destination_chain", "ExportTx: blockchain the exported outputs go to"),
  list("exported_outputs", outputStruct("item", "Output"), "ExportTx: outputs sent to the destination chain"),
  list("credentials", credentialStruct("item", "Credential"), "One credential per spent input, in input order"),
  str("other_fields", "The tx type's fields not modelled as columns, under their json names, as JSON text (null when none): e.g. an AdvanceTimeTx's time, a staker's owners and shares, a chain's genesis")
]

export const schema = defineSchema(
  [
    int64("block_height", "Height of the X-chain block holding the tx", { nullable: false }),
    hash("block_id", "That block's id (cb58)"),
    ts("block_timestamp", "That block's time (UTC); null when its json had none"),
    ...txFields,
    str("asset_name", "CreateAssetTx: name of the new asset"),
    str("asset_symbol", "CreateAssetTx: symbol of the new asset"),
    int32("asset_denomination", "CreateAssetTx: decimal places of the new asset"),
    list(
      "initial_states",
      struct(
        "item",
        [
          int32("fx_index", "Index of the feature extension in the tx"),
          hash("fx_id", "Feature extension id"),
          list("outputs", outputStruct("item", "Output"), "Initial outputs of the asset (asset_id is the tx id: the new asset)")
        ],
        "Initial state"
      ),
      "CreateAssetTx: the asset's initial outputs per feature extension"
    )
  ],
  "X-chain transactions of the crawled node_x_blocks, from the node's avm.getTx (json), inputs and outputs nested"
)
