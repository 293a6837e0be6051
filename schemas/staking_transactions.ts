/**
 * staking_transactions: P-chain staking transactions (route 4), with consumed/emitted UTXOs and
 * amounts as nested lists. Hive keys: network, month (of block_timestamp).
 */
import { IntegerLike } from "../src/transform/Decode.ts"
import { assetAmount, pChainUtxo } from "./_restUtxo.ts"
import { col, defineTable } from "./columns.ts"
import { JsonText } from "./wire.ts"

const assetAmounts = (path: string, comment: string) => col.list(assetAmount, comment).from(path)

export const table = defineTable("P-chain staking transactions from the chain-data service, route 4", {
  network: col.str("Network of the listing: mainnet or fuji").fromSlice(),
  tx_hash: col.hash("P-chain transaction id (cb58)").from("txHash"),
  tx_type: col.str("Transaction type, e.g. AddPermissionlessValidatorTx").from("txType"),
  block_timestamp: col.ts("Timestamp of the including block (UTC)").from("blockTimestamp"),
  block_number: col.amount("Height of the including block").from("blockNumber"),
  block_hash: col.hash("Id of the including block").from("blockHash"),
  consumed_utxos: col.list(pChainUtxo, "UTXOs consumed by the transaction").from("consumedUtxos"),
  emitted_utxos: col.list(pChainUtxo, "UTXOs created by the transaction").from("emittedUtxos"),
  source_chain: col.hash("Source chain of an atomic transaction").from("sourceChain?"),
  destination_chain: col.hash("Destination chain of an atomic transaction").from("destinationChain?"),
  value: assetAmounts("value", "Value of the newly created UTXOs per asset"),
  amount_burned: assetAmounts("amountBurned", "Amount burned per asset"),
  amount_staked: assetAmounts("amountStaked", "Amount staked per asset"),
  amount_l1_validator_balance_burned: assetAmounts("amountL1ValidatorBalanceBurned", "Amount locked for L1 validator balances per asset"),
  start_timestamp: col.ts("Staking start (UTC)").from("startTimestamp?"),
  end_timestamp: col.ts("Staking end (UTC)").from("endTimestamp?"),
  delegation_fee_percent: col.str("Delegation fee in percent, exact text as sent").from("delegationFeePercent?"),
  node_id: col.str("Validator node id").from("nodeId?"),
  subnet_id: col.hash("Subnet id").from("subnetId?"),
  l1_validator_manager_blockchain_id: col.hash("Blockchain of the L1 validator manager contract").from("l1ValidatorManagerDetails?.blockchainId"),
  l1_validator_manager_contract_address: col.address("Address of the L1 validator manager contract").from("l1ValidatorManagerDetails?.contractAddress"),
  l1_validator_details: col
    .list(
      col.struct(
        {
          validation_id: col.hash("L1 validation id (cb58)").from("validationId"),
          validation_id_hex: col.str("L1 validation id (hex)").from("validationIdHex"),
          node_id: col.str("Validator node id").from("nodeId"),
          subnet_id: col.hash("Subnet id").from("subnetId"),
          // JSON integers, unlike the string amounts
          weight: col.amount("Validator weight").from("weight", { wire: IntegerLike }),
          remaining_balance: col.amount("Remaining balance (nAVAX)").from("remainingBalance", { wire: IntegerLike }),
          balance_change: col
            .amount("Balance change in this transaction (nAVAX); negative when the balance is returned", { signed: true })
            .from("balanceChange?", { wire: IntegerLike }),
          bls_public_key: col.str("BLS public key").from("blsCredentials?.publicKey?"),
          bls_proof_of_possession: col.str("BLS proof of possession").from("blsCredentials?.proofOfPossession?")
        },
        "L1 validator detail"
      ),
      "L1 validators registered or changed by the transaction"
    )
    .from("l1ValidatorDetails?", { orElse: [] }),
  estimated_reward: col.amount("Estimated reward in nAVAX").from("estimatedReward?"),
  reward_tx_hash: col.hash("Reward transaction id").from("rewardTxHash?"),
  reward_addresses: col.list(col.address("Address"), "Reward addresses").from("rewardAddresses?", { orElse: [] }),
  memo: col.str("Memo").from("memo?"),
  staking_tx_hash: col.hash("Staking transaction of a RewardValidatorTx").from("stakingTxHash?"),
  subnet_owner_locktime: col.int64("Subnet owner locktime").from("subnetOwnershipInfo?.locktime"),
  subnet_owner_threshold: col.int32("Subnet owner threshold").from("subnetOwnershipInfo?.threshold"),
  subnet_owner_addresses: col.list(col.address("Address"), "Subnet owner addresses").from("subnetOwnershipInfo?.addresses", { orElse: [] }),
  bls_public_key: col.str("BLS public key of a new validator").from("blsCredentials?.publicKey"),
  bls_proof_of_possession: col.str("BLS proof of possession of a new validator").from("blsCredentials?.proofOfPossession"),
  blockchain_name: col.str("Name of the chain created by a CreateChainTx").from("blockchainInfo?.chainName?"),
  blockchain_vm_id: col.str("VM id of the chain created by a CreateChainTx").from("blockchainInfo?.vmId?"),
  blockchain_genesis_data: col.str("Genesis data of the created chain, as JSON text").from("blockchainInfo?.genesisData?", { wire: JsonText })
})
