/**
 * The L1 part of a PChainTransaction: subnetId, l1ValidatorManagerDetails (conversions) and
 * l1ValidatorDetails, the validators a tx registers or changes "as at the time of the
 * transaction, not in real-time" (the document's words): weight and remaining balance just after
 * the tx, balanceChange what the tx added (negative when a removal or disable returns the rest).
 */
import type { PrimaryNetwork, TxRecord } from "../../world/primary/index.ts"
import { fromCb58, hex0x } from "../../world/primary/ids.ts"
import type { L1ValidatorSeed } from "../../world/primary/types.ts"

type Json = Record<string, unknown>

const hexOf = (validationId: string): string => hex0x(fromCb58(validationId) ?? new Uint8Array(0))

/** A validator as its conversion or registration created it (its first weight and balance). */
const created = (subnetId: string, v: L1ValidatorSeed): Json => ({
  validationId: v.validationId,
  validationIdHex: hexOf(v.validationId),
  nodeId: v.nodeId,
  subnetId,
  weight: v.weight,
  remainingBalance: v.balance,
  balanceChange: v.balance,
  blsCredentials: { publicKey: v.signer.publicKey, proofOfPossession: v.signer.proofOfPossession }
})

/** A validator a later tx changed, its state computed at the tx's time. */
const changed = (net: PrimaryNetwork, tx: TxRecord, subnetId: string, validationId: string, returnsBalance: boolean, added: bigint): Json[] => {
  const val = net.l1s.byValidationId(validationId)
  if (!val) return []
  const after = net.l1s.state(val, tx.issueTime)
  // a removal or disable returns the balance left just before it
  const change = returnsBalance ? -net.l1s.state(val, tx.issueTime - 1).balance : added
  return [
    {
      validationId,
      validationIdHex: val.validationIdHex,
      nodeId: val.nodeId,
      subnetId,
      weight: after.weight,
      remainingBalance: after.balance,
      balanceChange: change
    }
  ]
}

export const l1TxFields = (net: PrimaryNetwork, tx: TxRecord): Json => {
  const l1 = tx.l1
  switch (l1?.kind) {
    case "convert":
      return {
        subnetId: l1.subnetId,
        l1ValidatorManagerDetails: { blockchainId: l1.chainId, contractAddress: l1.managerAddress },
        l1ValidatorDetails: l1.validators.map((v) => created(l1.subnetId, v))
      }
    case "register":
      return { subnetId: l1.subnetId, l1ValidatorDetails: [created(l1.subnetId, l1.validator)] }
    case "setWeight":
      return { subnetId: l1.subnetId, l1ValidatorDetails: changed(net, tx, l1.subnetId, l1.validationId, l1.weight === 0n, 0n) }
    case "increaseBalance":
      return { subnetId: l1.subnetId, l1ValidatorDetails: changed(net, tx, l1.subnetId, l1.validationId, false, l1.amount) }
    case "disable":
      return { subnetId: l1.subnetId, l1ValidatorDetails: changed(net, tx, l1.subnetId, l1.validationId, true, 0n) }
    default:
      return {}
  }
}
