package dataset_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/quarry-rl/quarry/envs/dataset"
)

func Example() {
	dir, _ := os.MkdirTemp("", "dataset-example")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "train.jsonl")
	os.WriteFile(p, []byte(`{"problem": "1+1?", "answer": "2"}
{"problem": "2+3?", "answer": "5"}
{"problem": "4*4?", "answer": "16"}
`), 0o644)

	ctx := context.Background()
	reg := dataset.NewRegistry() // dataset.Open uses the process's registry
	defer reg.Close()
	d, err := reg.Open(ctx, p, dataset.WithCacheDir(filepath.Join(dir, "cache")), dataset.WithColumns("problem", "answer"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// Two epochs of seeded tasks: every row once per epoch.
	for task := range 2 * d.Len() {
		row, err := d.Row(ctx, dataset.Index(42, d.Len(), task))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(task, row["problem"], row["answer"])
	}

	_, err = reg.Open(ctx, p, dataset.WithCacheDir(filepath.Join(dir, "cache")), dataset.WithColumns("question"))
	fmt.Println(err != nil)
	// Output:
	// 0 2+3? 5
	// 1 1+1? 2
	// 2 4*4? 16
	// 3 2+3? 5
	// 4 4*4? 16
	// 5 1+1? 2
	// true
}
