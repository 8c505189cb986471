package prompt

// GEM's prompt templates, byte for byte, from axon-rl/gem at commit
// 4069f2f8d45f5047ac13221f7c90c8b19927d43a. Each is a head, the wrapped
// observation, and a tail; a Python f-string's "\\boxed{}" is the six bytes
// \boxed{} in both languages.
//
//   - qwen3_game, qwen3_general, code, no: examples/train_oat/train_oat.py
//     (apply_qwen3_game_template, apply_qwen3_general_template,
//     apply_code_template, apply_no_template; TEMPLATE_FACTORY). The same
//     bytes are in train_oat_grpo.py, train_oat_mt.py, train_rl2/*.py,
//     train_verl/train_verl.py (which names "no" "na") and
//     train_openrlhf/*.py (without code).
//   - general: examples/train_tinker/tinker_cookbook_adapter.py
//     (apply_general_prompt; PROMPT_FACTORY), a chat-free Question form for
//     a renderer that adds the chat markup itself.
//
// train_tinker/tinker_train.py also defines
// apply_qwen3_game_no_think_template, byte-identical to qwen3_game and not in
// its TEMPLATE_FACTORY, so it is not a name here.
const (
	qwen3GameHead = "<|im_start|>user\nYou are playing language games. Make valid actions to win.\nObservation: "
	qwen3GameTail = "\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n" +
		"<|im_start|>assistant\n"

	qwen3GeneralHead = "<|im_start|>user\nQuestion: "
	qwen3GeneralTail = "\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n" +
		"<|im_start|>assistant\n"

	codeHead = "You are an expert Python programmer. " +
		"You will be given a question (problem specification) and will generate a correct " +
		"Python program that matches the specification and passes all tests." +
		"\nQuestion: "
	codeTail = "\nPlease reason step by step, and write your code in markdown format, e.g., ```python\n# YOUR CODE HERE\n```."

	generalHead = "Question: "
	generalTail = "\nPlease reason step by step, and put your final answer within \\boxed{}."
)

// gemTemplate is one of GEM's templates: head + observation + tail.
type gemTemplate struct {
	name, head, tail string
	source           string // GEM file and function, for Describe
}

// gemTemplates lists GEM's templates in the order Names returns them.
var gemTemplates = []gemTemplate{
	{name: "code", head: codeHead, tail: codeTail,
		source: "examples/train_oat/train_oat.py apply_code_template"},
	{name: "general", head: generalHead, tail: generalTail,
		source: "examples/train_tinker/tinker_cookbook_adapter.py apply_general_prompt"},
	{name: "no", source: "examples/train_oat/train_oat.py apply_no_template"},
	{name: "qwen3_game", head: qwen3GameHead, tail: qwen3GameTail,
		source: "examples/train_oat/train_oat.py apply_qwen3_game_template"},
	{name: "qwen3_general", head: qwen3GeneralHead, tail: qwen3GeneralTail,
		source: "examples/train_oat/train_oat.py apply_qwen3_general_template"},
}

// GEMCommit is the axon-rl/gem commit the built-in templates are copied from.
const GEMCommit = "4069f2f8d45f5047ac13221f7c90c8b19927d43a"
