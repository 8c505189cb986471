package algorithmic

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestLifeStep(t *testing.T) {
	// A blinker flips; a glider on a torus returns after 4·5 = 20 steps on 5×5.
	b := [][]int{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 1, 1, 1, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}
	if got := gridString(lifeStep(b)); got != "0 0 0 0 0\n0 0 1 0 0\n0 0 1 0 0\n0 0 1 0 0\n0 0 0 0 0" {
		t.Fatalf("blinker:\n%s", got)
	}
	g := [][]int{{0, 1, 0, 0, 0}, {0, 0, 1, 0, 0}, {1, 1, 1, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}
	h := g
	for range 20 {
		h = lifeStep(h)
	}
	if gridString(h) != gridString(g) {
		t.Fatalf("glider did not wrap back:\n%s", gridString(h))
	}
	// Wrapping: three cells in a column across the edge keep the blinker alive.
	w := [][]int{{1, 0, 0}, {0, 0, 0}, {1, 0, 0}}
	if got := lifeStep(w); got[1][0] != 0 {
		t.Fatalf("3×3 torus: %v", got)
	}
}

func TestGameOfLife(t *testing.T) {
	it := numItem(t, gameOfLifeTask, gameOfLifeTask.Defaults, 2)
	if !strings.Contains(it.Question, "after 1 steps of simulation?") || !strings.Contains(it.Question, "],\n [") {
		t.Fatalf("question %q", it.Question)
	}
	want := it.Data.([][]int)
	numCheck(t, scoreLife, &it, []numCase{
		{it.Answer, 1},
		{strings.ReplaceAll(it.Answer, ",", ", "), 1},
		{gridString(want), 1}, // rows of digits
		{"[[1]]", map[bool]float64{true: 0.01, false: 0}[want[0][0] == 1]},
		{"", 0},
		{"not json", 0},
	})
	// One cell flipped costs one cell's credit.
	flipped := make([][]int, len(want))
	for i := range want {
		flipped[i] = append([]int{}, want[i]...)
	}
	flipped[3][4] ^= 1
	numCheck(t, scoreLife, &it, []numCase{{lifeJSON(flipped, ","), 0.99}})
	tf := rg.Item{Data: [][]int{{0, 1}}}
	numCheck(t, scoreLife, &tf, []numCase{{"[[false, true]]", 1}, {"[[0.0, 1.0]]", 1}, {`[["0", "1"]]`, 0}})
}

func TestGameOfLifeHalting(t *testing.T) {
	halts := 0
	for seed := range uint64(100) {
		it := numItem(t, gameOfLifeHaltingTask, gameOfLifeHaltingTask.Defaults, seed)
		if it.Meta["should_oscillate"].(bool) == (it.Answer == "True") {
			t.Errorf("seed %d: oscillators %v but answer %s", seed, it.Meta["should_oscillate"], it.Answer)
		}
		if it.Answer == "True" {
			halts++
		}
		if !strings.Contains(it.Question, "Initial board:\n[[0 0 0 0 0 0 0 0 0 0 0 0]\n [0 ") {
			t.Fatalf("board %q", it.Question)
		}
	}
	if halts < 30 || halts > 70 {
		t.Fatalf("%d of 100 halt", halts)
	}
	// A diagonal of six is still alive after one step: Quarry simulates.
	o := gameOfLifeHaltingTask.Defaults
	o.MaxSimulationSteps = 0
	for seed := range uint64(20) {
		if it := numItem(t, gameOfLifeHaltingTask, o, seed); it.Answer != "False" {
			t.Fatalf("seed %d: a live board halts at step 0", seed)
		}
	}
	o.NumOscillators = 0
	if it := numItem(t, gameOfLifeHaltingTask, o, 1); it.Answer != "True" {
		t.Fatal("an empty board does not halt")
	}
	for _, d := range []int{1, 2, 3} {
		for _, size := range []int{[4]int{0, 8, 14, 25}[d], 100} {
			o := GameOfLifeHaltingOptions{GridSizeX: size, GridSizeY: size, Difficulty: d, NumOscillators: 50, MaxSimulationSteps: 1000}
			for seed := range uint64(5) {
				numItem(t, gameOfLifeHaltingTask, o, seed)
			}
		}
	}
	it := rg.Item{Answer: "True"}
	numCheck(t, lifeScoreTrueFalse, &it, []numCase{{"True", 1}, {"true", 1}, {"'True'", 1}, {"True.", 1}, {"False", 0}, {"yes", 0}, {"", 0}})
	envtest.OptionErrors(t, numRegistry(t), "rg:game_of_life_halting", []envtest.OptionCase{
		{Options: map[string]any{"difficulty": 2}, Option: "grid_size_x"},
		{Options: map[string]any{"difficulty": 3, "grid_size_x": 25, "grid_size_y": 24}, Option: "grid_size_y"},
		{Options: map[string]any{"difficulty": 4}, Option: "difficulty"},
		{Options: map[string]any{"grid_size_x": 7}, Option: "grid_size_x"},
	})
	envtest.OptionErrors(t, numRegistry(t), "rg:game_of_life", []envtest.OptionCase{
		{Options: map[string]any{"filled_cells": 101}, Option: "filled_cells"},
		{Options: map[string]any{"grid_size_x": 2}, Option: "grid_size_x"},
		{Options: map[string]any{"simulation_steps": 1001}, Option: "simulation_steps"},
	})
}

func TestAB(t *testing.T) {
	for prog, want := range map[string]string{
		"B# A# #B #A B#": "B#",
		"A# #A":          "",
		"A# #B":          "#B A#",
		"#A B# #B A#":    "#A A#",
		"B# #A #A B#":    "#A #A B# B#",
	} {
		got, ok := abNormal(strings.Fields(prog))
		if !ok || strings.Join(got, " ") != want {
			t.Errorf("%s → %q, want %q", prog, strings.Join(got, " "), want)
		}
	}
	for seed := range uint64(50) {
		it := numItem(t, abTask, ABOptions{Length: 2}, seed)
		if it.Answer == "" {
			t.Fatal("empty final state")
		}
	}
	it := rg.Item{Answer: "#B A# B#"}
	numCheck(t, abTask.Score, &it, []numCase{{"#B A# B#", 1}, {" #B  A#\nB# ", 1}, {"#B A#", 0}, {"A# #B B#", 0}, {"", 0}})
	envtest.OptionErrors(t, numRegistry(t), "rg:ab", []envtest.OptionCase{
		{Options: map[string]any{"length": 0}, Option: "length"},
		{Options: map[string]any{"length": 101}, Option: "length"},
	})
}
