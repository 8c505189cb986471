package rggames

import "github.com/quarry-rl/quarry/envs"

// registerPuzzles adds the family's number and logic-grid puzzles:
// countdown, puzzle24, futoshiki, kakurasu, survo, knight_swap,
// emoji_mystery.
func registerPuzzles(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		registerPuzzle24,
		registerCountdown,
		registerFutoshiki,
		registerKakurasu,
		registerSurvo,
		registerKnightSwap,
		registerEmojiMystery,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
