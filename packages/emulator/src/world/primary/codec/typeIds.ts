/**
 * The type ids the direct encoders write (directTx.ts, stakerAdds.ts, walletWritten.ts,
 * utxoCodec.ts), declared once: vms/platformvm/txs/codec.go registers the P-chain's, vms/avm's
 * codec the X-chain's, and secp256k1fx's take the same ids in both codecs.
 */

/** secp256k1fx types: the same ids in the P-chain's and the AVM's codecs. */
export const SECP = { TransferInput: 5, TransferOutput: 7, Credential: 9, OutputOwners: 11 } as const

/** The P-chain codec's types the world writes directly. */
export const P_TX = {
  AddValidatorTx: 12,
  AddDelegatorTx: 14,
  ImportTx: 17,
  ExportTx: 18,
  AdvanceTimeTx: 19,
  RewardValidatorTx: 20,
  StakeableLockIn: 21,
  StakeableLockOut: 22,
  AddPermissionlessValidatorTx: 25,
  AddPermissionlessDelegatorTx: 26,
  SignerEmpty: 27,
  ProofOfPossession: 28,
  BaseTx: 34
} as const

/** The AVM codec's tx types the world writes directly. */
export const X_TX = { BaseTx: 0, ImportTx: 3, ExportTx: 4 } as const
