/**
 * The emulator's P-chain has the real chain's history and shapes: it starts at the genesis
 * ApricotCommitBlock, crosses from Apricot into Banff at the network's real activation time
 * (avalanchego upgrade/upgrade.go), every proposal block is decided by the next block, and every
 * block and tx type of those eras and the later ones appears.
 */
import { describe, expect, it } from "vitest"
import { UPGRADES, type NetworkName } from "../../src/world/constants.ts"
import type { BlockRecord, PrimaryNetwork, TxRecord } from "../../src/world/primary/index.ts"
import { makeWorld } from "./support.ts"

const APRICOT_PROPOSALS = new Set(["AdvanceTimeTx", "AddValidatorTx", "AddDelegatorTx", "AddSubnetValidatorTx", "RewardValidatorTx"])

const chainOf = (net: PrimaryNetwork): Array<{ readonly block: BlockRecord; readonly txs: ReadonlyArray<TxRecord> }> => {
  const out = []
  for (let h = 0n; h <= net.height("P"); h++) out.push({ block: net.block("P", h)!, txs: net.blockTxs("P", h) })
  return out
}

describe("the P-chain's eras", () => {
  for (const network of ["mainnet", "fuji"] as const satisfies ReadonlyArray<NetworkName>) {
    const net = makeWorld(1).primary.network(network)
    const chain = chainOf(net)
    const banff = UPGRADES[network].banff

    it(`given ${network}, when its P-chain is walked, then it starts at the genesis ApricotCommitBlock at the genesis time and each block follows the one before`, () => {
      expect(chain[0]?.block).toMatchObject({ blockType: "ApricotCommitBlock", timestamp: UPGRADES[network].genesis, txIds: [] })
      for (const [h, { block }] of chain.entries()) {
        if (h === 0) continue
        expect(block.parentId).toBe(chain[h - 1]?.block.id)
        expect(block.timestamp).toBeGreaterThanOrEqual(chain[h - 1]!.block.timestamp)
      }
    })

    it(`given ${network}, when its blocks are typed, then Apricot blocks come before the real Banff activation and Banff blocks after it, and every type of both appears`, () => {
      for (const { block } of chain) {
        if (block.blockType.startsWith("Apricot")) expect(block.timestamp).toBeLessThan(banff)
        else expect(block.timestamp).toBeGreaterThanOrEqual(banff)
      }
      const types = new Set(chain.map((c) => c.block.blockType))
      expect([...types].sort()).toEqual([
        "ApricotAbortBlock",
        "ApricotAtomicBlock",
        "ApricotCommitBlock",
        "ApricotProposalBlock",
        "ApricotStandardBlock",
        "BanffAbortBlock",
        "BanffCommitBlock",
        "BanffProposalBlock",
        "BanffStandardBlock"
      ])
    })

    it(`given ${network}, when proposal blocks are read, then each holds one proposal tx and the next block, holding none, commits or aborts it`, () => {
      let proposals = 0
      for (const [h, { block, txs }] of chain.entries()) {
        const next = chain[h + 1]
        if (block.blockType === "ApricotProposalBlock" || block.blockType === "BanffProposalBlock") {
          proposals++
          expect(txs).toHaveLength(1)
          if (block.blockType === "BanffProposalBlock") expect(txs[0]?.type).toBe("RewardValidatorTx")
          else expect(APRICOT_PROPOSALS.has(txs[0]!.type)).toBe(true)
          if (next === undefined) continue
          const era = block.blockType.startsWith("Apricot") ? "Apricot" : "Banff"
          expect([`${era}CommitBlock`, `${era}AbortBlock`]).toContain(next.block.blockType)
          expect(next.txs).toEqual([])
        }
        if (block.blockType.endsWith("CommitBlock") || block.blockType.endsWith("AbortBlock")) {
          expect(txs).toEqual([])
          if (h > 0) expect(chain[h - 1]?.block.blockType).toMatch(/ProposalBlock$/)
        }
        if (block.blockType === "ApricotAtomicBlock") expect(txs.map((t) => t.type)).toEqual([expect.stringMatching(/^(Import|Export)Tx$/)])
        // since Banff a reward is never issued beside other txs
        if (block.blockType === "BanffStandardBlock") expect(txs.some((t) => t.type === "RewardValidatorTx")).toBe(false)
      }
      expect(proposals).toBeGreaterThan(10)
    })

    it(`given ${network}, when every tx of its P-chain is listed, then every P-chain tx type from genesis to Etna appears`, () => {
      const types = new Set(chain.flatMap((c) => c.txs.map((t) => t.type)))
      expect([...types].sort()).toEqual([
        "AddDelegatorTx",
        "AddPermissionlessDelegatorTx",
        "AddPermissionlessValidatorTx",
        "AddSubnetValidatorTx",
        "AddValidatorTx",
        "AdvanceTimeTx",
        "BaseTx",
        "ConvertSubnetToL1Tx",
        "CreateChainTx",
        "CreateSubnetTx",
        "DisableL1ValidatorTx",
        "ExportTx",
        "ImportTx",
        "IncreaseL1ValidatorBalanceTx",
        "RegisterL1ValidatorTx",
        "RemoveSubnetValidatorTx",
        "RewardValidatorTx",
        "SetL1ValidatorWeightTx",
        "TransferSubnetOwnershipTx",
        "TransformSubnetTx"
      ])
    })

    it(`given ${network}, when a tx is looked up by id, then it names the block holding it`, () => {
      for (const { block, txs } of chain) for (const t of txs) expect(net.tx(t.id, "P")?.block.height).toBe(block.height)
    })
  }
})
