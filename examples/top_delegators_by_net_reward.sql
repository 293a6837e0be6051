-- Top delegators by net reward.
-- Answers: per network, the 10 delegators (a delegator is the reward addresses its delegations
-- pay to) whose completed delegations earned the most after the validators' fees, with their
-- delegations of every status and the stake they delegated. Amounts in nAVAX, exact;
-- net_reward_avax is net_reward_navax in AVAX, as a double. Ties: by delegator.
-- Reads: delegators_latest (the newest snapshot: each delegation once, in its current status).
SELECT
  network,
  array_to_string(reward_addresses, ' ') AS delegator,
  count(*)::BIGINT AS delegations,
  (count(*) FILTER (WHERE delegation_status = 'completed'))::BIGINT AS completed,
  sum(amount_delegated) AS delegated_navax,
  coalesce(sum(gross_reward), 0) AS gross_reward_navax,
  coalesce(sum(net_reward), 0) AS net_reward_navax,
  coalesce(sum(net_reward), 0) / 1e9 AS net_reward_avax
FROM delegators_latest
GROUP BY network, delegator
QUALIFY row_number() OVER (PARTITION BY network ORDER BY net_reward_navax DESC, delegator) <= 10
ORDER BY network, net_reward_navax DESC, delegator
