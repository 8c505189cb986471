package wikigame_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs/games/wikigame"
)

// A game over a wiki of one's own: any Backend will do; NewGraph builds one
// in memory.
func ExampleNew() {
	wiki, err := wikigame.NewGraph([]wikigame.Page{
		{Title: "Cat", Text: "A small domesticated feline.", Links: []string{"Mammal"}},
		{Title: "Dog", Text: "A domesticated canine.", Links: []string{"Mammal"}},
		{Title: "Mammal", Text: "A warm-blooded vertebrate that suckles its young.", Links: []string{"Cat", "Dog"}},
	})
	if err != nil {
		panic(err)
	}
	game, err := wikigame.New(wikigame.Options{
		MaxTurns:          5,
		PageSummaryLength: wikigame.SummaryLength{Length: 100, Unit: "characters"},
		Variant:           wikigame.NoRegrets,
		MinPathLength:     2,
		MaxPathLength:     2,
	}, wiki)
	if err != nil {
		panic(err)
	}
	_, info, err := game.Reset(7)
	if err != nil {
		panic(err)
	}
	fmt.Printf("from %s to %s\n", info.Extra["start"], info.Extra["target"])
	for {
		action, err := game.OracleAction()
		if err != nil {
			panic(err)
		}
		res, err := game.Step(action)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s → %+.2f\n", action, res.Reward)
		if res.Done() {
			break
		}
	}
	// Output:
	// from Dog to Cat
	// \boxed{Mammal} → -0.05
	// \boxed{Cat} → +1.00
}
