/**
 * The L1 part of a PChainTransaction: subnetId, l1ValidatorManagerDetails (conversions) and
 * l1ValidatorDetails, the validators a tx registers or changes "as at the time of the
 * transaction, not in real-time" (the document's words): weight and remaining balance just after
 * the tx, balanceChange what the tx added (negative when a removal or disable returns the rest).
 * Weights and balances are uint64: written as exact integer literals (exactInteger), and the
 * answer's ids named through `ids` (see wire.ts).
 */
import { exactInteger } from "../../http/exactJson.ts"
import type { PrimaryNetwork, TxRecord } from "../../world/primary/index.ts"
import { fromCb58, hex0x } from "../../world/primary/ids.ts"
import type { L1Validator } from "../../world/primary/l1.ts"
import { Lru } from "../../world/primary/lru.ts"
import type { L1ValidatorSeed } from "../../world/primary/types.ts"

type Json = Record<string, unknown>
type Ids = (id: string) => string

const hexOf = (validationId: string): string => hex0x(fromCb58(validationId) ?? new Uint8Array(0))

/** A validator as its conversion or registration created it (its first weight and balance). */
const created = (subnetId: string, v: L1ValidatorSeed, ids: Ids): Json => ({
  validationId: ids(v.validationId),
  validationIdHex: hexOf(v.validationId),
  nodeId: v.nodeId,
  subnetId: ids(subnetId),
  weight: exactInteger(v.weight),
  remainingBalance: exactInteger(v.balance),
  balanceChange: exactInteger(v.balance),
  blsCredentials: { publicKey: v.signer.publicKey, proofOfPossession: v.signer.proofOfPossession }
})

/**
 * Validators by validation id: a listing names the same validator in each of its top-ups and weight
 * changes, and finding one from its id decodes the id (two sha256 and a base58). What an id names
 * does not change with time. Bounded.
 */
const validators = new WeakMap<PrimaryNetwork, Lru<string, L1Validator | undefined>>()
const VALIDATOR_MEMO = 32_768
const validatorOf = (net: PrimaryNetwork, validationId: string): L1Validator | undefined => {
  let memo = validators.get(net)
  if (memo === undefined) validators.set(net, (memo = new Lru(VALIDATOR_MEMO)))
  return memo.get(validationId, () => net.l1s.byValidationId(validationId))
}

/** A validator a later tx changed, its state computed at the tx's time. */
const changed = (net: PrimaryNetwork, tx: TxRecord, subnetId: string, validationId: string, returnsBalance: boolean, added: bigint, ids: Ids): Json[] => {
  const val = validatorOf(net, validationId)
  if (!val) return []
  const after = net.l1s.state(val, tx.issueTime)
  // a removal or disable returns the balance left just before it
  const change = returnsBalance ? -net.l1s.state(val, tx.issueTime - 1).balance : added
  return [
    {
      validationId: ids(validationId),
      validationIdHex: val.validationIdHex,
      nodeId: val.nodeId,
      subnetId: ids(subnetId),
      weight: exactInteger(after.weight),
      remainingBalance: exactInteger(after.balance),
      balanceChange: exactInteger(change)
    }
  ]
}

export const l1TxFields = (net: PrimaryNetwork, tx: TxRecord, ids: Ids): Json => {
  const l1 = tx.l1
  switch (l1?.kind) {
    case "convert":
      return {
        subnetId: ids(l1.subnetId),
        l1ValidatorManagerDetails: { blockchainId: ids(l1.chainId), contractAddress: ids(l1.managerAddress) },
        l1ValidatorDetails: l1.validators.map((v) => created(l1.subnetId, v, ids))
      }
    case "register":
      return { subnetId: ids(l1.subnetId), l1ValidatorDetails: [created(l1.subnetId, l1.validator, ids)] }
    case "setWeight":
      return { subnetId: ids(l1.subnetId), l1ValidatorDetails: changed(net, tx, l1.subnetId, l1.validationId, l1.weight === 0n, 0n, ids) }
    case "increaseBalance":
      return { subnetId: ids(l1.subnetId), l1ValidatorDetails: changed(net, tx, l1.subnetId, l1.validationId, false, l1.amount, ids) }
    case "disable":
      return { subnetId: ids(l1.subnetId), l1ValidatorDetails: changed(net, tx, l1.subnetId, l1.validationId, true, 0n, ids) }
    default:
      return {}
  }
}
