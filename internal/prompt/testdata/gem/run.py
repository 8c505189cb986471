"""Run GEM's own template and observation-wrapper code on the inputs in
testdata/golden.json and print what GEM produces, as JSON.

Reads {"templates": [{"template", "observation"}], "episodes": [{"wrapper",
"template", "observations", "actions", "suffixes"}]} on stdin. gem.core is
stubbed (the wrapper only subclasses EnvWrapper) and so is the tokenizer,
with Qwen's ChatML for a single user message (concat_chat_on_reset); the
wrapper and the templates themselves are GEM's files, copied verbatim.
Pure standard library, so Debian's python3 runs it.
"""

import json
import os
import sys
import types

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)


class Env:
    pass


class EnvWrapper(Env):
    def __init__(self, env):
        self.env = env


core = types.ModuleType("gem.core")
core.Env, core.EnvWrapper = Env, EnvWrapper
sys.modules["gem"] = types.ModuleType("gem")
sys.modules["gem.core"] = core

from observation_wrapper import ObservationWrapper  # noqa: E402
from templates import TEMPLATE_FACTORY  # noqa: E402

# The ObservationWrapper arguments of gem/wrappers/wrapper_factory.py.
WRAPPERS = {
    "concat": dict(include_action=False, include_chat_template=False),
    "concat_with_action": dict(include_action=True, include_chat_template=False),
    "concat_chat_on_reset": dict(
        include_action=True,
        include_chat_template=False,
        apply_chat_template_on_reset=True,
    ),
}


class ChatMLTokenizer:
    def apply_chat_template(self, messages, tokenize, add_generation_prompt):
        assert not tokenize and add_generation_prompt
        out = "".join(
            f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages
        )
        return out + "<|im_start|>assistant\n"


class ScriptedEnv(Env):
    """Replays fixed observations; info carries the suffix GEM's games set."""

    def __init__(self, observations, suffixes):
        self.observations, self.suffixes, self.t = observations, suffixes, 0

    def info(self):
        s = self.suffixes[self.t] if self.suffixes else ""
        return {"suffix": s} if s else {}

    def reset(self, seed=None, **kwargs):
        self.t = 0
        return self.observations[0], self.info()

    def step(self, action):
        self.t += 1
        done = self.t == len(self.observations) - 1
        return self.observations[self.t], 0.0, done, False, self.info()


def episode(e):
    env = ScriptedEnv(e["observations"], e.get("suffixes"))
    w = ObservationWrapper(env, tokenizer=ChatMLTokenizer(), **WRAPPERS[e["wrapper"]])
    tmpl = TEMPLATE_FACTORY[e["template"]]
    obs, _ = w.reset()
    prompts = [tmpl(obs)]
    for a in e["actions"]:
        obs, *_ = w.step(a)
        prompts.append(tmpl(obs))
    return prompts


def main():
    cases = json.load(sys.stdin)
    out = {
        "templates": [
            TEMPLATE_FACTORY[c["template"]](c["observation"]) for c in cases["templates"]
        ],
        "episodes": [episode(e) for e in cases["episodes"]],
    }
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)


main()
