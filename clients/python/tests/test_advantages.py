import math
import random
import struct
import unittest
from fractions import Fraction

from quarry.advantages import NORM_EPSILON, Stats, group_advantages, merge_stats, normalizer, rebn, stats_normalize

# Produced by schema.Normalize (Go) over one-turn episodes with these returns,
# two episodes a group (Group: i/2), gamma 1: each advantage as the bits of
# its float64, so the Python rule must agree to the last bit. "stats" is
# schema.StatsOf of the returns and "stats_norm_first" Stats.Normalize of the
# first return.
GO_GOLDEN = [
    {"returns": [0.1, 0.2, 0.3, 1.7, -2.25, 0.1],
     "rebn_bits": ["3fb086a834f6a978", "3fc347c43dca7061", "3fce4c3461198c05", "3ff7114ac9eda1e1",
                   "bfff549ee468f69c", "3fb086a834f6a978"],
     "group_bits": ["bfeffffff5433895", "3feffffff5433890", "bfefffffff3ba89d", "3fefffffff3ba89d",
                    "bfefffffff8b07da", "3fefffffff8b07da"],
     "stats": {"count": 6, "sum": 0.14999999999999997, "sum_sq": 8.1025}, "stats_norm_first": "3fb086a834f6a978"},
    {"returns": [1000, 1000.001],
     "rebn_bits": ["bfeffffbce42a48f", "3feffffbce42a48f"],
     "group_bits": ["bfeffffbce42a48f", "3feffffbce42a48f"],
     "stats": {"count": 2, "sum": 2000.001, "sum_sq": 2000002.000001}, "stats_norm_first": "bfeffeffba2493bd"},
    {"returns": [1000000.1, 1000000.1, 1000000.1],
     "rebn_bits": ["0000000000000000"] * 3, "group_bits": ["0000000000000000"] * 3,
     "stats": {"count": 3, "sum": 3000000.3, "sum_sq": 3000000600000.0303}, "stats_norm_first": "0000000000000000"},
    {"returns": [0.3], "rebn_bits": ["0000000000000000"], "group_bits": ["0000000000000000"],
     "stats": {"count": 1, "sum": 0.3, "sum_sq": 0.09}, "stats_norm_first": "0000000000000000"},
    {"returns": [1, 0, 1, 0, 2],
     "rebn_bits": ["3fd11acee4fdf877", "bff11acee4fdf878", "3fd11acee4fdf877", "bff11acee4fdf878", "3ff9a836577cf4b4"],
     "group_bits": ["3feffffffeed1f42", "bfeffffffeed1f42", "3feffffffeed1f42", "bfeffffffeed1f42",
                    "0000000000000000"],
     "stats": {"count": 5, "sum": 4, "sum_sq": 6}, "stats_norm_first": "3fd11acee4fdf878"},
    {"returns": [0.9, 0.81, 0.729, 1, 0, 0.5, 0.5, 0.125],
     "rebn_bits": ["3fef45eeb9036b98", "3fe6bb2ee09a6078", "3fde1637a211467c", "3ff461d3b84a4a34",
                   "bffb12c7dd8b81db", "bfcac3d09504de9c", "bfcac3d09504de9c", "bff524346ad0c859"],
     "group_bits": ["3feffffff411cd1f", "bfeffffff411cd09", "bfeffffffc09b0c1", "3feffffffc09b0ba",
                    "bfeffffffdda3e82", "3feffffffdda3e82", "3feffffffd22fe04", "bfeffffffd22fe04"],
     "stats": {"count": 8, "sum": 4.564, "sum_sq": 3.513166}, "stats_norm_first": "3fef45eeb9036b98"},
]


def bits(x: float) -> str:
    return struct.pack(">d", x).hex()


def exact_rebn(gs):
    """ReBN computed independently: exact rational mean and variance, one
    rounding at the square root and the division."""
    fs = [Fraction(g) for g in gs]
    n = len(fs)
    mean = sum(fs) / n
    var = sum((f - mean) ** 2 for f in fs) / n
    if var == 0:
        return [0.0] * n
    std = math.sqrt(var)
    return [float(f - mean) / (std + NORM_EPSILON) for f in fs]


def turn_rows(gs):
    return [{"episode_id": f"j/b00000/e{i:04d}", "turn": 0, "return": g, "advantage": 123.0} for i, g in enumerate(gs)]


