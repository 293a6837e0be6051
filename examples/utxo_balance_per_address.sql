-- UTXO balance per address and asset.
-- Answers: per network, chain, owner address and asset, the unspent outputs of the newest
-- snapshot and their total in the asset's smallest unit (exact), with the part staked now
-- (P-chain). An output owned by several addresses (multisig) counts in full to each of them.
-- Reads: utxos_latest (the newest snapshot of each address set: spent outputs are gone from it).
SELECT
  network,
  blockchain,
  owner AS address,
  asset_id,
  asset_symbol,
  count(*)::BIGINT AS utxos,
  sum(amount) AS balance,
  coalesce(sum(amount) FILTER (WHERE staked), 0) AS staked
FROM utxos_latest, unnest(addresses) AS o(owner)
WHERE consuming_tx_hash IS NULL
GROUP BY network, blockchain, owner, asset_id, asset_symbol
ORDER BY network, blockchain, address, asset_id
