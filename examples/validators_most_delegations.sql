-- Validators with the most delegations, with their stake and uptime.
-- Answers: per network, the 10 nodes with the most delegations (every status), the delegations
-- still active and the stake they delegate now, and, from the node's newest primary-network
-- validation, its status, its own stake and its uptime (the service reports uptime for active
-- validations only: NULL otherwise). Amounts in nAVAX, exact. Ties: by node id.
-- Reads: delegators_latest, validators_latest (newest snapshots: each delegation and validation once).
WITH d AS (
  SELECT
    network,
    node_id,
    count(*)::BIGINT AS delegations,
    (count(*) FILTER (WHERE delegation_status = 'active'))::BIGINT AS active_delegations,
    coalesce(sum(amount_delegated) FILTER (WHERE delegation_status = 'active'), 0) AS active_delegated_navax
  FROM delegators_latest
  GROUP BY network, node_id
),
v AS (
  SELECT network, node_id, validation_status, amount_staked, uptime_performance
  FROM validators_latest
  WHERE subnet_id = '11111111111111111111111111111111LpoYY'
  QUALIFY row_number() OVER (PARTITION BY network, node_id ORDER BY start_timestamp DESC, tx_hash DESC) = 1
)
SELECT
  d.network,
  d.node_id,
  d.delegations,
  d.active_delegations,
  d.active_delegated_navax,
  v.validation_status,
  v.amount_staked AS staked_navax,
  v.uptime_performance
FROM d LEFT JOIN v ON v.network = d.network AND v.node_id = d.node_id
QUALIFY row_number() OVER (PARTITION BY d.network ORDER BY d.delegations DESC, d.node_id) <= 10
ORDER BY d.network, d.delegations DESC, d.node_id
