# Copied verbatim from axon-rl/gem@4069f2f8d45f5047ac13221f7c90c8b19927d43a
# examples/train_oat/train_oat.py lines 54-89 (Apache-2.0, AxonRL Team) and
# examples/train_tinker/tinker_cookbook_adapter.py apply_general_prompt.
# Do not edit: prompt_test.go compares Quarry's templates with these functions.

def apply_qwen3_game_template(observation: str) -> str:
    return (
        f"<|im_start|>user\nYou are playing language games. Make valid actions to win.\nObservation: {observation}"
        "\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def apply_no_template(observation: str) -> str:
    return observation


def apply_qwen3_general_template(question: str) -> str:
    return (
        f"<|im_start|>user\nQuestion: {question}"
        "\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def apply_code_template(question: str) -> str:
    return (
        "You are an expert Python programmer. "
        "You will be given a question (problem specification) and will generate a correct "
        "Python program that matches the specification and passes all tests."
        f"\nQuestion: {question}"
        "\nPlease reason step by step, and write your code in markdown format, e.g., ```python\n# YOUR CODE HERE\n```."
    )


TEMPLATE_FACTORY = {
    "qwen3_game": apply_qwen3_game_template,
    "no": apply_no_template,
    "qwen3_general": apply_qwen3_general_template,
    "code": apply_code_template,
}


def apply_general_prompt(init_obs: str) -> str:
    return (
        f"Question: {init_obs}"
        "\nPlease reason step by step, and put your final answer within \\boxed{}."
    )



TEMPLATE_FACTORY["general"] = apply_general_prompt
