package algorithmic

import "github.com/quarry-rl/quarry/envs"

// registerWords adds the family's words tasks: caesar_cipher, group_anagrams, isomorphic_strings,
// letter_counting, letter_jumble, palindrome_generation,
// palindrome_partitioning, ransom_note, sentence_reordering, spell_backward,
// string_insertion, string_manipulation, string_splitting, string_synthesis,
// word_ladder, word_sequence_reversal, word_sorting.
func registerWords(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
