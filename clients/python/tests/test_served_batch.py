"""The client over rows Quarry actually wrote (tests/testdata/served_batch.json:
a real job's batch with served token ids, read back from its Parquet)."""

import json
import os
import unittest

from quarry import adapters
from quarry.advantages import group_advantages, merge_stats, rebn, stats_normalize

with open(os.path.join(os.path.dirname(__file__), "testdata", "served_batch.json")) as f:
    DOC = json.load(f)
TURNS, EPISODES, MANIFEST = DOC["turns"], DOC["episodes"], DOC["manifest"]


class ServedBatchTest(unittest.TestCase):
    def test_fixture_is_a_whole_multi_turn_batch(self):
        self.assertEqual(len(TURNS), MANIFEST["turn_rows"])
        self.assertEqual(len(EPISODES), MANIFEST["episode_rows"])
        self.assertTrue(all(e["num_turns"] > 1 for e in EPISODES))

    def test_rebn_and_group_advantages_equal_the_written_columns(self):
        self.assertEqual(rebn(TURNS), [t["advantage"] for t in TURNS])
        g = group_advantages(EPISODES)
        self.assertEqual([g[e["episode_id"]] for e in EPISODES], [e["advantage_group"] for e in EPISODES])
        self.assertEqual([g[t["episode_id"]] for t in TURNS], [t["advantage_group"] for t in TURNS])

    def test_manifest_statistics_give_the_same_advantages(self):
        s = merge_stats([MANIFEST])
        for t in TURNS:
            self.assertAlmostEqual(stats_normalize(s, t["return"]), t["advantage"], places=9)

    def test_token_views_agree_with_the_turn_rows(self):
        by_turn = {(t["episode_id"], t["turn"]): t for t in TURNS}
        for s in adapters.samples(EPISODES):
            self.assertEqual(len(s.spans), s.episode["num_turns"])
            rebuilt = []
            for turn, start, end in s.spans:
                row = by_turn[(s.episode_id, turn)]
                # Each turn's prompt suffix then its response, as served, in order.
                rebuilt += row["prompt_token_ids"]
                self.assertEqual(len(rebuilt), start)
                rebuilt += row["response_token_ids"]
                self.assertEqual(s.token_ids[start:end], row["response_token_ids"])
                self.assertEqual(s.logprobs[start:end], row["response_logprobs"])
            self.assertEqual(rebuilt, s.token_ids)
            generated = {i for _, a, b in s.spans for i in range(a, b)}
            self.assertEqual([i for i, m in enumerate(s.loss_mask) if m], sorted(generated))

    def test_adapters_carry_the_rewards(self):
        v = adapters.to_verl(TURNS, EPISODES, pad_token_id=0)["batch"]
        self.assertEqual(len({len(x) for x in v["input_ids"]}), 1)
        self.assertEqual([sum(x) for x in v["token_level_rewards"]], [e["return"] for e in EPISODES])
        sky = adapters.to_skyrl(TURNS, EPISODES, reward="turn")["rewards"]
        for per_token, e in zip(sky, EPISODES):
            self.assertAlmostEqual(sum(per_token), e["total_reward"], places=12)
        oat = adapters.to_oat(TURNS, EPISODES)
        self.assertEqual(len(oat), len(TURNS))
        self.assertEqual(sum(t["done"] for t in oat), len(EPISODES))
        by_turn = {(t["episode_id"], t["turn"]): t for t in TURNS}
        for t in oat:
            row = by_turn[(t["info"]["episode_id"], t["info"]["turn"])]
            self.assertEqual(t["response_ids"], row["response_token_ids"])
            self.assertEqual(t["rewards"][-1], row["return"])
        trl = adapters.to_trl(TURNS, EPISODES)
        for p, c, e in zip(trl["prompt_ids"], trl["completion_ids"], EPISODES):
            self.assertEqual(p + c, e["token_ids"])


if __name__ == "__main__":
    unittest.main()
