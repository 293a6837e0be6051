-- Token transfer volume per day.
-- Answers: per chain, UTC day and token contract, the transfers and the amount they moved:
-- ERC-20 base units or ERC-1155 copies, exact (NULL for ERC-721, whose transfers move one token
-- each and carry no value); divide by 10^token_decimals for whole ERC-20 tokens. The exact sum
-- casts each value to DECIMAL(38,0): a value above 10^38 fails the cast (use value_double then).
-- Reads: token_transfers_latest (one row per transfer, however often its block window was fetched).
SELECT
  chain_id,
  date,
  token_address,
  erc_type,
  token_symbol,
  token_decimals,
  count(*)::BIGINT AS transfers,
  sum(value::DECIMAL(38,0)) AS volume
FROM token_transfers_latest
GROUP BY chain_id, date, token_address, erc_type, token_symbol, token_decimals
ORDER BY chain_id, date, token_address
