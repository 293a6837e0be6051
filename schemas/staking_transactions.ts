/**
 * staking_transactions: P-chain staking transactions (route 4), with consumed/emitted UTXOs and
 * amounts as nested lists. Hive keys: network, date (UTC day of block_timestamp).
 */
import { address, amount, bool, defineSchema, hash, int32, int64, list, str, struct, ts } from "./common.ts"

const assetAmount = (name: string, comment: string) =>
  list(
    name,
    struct(
      "item",
      [
        hash("asset_id", "Asset id (cb58)"),
        str("name", "Asset name"),
        str("symbol", "Asset symbol"),
        int32("denomination", "Decimal places of the asset"),
        str("type", "Asset type, e.g. secp256k1"),
        amount("amount", "Amount in the asset's smallest unit")
      ],
      "Asset amount"
    ),
    comment
  )

const utxos = (name: string, comment: string) =>
  list(
    name,
    struct(
      "item",
      [
        hash("utxo_id", "UTXO id (cb58)"),
        hash("tx_hash", "Transaction that created the UTXO"),
        int32("output_index", "Output index within that transaction"),
        hash("asset_id", "Asset id (cb58)"),
        amount("amount", "Amount in the asset's smallest unit"),
        list("addresses", address("item", "Address"), "Addresses that can spend the output"),
        int32("threshold", "Signatures required to spend"),
        str("utxo_type", "UTXO type, e.g. STAKE, TRANSFER"),
        str("reward_type", "Reward type for reward UTXOs"),
        bool("staked", "Whether the UTXO is staked"),
        amount("block_number", "Height of the block that created the UTXO"),
        ts("block_timestamp", "Timestamp of the block that created the UTXO"),
        hash("consuming_tx_hash", "Transaction that consumed the UTXO"),
        amount("consuming_block_number", "Height of the consuming block"),
        ts("consuming_block_timestamp", "Timestamp of the consuming block"),
        hash("created_on_chain_id", "Blockchain on which the output was created"),
        hash("consumed_on_chain_id", "Blockchain on which the output is consumed"),
        int64("platform_locktime", "Unix time after which the UTXO can be consumed"),
        int64("stakeable_locktime", "Unix time before which the UTXO can only be staked"),
        ts("utxo_start_timestamp", "When a staked UTXO was locked"),
        ts("utxo_end_timestamp", "When a staked UTXO unlocks"),
        str("utxo_bytes", "Raw UTXO bytes, 0x hex with checksum, as the service sent them")
      ],
      "UTXO"
    ),
    comment
  )

export const schema = defineSchema(
  [
    hash("tx_hash", "P-chain transaction id (cb58)"),
    str("tx_type", "Transaction type, e.g. AddPermissionlessValidatorTx"),
    ts("block_timestamp", "Timestamp of the including block (UTC)"),
    amount("block_number", "Height of the including block"),
    hash("block_hash", "Id of the including block"),
    utxos("consumed_utxos", "UTXOs consumed by the transaction"),
    utxos("emitted_utxos", "UTXOs created by the transaction"),
    hash("source_chain", "Source chain of an atomic transaction"),
    hash("destination_chain", "Destination chain of an atomic transaction"),
    assetAmount("value", "Value of the newly created UTXOs per asset"),
    assetAmount("amount_burned", "Amount burned per asset"),
    assetAmount("amount_staked", "Amount staked per asset"),
    assetAmount("amount_l1_validator_balance_burned", "Amount locked for L1 validator balances per asset"),
    ts("start_timestamp", "Staking start (UTC)"),
    ts("end_timestamp", "Staking end (UTC)"),
    str("delegation_fee_percent", "Delegation fee in percent, exact text as sent"),
    str("node_id", "Validator node id"),
    hash("subnet_id", "Subnet id"),
    hash("l1_validator_manager_blockchain_id", "Blockchain of the L1 validator manager contract"),
    address("l1_validator_manager_contract_address", "Address of the L1 validator manager contract"),
    list(
      "l1_validator_details",
      struct(
        "item",
        [
          hash("validation_id", "L1 validation id (cb58)"),
          str("validation_id_hex", "L1 validation id (hex)"),
          str("node_id", "Validator node id"),
          hash("subnet_id", "Subnet id"),
          amount("weight", "Validator weight"),
          amount("remaining_balance", "Remaining balance (nAVAX)"),
          amount("balance_change", "Balance change in this transaction (nAVAX); negative when the balance is returned", { signed: true }),
          str("bls_public_key", "BLS public key"),
          str("bls_proof_of_possession", "BLS proof of possession")
        ],
        "L1 validator detail"
      ),
      "L1 validators registered or changed by the transaction"
    ),
    amount("estimated_reward", "Estimated reward in nAVAX"),
    hash("reward_tx_hash", "Reward transaction id"),
    list("reward_addresses", address("item", "Address"), "Reward addresses"),
    str("memo", "Memo"),
    hash("staking_tx_hash", "Staking transaction of a RewardValidatorTx"),
    int64("subnet_owner_locktime", "Subnet owner locktime"),
    int32("subnet_owner_threshold", "Subnet owner threshold"),
    list("subnet_owner_addresses", address("item", "Address"), "Subnet owner addresses"),
    str("bls_public_key", "BLS public key of a new validator"),
    str("bls_proof_of_possession", "BLS proof of possession of a new validator"),
    str("blockchain_name", "Name of the chain created by a CreateChainTx"),
    str("blockchain_vm_id", "VM id of the chain created by a CreateChainTx"),
    str("blockchain_genesis_data", "Genesis data of the created chain, as JSON text")
  ],
  "P-chain staking transactions from the chain-data service, route 4"
)
