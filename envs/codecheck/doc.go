// Package codecheck grades the programs of GEM's code envs (code:CodeContest,
// code:Taco8k, code:PrimeIntellect15k): it takes the last fenced code block
// of a response, runs it as a Python program against stdin/stdout tests in
// the project's sandbox, and turns the outcome into GEM's reward.
//
// The rules follow GEM (gem/envs/code_env.py, gem/utils/parsing.py and
// gem/utils/sandbox.py, read at commit 4069f2f):
//
//   - The program is the LAST block matched by ```(?:\w+)?\n(.*?)``` (any
//     language tag, or none; the tag must be followed directly by a newline),
//     stripped of surrounding whitespace. No block: reward −0.1.
//   - At most 12 tests are run; with more, the ones with the longest inputs,
//     ties in dataset order.
//   - A test passes when the program exits 0 and its stdout, stripped of
//     leading and trailing whitespace, equals the stripped expected output.
//     Nothing else is normalised (no per-line trailing whitespace, no \r\n);
//     Options.TrimLineEnds relaxes that, GEM does not.
//   - Each run has a 10 s timeout. A run that fails with "is not defined" on
//     stderr is run once more with GEM's block of common imports prepended.
//   - Reward 1 when every test passes, else 0.
//
// Where Quarry departs from GEM is said on the function concerned; the main
// points: tests run one after another in one sandbox workspace instead of
// five at a time in fresh processes on the host, GEM's string blocklist for
// its unsandboxed mode is off unless Options.Blocklist asks for it, and a
// problem without tests is an error rather than a crash.
package codecheck