class RebnTest(unittest.TestCase):
    def test_matches_go_bit_for_bit(self):
        for case in GO_GOLDEN:
            got = rebn(turn_rows(case["returns"]))
            self.assertEqual([bits(a) for a in got], case["rebn_bits"], case["returns"])

    def test_matches_exact_arithmetic(self):
        rng = random.Random(7)
        for _ in range(200):
            gs = [rng.choice([0.0, 1.0, -1.0, 0.5]) * rng.random() * 10 for _ in range(rng.randint(1, 60))]
            got, want = rebn(turn_rows(gs)), exact_rebn(gs)
            for a, b in zip(got, want):
                self.assertAlmostEqual(a, b, delta=1e-12 * max(1.0, abs(b)))

    def test_by_hand(self):
        # {1, 1, 0, 0, 2}: mean 0.8, population variance 0.56.
        std = math.sqrt(0.56)
        got = rebn(turn_rows([1, 1, 0, 0, 2]))
        for a, g in zip(got, [1, 1, 0, 0, 2]):
            self.assertAlmostEqual(a, (g - 0.8) / (std + 1e-9), places=12)

    def test_edge_cases_of_the_go_rule(self):
        self.assertEqual(rebn([]), [])
        self.assertEqual(rebn(turn_rows([0.7])), [0.0])  # one row: std 0
        for c in [0, 0.1, 1, -0.3, 1e6 + 0.1]:
            self.assertEqual(rebn(turn_rows([c] * 1000)), [0.0] * 1000)  # constant: exactly 0
        a = rebn(turn_rows([1000, 1000.001]))
        self.assertAlmostEqual(a[0], -1, delta=1e-5)
        self.assertAlmostEqual(a[1], 1, delta=1e-5)

    def test_inplace_and_errors(self):
        rows = turn_rows([0, 2])
        adv = rebn(rows, inplace=True)
        self.assertEqual([r["advantage"] for r in rows], adv)
        self.assertEqual(rows[0]["norm_scheme"], "rebn")
        with self.assertRaisesRegex(KeyError, "row 1 has no 'return' column"):
            rebn([{"return": 1.0}, {"reward": 1.0}])
        with self.assertRaisesRegex(ValueError, "finite"):
            rebn([{"return": float("nan")}, {"return": 1.0}])

    def test_normalizer_mean_and_std(self):
        z = normalizer([2, 4, 4, 4, 5, 5, 7, 9])
        self.assertEqual((z.n, z.mean, z.std), (8, 5.0, 2.0))


class StatsTest(unittest.TestCase):
    def test_matches_go(self):
        for case in GO_GOLDEN:
            s = merge_stats([{"returns": case["stats"]}])
            self.assertEqual(bits(stats_normalize(s, case["returns"][0])), case["stats_norm_first"], case["returns"])

    def test_merged_manifests_normalise_the_union(self):
        a, b = [0.0, 1.0, 1.0], [2.0, 0.5]

        def manifest(gs):
            return {"returns": {"count": len(gs), "sum": sum(gs), "sum_sq": sum(g * g for g in gs)}}

        s = merge_stats([manifest(a), manifest(b)])
        self.assertEqual(s, Stats(5, 4.5, 6.25))
        want = exact_rebn(a + b)
        for g, w in zip(a + b, want):
            self.assertAlmostEqual(stats_normalize(s, g), w, places=12)

    def test_constant_population_is_zero(self):
        g = 1e6 + 0.1
        s = merge_stats([{"returns": {"count": 1000, "sum": 1000 * g, "sum_sq": 1000 * g * g}}])
        self.assertEqual(s.std(), 0.0)
        self.assertEqual(stats_normalize(s, g), 0.0)
        self.assertEqual(Stats().normalize(1.0), 0.0)
        self.assertEqual(Stats().mean(), 0.0)

    def test_missing_returns(self):
        with self.assertRaisesRegex(KeyError, "manifest 1 has no returns"):
            merge_stats([{"returns": {"count": 0, "sum": 0, "sum_sq": 0}}, {}])


class GroupAdvantagesTest(unittest.TestCase):
    def test_matches_go_bit_for_bit(self):
        for case in GO_GOLDEN:
            eps = [{"episode_id": f"e{i}", "group_id": f"g{i // 2}", "return": g}
                   for i, g in enumerate(case["returns"])]
            adv = group_advantages(eps)
            self.assertEqual([bits(adv[f"e{i}"]) for i in range(len(eps))], case["group_bits"], case["returns"])

    def test_by_hand(self):
        eps = [
            {"episode_id": "a", "group_id": "g0", "return": 1.0},
            {"episode_id": "b", "group_id": "g0", "return": 0.0},
            {"episode_id": "c", "group_id": "g1", "return": 2.0},  # a group of one
            {"episode_id": "d", "group_id": "g2", "return": 0.5},
            {"episode_id": "e", "group_id": "g2", "return": 0.5},  # equal returns
        ]
        adv = group_advantages(eps)
        g = 0.5 / (0.5 + 1e-9)
        self.assertAlmostEqual(adv["a"], g, places=15)
        self.assertAlmostEqual(adv["b"], -g, places=15)
        self.assertEqual((adv["c"], adv["d"], adv["e"]), (0.0, 0.0, 0.0))

    def test_errors(self):
        with self.assertRaisesRegex(KeyError, "'group_id'"):
            group_advantages([{"episode_id": "a", "return": 1.0}])
        with self.assertRaisesRegex(ValueError, "twice"):
            group_advantages([{"episode_id": "a", "group_id": "g", "return": 1.0}] * 2)


if __name__ == "__main__":
    unittest.main()
