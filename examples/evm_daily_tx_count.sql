-- Daily EVM transactions, from the blocks and from the metrics service.
-- Answers: per chain and UTC day of the crawled blocks, the blocks and the transactions they
-- hold (sum of tx_count) next to the metrics service's txCount for the same day (NULL where the
-- job's metric months do not cover the day) and the difference, metric minus blocks: a day the
-- crawl holds only in part shows fewer from the blocks.
-- Reads: evm_blocks_latest, chain_metrics_latest (metric txCount, time_interval day).
WITH b AS (
  SELECT chain_id, date, count(*)::BIGINT AS blocks, sum(tx_count)::BIGINT AS txs_from_blocks
  FROM evm_blocks_latest
  GROUP BY chain_id, date
),
m AS (
  SELECT chain_id, timezone('UTC', period_start)::DATE AS date, value AS tx_count_metric
  FROM chain_metrics_latest
  WHERE metric = 'txCount' AND time_interval = 'day'
)
SELECT
  b.chain_id,
  b.date,
  b.blocks,
  b.txs_from_blocks,
  m.tx_count_metric,
  m.tx_count_metric - b.txs_from_blocks AS difference
FROM b LEFT JOIN m ON m.chain_id = b.chain_id AND m.date = b.date
ORDER BY b.chain_id, b.date
