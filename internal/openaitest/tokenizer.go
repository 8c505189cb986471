package openaitest

import (
	"hash/fnv"
	"strings"
)

// The fake tokenizer. It is deliberately trivial and stable across processes
// and releases, so a test can recompute exactly what the server served:
// one token per whitespace-separated word, the id a hash of the word.
//
// Special tokens (below FirstWordID) frame a chat the way a chat template
// does: <|im_start|> role … <|im_end|> per message, then <|im_start|>
// assistant as the generation prompt.
const (
	TokenIMStart int32 = 1
	TokenIMEnd   int32 = 2
	// Role tokens follow <|im_start|>.
	TokenSystem    int32 = 10
	TokenUser      int32 = 11
	TokenAssistant int32 = 12
	TokenTool      int32 = 13
	TokenOtherRole int32 = 14
	// TokenImage stands for an image part: ImagePads+2 of them per image,
	// after the message's words.
	TokenImage int32 = 15
	// FirstWordID is the smallest id a word maps to; VocabWords is how many
	// word ids there are.
	FirstWordID int32 = 1000
	VocabWords  int32 = 100_000
)

// TokenID is the id of one word.
func TokenID(word string) int32 {
	h := fnv.New32a()
	h.Write([]byte(word))
	return FirstWordID + int32(h.Sum32()%uint32(VocabWords))
}

// Tokenize returns one id per whitespace-separated word of text.
func Tokenize(text string) []int32 {
	words := strings.Fields(text)
	ids := make([]int32, len(words))
	for i, w := range words {
		ids[i] = TokenID(w)
	}
	return ids
}

func roleToken(role string) int32 {
	switch role {
	case "system":
		return TokenSystem
	case "user":
		return TokenUser
	case "assistant":
		return TokenAssistant
	case "tool":
		return TokenTool
	}
	return TokenOtherRole
}

// PromptTokenIDs is the prompt the server tokenizes for a chat: every
// message framed by <|im_start|> role … <|im_end|>, then the generation
// prompt <|im_start|> assistant. An image part counts ImagePads+2
// TokenImage ids after the message's words.
func PromptTokenIDs(messages []Message) []int32 {
	n := 2
	for _, m := range messages {
		n += 3 + len(strings.Fields(m.Content)) + m.Images()*(ImagePads+2)
	}
	ids := make([]int32, 0, n)
	for _, m := range messages {
		ids = append(ids, TokenIMStart, roleToken(m.Role))
		ids = append(ids, Tokenize(m.Content)...)
		for range m.Images() * (ImagePads + 2) {
			ids = append(ids, TokenImage)
		}
		ids = append(ids, TokenIMEnd)
	}
	return append(ids, TokenIMStart, TokenAssistant)
}

// Logprob is the log probability the server reports for token id at
// position pos of a response: deterministic, in [-4, -0.001].
func Logprob(id int32, pos int) float64 {
	h := uint64(id)*0x9E3779B97F4A7C15 + uint64(pos)*0xBF58476D1CE4E5B9
	h ^= h >> 31
	// Three decimals keep the JSON short and the float32 conversion exact
	// enough that tests compare with ==.
	return -float64(h%4000+1) / 1000
}
