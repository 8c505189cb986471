"""Adapters on hand-built rows whose expected layouts are written out by
hand from each trainer's public field definitions (verl DataProto, OpenRLHF
Experience, TRL rollout_func, GEM's Oat transitions, SkyRL GeneratorOutput)."""

import json
import unittest
from unittest import mock

from quarry.adapters import (MissingTokens, samples, tensorize, to_oat, to_openrlhf, to_skyrl, to_trl,
                             to_verl)

G = "j/b00000/g0000"
E1, E2 = "j/b00000/e0000", "j/b00000/e0001"

# Episode 1: prompt [10 11 12], turn 0 answers [20 21], the env replies
# [30 31], turn 1 answers [22 23 24]. Rewards 0.25 then 1, gamma 0.5:
# returns G1 = 1, G0 = 0.25 + 0.5 = 0.75.
# Episode 2 (same group): prompt [9 10 11 12], one turn [25 26], reward 0.5.
EPISODES = [
    {"episode_id": E1, "group_id": G, "sample": 0, "data_source": "game", "return": 0.75, "token_source": "served",
     "stop_reason": "terminated", "num_segments": 1,
     "token_ids": [10, 11, 12, 20, 21, 30, 31, 22, 23, 24],
     "loss_mask": [0, 0, 0, 1, 1, 0, 0, 1, 1, 1],
     "logprobs": [0, 0, 0, -0.25, -0.5, 0, 0, -0.75, -1.0, -1.25],
     "turn_spans": [{"turn": 0, "start": 3, "end": 5}, {"turn": 1, "start": 7, "end": 10}],
     "segments": None},
    {"episode_id": E2, "group_id": G, "sample": 1, "data_source": "game", "return": 0.5, "token_source": "served",
     "stop_reason": "max_turns", "num_segments": 1,
     "token_ids": [9, 10, 11, 12, 25, 26],
     "loss_mask": [0, 0, 0, 0, 1, 1],
     "logprobs": [0, 0, 0, 0, -1.5, -1.75],
     "turn_spans": [{"turn": 0, "start": 4, "end": 6}],
     "segments": None},
]
TURNS = [
    {"episode_id": E1, "turn": 0, "segment": 0, "reward": 0.25, "return": 0.75, "advantage": 0.1,
     "advantage_group": 1.0, "action": "guess 5", "policy_version": "v3", "terminated": False, "truncated": False,
     "prompt_delta": json.dumps([{"role": "user", "content": "Guess a number"}])},
    {"episode_id": E1, "turn": 1, "segment": 0, "reward": 1.0, "return": 1.0, "advantage": 0.2,
     "advantage_group": 1.0, "action": "guess 7", "policy_version": "v4", "terminated": True, "truncated": False,
     "prompt_delta": json.dumps([{"role": "user", "content": "Higher"}])},
    {"episode_id": E2, "turn": 0, "segment": 0, "reward": 0.5, "return": 0.5, "advantage": -0.3,
     "advantage_group": -1.0, "action": "guess 3", "policy_version": "v4", "terminated": False, "truncated": False,
     "prompt_delta": json.dumps([{"role": "user", "content": "Guess a number!"}])},
]

# An episode whose chat template rewrote history: two segments.
SEGMENTED = {
    "episode_id": "j/b00000/e0002", "group_id": "j/b00000/g0001", "sample": 0, "return": 2.0,
    "token_source": "served", "stop_reason": "terminated", "num_segments": 2,
    "token_ids": None, "loss_mask": None, "logprobs": None, "turn_spans": None,
    "segments": [
        {"segment": 0, "token_ids": [1, 2, 3], "loss_mask": [0, 1, 1], "logprobs": None,
         "turn_spans": [{"turn": 0, "start": 1, "end": 3}]},
        {"segment": 1, "token_ids": [4, 5, 6, 7], "loss_mask": [0, 0, 1, 1], "logprobs": None,
         "turn_spans": [{"turn": 1, "start": 2, "end": 4}]},
    ],
}
SEGMENTED_TURNS = [
    {"episode_id": "j/b00000/e0002", "turn": 0, "segment": 0, "reward": 0.5, "return": 2.0, "action": "a",
     "prompt_delta": json.dumps([{"role": "user", "content": "q"}])},
    {"episode_id": "j/b00000/e0002", "turn": 1, "segment": 1, "reward": 1.5, "return": 1.5, "action": "b",
     "prompt_delta": json.dumps([{"role": "user", "content": "q"}, {"role": "user", "content": "again"}])},
]

