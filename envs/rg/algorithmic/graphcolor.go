package algorithmic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// GraphColorOptions are reasoning-gym's GraphColorConfig. Quarry caps the
// graph at 100 vertices and 20 colours.
type GraphColorOptions struct {
	NumColors       int     `json:"num_colors" range:"1,20"`
	MinNumVertices  int     `json:"min_num_vertices" range:"1,100"`
	MaxNumVertices  int     `json:"max_num_vertices" range:"1,100"`
	EdgeProbability float64 `json:"edge_probability" range:"0,1"`
}

// Validate is reasoning-gym's (edge_probability < 1) plus min ≤ max.
func (o GraphColorOptions) Validate() error {
	if o.MaxNumVertices < o.MinNumVertices {
		return numBelow("max_num_vertices", o.MaxNumVertices, "min_num_vertices", o.MinNumVertices)
	}
	if o.EdgeProbability >= 1 {
		return &envs.OptionError{Option: "edge_probability", Reason: fmt.Sprintf("%v must be below 1", o.EdgeProbability)}
	}
	return nil
}

// graphMaxDraws bounds reasoning-gym's redraw loop (it redraws until the
// greedy colouring succeeds); after it, edges of the last graph are
// removed at random until it does.
const graphMaxDraws = 1000

type graphPuzzle struct {
	n      int
	colors int
	edges  [][2]int
}

// greedyColor colours vertices in order with the first colour no coloured
// neighbour has; nil when some vertex has none left.
func greedyColor(p graphPuzzle) []int {
	adj := make([][]int, p.n)
	for _, e := range p.edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	c := make([]int, p.n)
	for v := range p.n {
		used := make([]bool, p.colors+2)
		for _, u := range adj[v] {
			used[c[u]] = true // 0 = not yet coloured
		}
		for k := 1; k <= p.colors; k++ {
			if !used[k] {
				c[v] = k
				break
			}
		}
		if c[v] == 0 {
			return nil
		}
	}
	return c
}

func graphDraw(rng *rand.Rand, n, colors int, p float64) graphPuzzle {
	g := graphPuzzle{n: n, colors: colors}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				g.edges = append(g.edges, [2]int{i, j})
			}
		}
	}
	return g
}

func graphJSON(c []int) string {
	parts := make([]string, len(c))
	for v, k := range c {
		parts[v] = fmt.Sprintf("%q: %d", strconv.Itoa(v), k)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

var graphColorTask = rg.Task[GraphColorOptions]{
	Name:        "graph_color",
	Description: "reasoning-gym graph_color: colour a graph's vertices so no edge joins two of one colour; a JSON map.",
	Revision:    1,
	Defaults:    GraphColorOptions{NumColors: 3, MinNumVertices: 10, MaxNumVertices: 10, EdgeProbability: 0.1},
	Generate: func(rng *rand.Rand, o GraphColorOptions) (rg.Item, error) {
		var g graphPuzzle
		var c []int
		for range graphMaxDraws {
			g = graphDraw(rng, numRandInt(rng, o.MinNumVertices, o.MaxNumVertices), o.NumColors, o.EdgeProbability)
			if c = greedyColor(g); c != nil {
				break
			}
		}
		for c == nil {
			k := rng.IntN(len(g.edges))
			g.edges = append(g.edges[:k], g.edges[k+1:]...)
			c = greedyColor(g)
		}
		verts := make([]string, g.n)
		for v := range verts {
			verts[v] = strconv.Itoa(v)
		}
		edges := make([]string, len(g.edges))
		for i, e := range g.edges {
			edges[i] = fmt.Sprintf("(%d, %d)", e[0], e[1])
		}
		colors := make([]string, g.colors)
		for k := range colors {
			colors[k] = strconv.Itoa(k + 1)
		}
		return rg.Item{
			Question: "Please provide a coloring for this graph such that every vertex is not connected to a vertex of the same color. The graph has these properties:\n\n" +
				"Vertices: [" + strings.Join(verts, ", ") + "]\n" +
				"Edges: [" + strings.Join(edges, ", ") + "]\n" +
				"Possible colors: [" + strings.Join(colors, ", ") + "]\n\n" +
				"Return your solution as a JSON map of vertices to colors. (For example: {\"0\": 1, \"1\": 2, \"2\": 3}.)\n",
			Answer: graphJSON(c),
			Data:   g,
			Meta:   map[string]any{"num_vertices": g.n, "num_colors": g.colors, "edges": g.edges, "possible_answer": c},
		}, nil
	},
	Score: func(answer string, it *rg.Item) float64 {
		c, ok := graphParse(answer)
		if !ok {
			return 0
		}
		if graphCheck(it.Data.(graphPuzzle), c) == "" {
			return 1
		}
		return 0.01 // reasoning-gym's credit for a readable map
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		g := it.Data.(graphPuzzle)
		c := make([]int, g.n)
		for v := range c {
			c[v] = 1 + rng.IntN(g.colors)
		}
		return graphJSON(c)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		c, ok := graphParse(answer)
		if !ok {
			return "Your answer is not a JSON map of vertices to colors."
		}
		return graphCheck(it.Data.(graphPuzzle), c)
	},
}

// graphParse reads a JSON object of vertex to colour. Quarry also takes
// colours written as strings ("2"), which reasoning-gym refuses.
func graphParse(answer string) (map[string]int, bool) {
	if len(answer) > maxNumAnswer {
		return nil, false
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(answer), &raw); err != nil {
		return nil, false
	}
	out := map[string]int{}
	for k, v := range raw {
		key := strings.TrimSpace(k)
		if n, err := strconv.Atoi(key); err == nil {
			key = strconv.Itoa(n)
		}
		switch x := v.(type) {
		case float64:
			if x == float64(int(x)) {
				out[key] = int(x)
			} else {
				out[key] = -1
			}
		case string:
			n, err := strconv.Atoi(strings.TrimSpace(x))
			if err != nil {
				n = -1
			}
			out[key] = n
		default:
			out[key] = -1
		}
	}
	return out, true
}

// graphCheck is reasoning-gym's verify_graph_coloring_solution: "" for a
// valid colouring, else what is wrong (no colour is named as the answer's).
func graphCheck(g graphPuzzle, c map[string]int) string {
	col := make([]int, g.n)
	for v := range g.n {
		k, ok := c[strconv.Itoa(v)]
		if !ok {
			return fmt.Sprintf("Vertex %d has no color.", v)
		}
		if k < 1 || k > g.colors {
			return fmt.Sprintf("Vertex %d has a color that is not allowed.", v)
		}
		col[v] = k
	}
	for _, e := range g.edges {
		if col[e[0]] == col[e[1]] {
			return fmt.Sprintf("Adjacent vertices %d and %d have the same color.", e[0], e[1])
		}
	}
	return ""
}
