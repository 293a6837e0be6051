/**
 * The avalanchejs 5.2.0 classes the JSON-RPC layer serializes txs and blocks with, typed by hand.
 *
 * Its declaration files import siblings without extensions, so under NodeNext most exports type
 * as missing (world/primary/avax.ts explains the same problem); this module runs the real library
 * and restates the constructors we call, copied from its dist/*.d.ts.
 */
import * as runtime from "@avalabs/avalanchejs"

export interface Codec {
  PackPrefix(s: Serializable): Uint8Array
  PackPrefixList(list: ReadonlyArray<Serializable>): Uint8Array
}
export interface Serializable {
  readonly _type: symbol
  toBytes(codec: Codec): Uint8Array
}
export interface Primitive extends Serializable {
  toBytes(): Uint8Array
}
export interface Manager {
  getDefaultCodec(): Codec
  unpack<T>(bytes: Uint8Array, unpacker: { fromBytes(b: Uint8Array, codec: Codec): [T, Uint8Array] }): T
}
export interface SignedTxT {
  readonly unsignedTx: Serializable
  readonly credentials: ReadonlyArray<Serializable>
}

type Ctor<A extends unknown[], T = Serializable> = new (...args: A) => T

interface Api {
  readonly Id: { fromString(s: string): Primitive; new (b: Uint8Array): Primitive }
  readonly Int: Ctor<[n: number], Primitive>
  readonly Short: Ctor<[n: number], Primitive>
  readonly BigIntPr: Ctor<[n: bigint], Primitive>
  readonly Bytes: Ctor<[b: Uint8Array], Primitive>
  readonly Byte: Ctor<[b: Uint8Array], Primitive>
  readonly Stringpr: Ctor<[s: string], Primitive>
  readonly Address: Ctor<[b: Uint8Array], Primitive>
  readonly NodeId: { fromString(s: string): Primitive }
  readonly OutputOwners: Ctor<[locktime: Primitive, threshold: Primitive, addrs: Primitive[]]>
  readonly TransferOutput: Ctor<[amt: Primitive, owners: Serializable]>
  readonly TransferInput: Ctor<[amt: Primitive, input: Serializable]>
  readonly MintOutput: Ctor<[owners: Serializable]>
  readonly MintOperation: Ctor<[input: Serializable, mintOutput: Serializable, transferOutput: Serializable]>
  readonly Input: Ctor<[sigIndices: Primitive[]]>
  readonly Credential: Ctor<[signatures: Serializable[]]>
  readonly Signature: Ctor<[sig: Uint8Array]>
  readonly TransferableOutput: Ctor<[assetId: Primitive, output: Serializable]>
  readonly TransferableInput: Ctor<[utxoId: Serializable, assetId: Primitive, input: Serializable]>
  readonly L1Validator: Ctor<[nodeId: Primitive, weight: Primitive, balance: Primitive, signer: Serializable, remaining: Serializable, deactivation: Serializable]>
  readonly PChainOwner: Ctor<[threshold: Primitive, addrs: Primitive[]]>
  readonly TypeSymbols: Readonly<Record<string, symbol>>
  readonly avaxSerial: {
    readonly UTXOID: { fromNative(txId: string, index: number): Serializable; new (txId: Primitive, index: Primitive): Serializable }
    readonly BaseTx: Ctor<[networkId: Primitive, blockchainId: Primitive, outputs: Serializable[], inputs: Serializable[], memo: Primitive]>
    readonly SignedTx: { fromBytes(b: Uint8Array, codec: Codec): [SignedTxT, Uint8Array] }
  }
  readonly avmSerial: {
    readonly BaseTx: Ctor<[baseTx: Serializable]>
    readonly CreateAssetTx: Ctor<[baseTx: Serializable, name: Primitive, symbol: Primitive, denomination: Primitive, states: Serializable[]]>
    readonly InitialState: Ctor<[fxIndex: Primitive, outputs: Serializable[]]>
    readonly ImportTx: Ctor<[baseTx: Serializable, sourceChain: Primitive, ins: Serializable[]]>
    readonly ExportTx: Ctor<[baseTx: Serializable, destination: Primitive, outs: Serializable[]]>
    readonly OperationTx: Ctor<[baseTx: Serializable, ops: Serializable[]]>
  }
  readonly pvmSerial: {
    readonly BaseTx: Ctor<[baseTx: Serializable]>
    readonly Validator: Ctor<[nodeId: Primitive, start: Primitive, end: Primitive, weight: Primitive]>
    readonly SubnetValidator: Ctor<[validator: Serializable, subnetId: Primitive]>
    readonly Signer: Ctor<[proof: Serializable]>
    readonly SignerEmpty: Ctor<[]>
    readonly StakeableLockOut: Ctor<[lockTime: Primitive, transferOut: Serializable]>
    readonly StakeableLockIn: Ctor<[lockTime: Primitive, transferIn: Serializable]>
    readonly AddValidatorTx: Ctor<[baseTx: Serializable, validator: Serializable, stake: Serializable[], rewardsOwner: Serializable, shares: Primitive]>
    readonly AddDelegatorTx: Ctor<[baseTx: Serializable, validator: Serializable, stake: Serializable[], rewardsOwner: Serializable]>
    readonly AddPermissionlessValidatorTx: Ctor<
      [baseTx: Serializable, validator: Serializable, signer: Serializable, stake: Serializable[], validationOwner: Serializable, delegationOwner: Serializable, shares: Primitive]
    >
    readonly AddPermissionlessDelegatorTx: Ctor<[baseTx: Serializable, validator: Serializable, stake: Serializable[], rewardsOwner: Serializable]>
    readonly ImportTx: Ctor<[baseTx: Serializable, sourceChain: Primitive, ins: Serializable[]]>
    readonly ExportTx: Ctor<[baseTx: Serializable, destination: Primitive, outs: Serializable[]]>
    readonly CreateSubnetTx: Ctor<[baseTx: Serializable, owners: Serializable]>
    readonly CreateChainTx: Ctor<[baseTx: Serializable, subnetId: Primitive, name: Primitive, vmId: Primitive, fxIds: Primitive[], genesis: Primitive, auth: Serializable]>
    readonly ConvertSubnetToL1Tx: Ctor<[baseTx: Serializable, subnetId: Primitive, chainId: Primitive, address: Primitive, validators: Serializable[], auth: Serializable]>
    readonly RegisterL1ValidatorTx: Ctor<[baseTx: Serializable, balance: Primitive, signature: Serializable, message: Primitive]>
    readonly SetL1ValidatorWeightTx: Ctor<[baseTx: Serializable, message: Primitive]>
    readonly IncreaseL1ValidatorBalanceTx: Ctor<[baseTx: Serializable, validationId: Primitive, balance: Primitive]>
    readonly DisableL1ValidatorTx: Ctor<[baseTx: Serializable, validationId: Primitive, auth: Serializable]>
    readonly AdvanceTimeTx: Ctor<[time: Primitive]>
    readonly AddSubnetValidatorTx: Ctor<[baseTx: Serializable, validator: Serializable, auth: Serializable]>
    readonly RemoveSubnetValidatorTx: Ctor<[baseTx: Serializable, nodeId: Primitive, subnetId: Primitive, auth: Serializable]>
    readonly TransformSubnetTx: Ctor<
      [
        baseTx: Serializable,
        subnetId: Primitive,
        assetId: Primitive,
        initialSupply: Primitive,
        maximumSupply: Primitive,
        minConsumptionRate: Primitive,
        maxConsumptionRate: Primitive,
        minValidatorStake: Primitive,
        maxValidatorStake: Primitive,
        minStakeDuration: Primitive,
        maxStakeDuration: Primitive,
        minDelegationFee: Primitive,
        minDelegatorStake: Primitive,
        maxValidatorWeightFactor: Primitive,
        uptimeRequirement: Primitive,
        auth: Serializable
      ]
    >
    readonly TransferSubnetOwnershipTx: Ctor<[baseTx: Serializable, subnetId: Primitive, auth: Serializable, owner: Serializable]>
  }
  readonly utils: {
    getManagerForVM(vm: "AVM" | "PVM"): Manager
    concatBytes(...parts: Uint8Array[]): Uint8Array
    addChecksum(b: Uint8Array): Uint8Array
    bufferToHex(b: Uint8Array): string
    hexToBuffer(hex: string): Uint8Array
    parseBech32(addr: string): [hrp: string, bytes: Uint8Array]
  }
}

export const lib = runtime as unknown as Api
