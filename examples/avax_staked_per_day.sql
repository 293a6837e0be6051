-- AVAX staked per day.
-- Answers: per network and UTC day (of the including block), how much AVAX the P-chain staking
-- transactions of that day put at stake (the AVAX entries of amount_staked: validator and
-- delegator stakes), and how many transactions staked it. staked_navax is exact (nAVAX);
-- staked_avax is the same in AVAX, as a double.
-- Reads: staking_transactions_latest (one row per transaction, however often its window was
-- re-fetched).
SELECT
  network,
  date,
  count(DISTINCT tx_hash)::BIGINT AS staking_txs,
  sum(s.amount) AS staked_navax,
  sum(s.amount) / 1e9 AS staked_avax
FROM staking_transactions_latest, unnest(amount_staked) AS u(s)
WHERE s.symbol = 'AVAX'
GROUP BY network, date
ORDER BY network, date