NO_TOKENS = {"episode_id": "j/b00000/e0009", "group_id": G, "return": 1.0, "token_source": "none",
             "num_segments": 0, "token_ids": None, "loss_mask": None, "turn_spans": None, "segments": None}


class VerlTest(unittest.TestCase):
    def test_padded_layout(self):
        d = to_verl(TURNS, EPISODES, pad_token_id=0)
        b = d["batch"]
        self.assertEqual(b["prompts"], [[0, 10, 11, 12], [9, 10, 11, 12]])  # left-padded
        self.assertEqual(b["responses"], [[20, 21, 30, 31, 22, 23, 24], [25, 26, 0, 0, 0, 0, 0]])  # right-padded
        self.assertEqual(b["input_ids"], [[0, 10, 11, 12, 20, 21, 30, 31, 22, 23, 24],
                                          [9, 10, 11, 12, 25, 26, 0, 0, 0, 0, 0]])
        self.assertEqual(b["attention_mask"], [[0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                                               [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]])
        self.assertEqual(b["position_ids"], [[0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
                                             [0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5]])
        self.assertEqual(b["response_mask"], [[1, 1, 0, 0, 1, 1, 1], [1, 1, 0, 0, 0, 0, 0]])
        # The episode return on the last generated token.
        self.assertEqual(b["token_level_rewards"], [[0, 0, 0, 0, 0, 0, 0.75], [0, 0.5, 0, 0, 0, 0, 0]])
        self.assertEqual(b["rollout_log_probs"], [[-0.25, -0.5, 0, 0, -0.75, -1.0, -1.25],
                                                  [-1.5, -1.75, 0, 0, 0, 0, 0]])
        self.assertEqual(d["non_tensor_batch"]["uid"], [G, G])
        self.assertEqual(d["non_tensor_batch"]["episode_id"], [E1, E2])
        self.assertEqual(d["non_tensor_batch"]["data_source"], ["game", "game"])

    def test_ragged_and_turn_rewards(self):
        b = to_verl(TURNS, EPISODES, reward="turn")["batch"]
        self.assertEqual(b["prompts"], [[10, 11, 12], [9, 10, 11, 12]])
        self.assertEqual(b["responses"][1], [25, 26])
        self.assertEqual(b["attention_mask"][1], [1] * 6)
        self.assertEqual(b["position_ids"][1], [0, 1, 2, 3, 4, 5])
        # Each turn's reward on its response's last token.
        self.assertEqual(b["token_level_rewards"], [[0, 0.25, 0, 0, 0, 0, 1.0], [0, 0.5]])

    def test_bad_reward_mode(self):
        with self.assertRaisesRegex(ValueError, "reward 'sparse'"):
            to_verl(TURNS, EPISODES, reward="sparse")


class OpenRLHFTest(unittest.TestCase):
    def test_layout(self):
        d = to_openrlhf(TURNS, EPISODES)
        self.assertEqual(d["sequences"], [EPISODES[0]["token_ids"], EPISODES[1]["token_ids"]])
        self.assertEqual(d["attention_mask"], [[1] * 10, [1] * 6])
        self.assertEqual(d["action_mask"], [[1, 1, 0, 0, 1, 1, 1], [1, 1]])
        self.assertEqual(d["action_ranges"], [[(3, 5), (7, 10)], [(4, 6)]])
        self.assertEqual(d["rollout_log_probs"], [[-0.25, -0.5, 0, 0, -0.75, -1.0, -1.25], [-1.5, -1.75]])
        self.assertEqual(d["rewards"], [0.75, 0.5])
        self.assertEqual(d["response_length"], [5, 2])
        self.assertEqual(d["total_length"], [10, 6])
        self.assertEqual(d["prompt_length"], [3, 4])
        self.assertEqual(d["info"]["group_id"], [G, G])
        # Undiscounted sum of the turns' rewards with reward="turn".
        self.assertEqual(to_openrlhf(TURNS, EPISODES, reward="turn")["rewards"], [1.25, 0.5])

    def test_no_logprobs(self):
        eps = [dict(EPISODES[0], logprobs=None), EPISODES[1]]
        self.assertIsNone(to_openrlhf(TURNS, eps)["rollout_log_probs"])


class TRLTest(unittest.TestCase):
    def test_rollout_func_fields(self):
        d = to_trl(TURNS, EPISODES)
        self.assertEqual(d["prompt_ids"], [[10, 11, 12], [9, 10, 11, 12]])
        self.assertEqual(d["completion_ids"], [[20, 21, 30, 31, 22, 23, 24], [25, 26]])
        self.assertEqual(d["env_mask"], [[1, 1, 0, 0, 1, 1, 1], [1, 1]])
        self.assertEqual(d["logprobs"], [[-0.25, -0.5, 0, 0, -0.75, -1.0, -1.25], [-1.5, -1.75]])
        self.assertEqual(d["env_reward"], [0.75, 0.5])
        self.assertEqual(d["group_id"], [G, G])

    def test_logprobs_left_out_when_missing(self):
        eps = [EPISODES[0], dict(EPISODES[1], logprobs=None)]
        self.assertNotIn("logprobs", to_trl(TURNS, eps))


class OatTest(unittest.TestCase):
    def test_transitions(self):
        ts = to_oat(TURNS, EPISODES)
        self.assertEqual(len(ts), 3)
        t0, t1, t2 = ts
        self.assertEqual(t0["prompt"], [{"role": "user", "content": "Guess a number"}])
        self.assertEqual(t0["prompt_ids"], [10, 11, 12])
        self.assertEqual(t0["response"], "guess 5")
        self.assertEqual(t0["response_ids"], [20, 21])
        self.assertEqual(t0["response_logprobs"], [-0.25, -0.5])
        self.assertEqual(t0["rewards"], [0, 0.75])  # G_0 on the turn's last token
        self.assertEqual((t0["reward"], t0["done"], t0["loss_mask"]), (0.25, False, True))
        self.assertEqual(t0["info"]["policy_version"], "v3")
        self.assertEqual(t1["prompt"], [{"role": "user", "content": "Guess a number"},
                                        {"role": "assistant", "content": "guess 5"},
                                        {"role": "user", "content": "Higher"}])
        self.assertEqual(t1["prompt_ids"], [10, 11, 12, 20, 21, 30, 31])
        self.assertEqual(t1["response_ids"], [22, 23, 24])
        self.assertEqual(t1["rewards"], [0, 0, 1.0])
        self.assertEqual((t1["reward"], t1["done"]), (1.0, True))
        self.assertEqual((t1["info"]["turn"], t1["info"]["return"], t1["info"]["terminated"]), (1, 1.0, True))
        self.assertEqual((t2["info"]["episode_id"], t2["done"], t2["response_ids"]), (E2, True, [25, 26]))

    def test_segments_restart_the_prompt(self):
        t0, t1 = to_oat(SEGMENTED_TURNS, [SEGMENTED])
        self.assertEqual(t0["prompt"], [{"role": "user", "content": "q"}])
        self.assertEqual(t1["prompt"], [{"role": "user", "content": "q"}, {"role": "user", "content": "again"}])
        self.assertEqual((t0["prompt_ids"], t0["response_ids"]), ([1], [2, 3]))
        self.assertEqual((t1["prompt_ids"], t1["response_ids"]), ([4, 5], [6, 7]))
        self.assertEqual((t0["done"], t1["done"]), (False, True))

    def test_needs_turn_rows(self):
        with self.assertRaisesRegex(KeyError, "turn 1: no turn row"):
            to_oat(TURNS[:1], EPISODES[:1])


class SkyRLTest(unittest.TestCase):
    def test_generator_output(self):
        d = to_skyrl(TURNS, EPISODES)
        self.assertEqual(d["prompt_token_ids"], [[10, 11, 12], [9, 10, 11, 12]])
        self.assertEqual(d["response_ids"], [[20, 21, 30, 31, 22, 23, 24], [25, 26]])
        self.assertEqual(d["rewards"], [0.75, 0.5])
        self.assertEqual(d["loss_masks"], [[1, 1, 0, 0, 1, 1, 1], [1, 1]])
        self.assertEqual(d["rollout_logprobs"], [[-0.25, -0.5, 0, 0, -0.75, -1.0, -1.25], [-1.5, -1.75]])
        self.assertEqual(d["stop_reasons"], ["terminated", "max_turns"])
        self.assertEqual(d["trajectory_ids"], [{"instance_id": G, "repetition_id": 0},
                                               {"instance_id": G, "repetition_id": 1}])
        self.assertIsNone(d["is_last_step"])
        self.assertIsNone(d["rollout_metrics"])

    def test_turn_rewards_are_per_token(self):
        self.assertEqual(to_skyrl(TURNS, EPISODES, reward="turn")["rewards"], [[0, 0.25, 0, 0, 0, 0, 1.0], [0, 0.5]])

    def test_segments_are_steps(self):
        d = to_skyrl(SEGMENTED_TURNS, [SEGMENTED])
        self.assertEqual(d["prompt_token_ids"], [[1], [4, 5]])
        self.assertEqual(d["response_ids"], [[2, 3], [6, 7]])
        self.assertEqual(d["loss_masks"], [[1, 1], [1, 1]])
        self.assertEqual(d["rewards"], [2.0, 2.0])
        self.assertEqual(d["is_last_step"], [False, True])
        self.assertIsNone(d["rollout_logprobs"])
        turn = to_skyrl(SEGMENTED_TURNS, [SEGMENTED], reward="turn")["rewards"]
        self.assertEqual(turn, [[0, 0.5], [0, 1.5]])


class TokenViewTest(unittest.TestCase):
    def test_no_token_ids_is_a_clear_error_for_every_adapter(self):
        for name, fn in [("verl", to_verl), ("OpenRLHF", to_openrlhf), ("TRL", to_trl), ("Oat", to_oat),
                         ("SkyRL", to_skyrl)]:
            with self.assertRaisesRegex(MissingTokens, f"episode j/b00000/e0009: column token_ids is null "
                                                       f"\\(token_source 'none'\\).*{name} trains on token ids"):
                fn([], [EPISODES[0], NO_TOKENS])

    def test_inconsistent_columns(self):
        with self.assertRaisesRegex(ValueError, "loss_mask has 2 entries for 10 token_ids"):
            samples([dict(EPISODES[0], loss_mask=[0, 1])])
        with self.assertRaisesRegex(ValueError, "logprobs has 1 entries"):
            samples([dict(EPISODES[0], logprobs=[0.0])])
        with self.assertRaisesRegex(ValueError, "past the 10 token_ids"):
            samples([dict(EPISODES[0], turn_spans=[{"turn": 0, "start": 3, "end": 11}])])

    def test_prompt_without_spans_ends_at_first_generated_token(self):
        s = samples([dict(EPISODES[0], turn_spans=None)])[0]
        self.assertEqual(s.prompt_ids, [10, 11, 12])

    def test_tensorize_needs_its_backend(self):
        with mock.patch.dict("sys.modules", {"torch": None, "numpy": None}):
            with self.assertRaisesRegex(ImportError, "needs torch"):
                tensorize({"a": [[1]]})
            with self.assertRaisesRegex(ImportError, "needs numpy"):
                tensorize({"a": [[1]]}, backend="numpy")
        with self.assertRaisesRegex(ValueError, "backend 'jax'"):
            tensorize({}, backend="jax")


if __name__ == "__main__":
    unittest.main()
