package rggames

import "github.com/quarry-rl/quarry/envs"

// registerSearch adds the family's planning puzzles, whose answers are
// move sequences checked by replaying them: boxnet, rush_hour, sokoban,
// tsumego.
func registerSearch(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		registerSokoban,
		registerRushHour,
		registerBoxnet,
		registerTsumego,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
