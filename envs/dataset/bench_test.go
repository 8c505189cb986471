package dataset

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkRow reads rows in the seeded task order; rows/s is reported.
//
//	go test -run '^$' -bench BenchmarkRow ./envs/dataset/
func BenchmarkRow(b *testing.B) {
	const n = 20_000
	rows := makeRows(n)
	dir := b.TempDir()
	for _, tc := range []struct {
		name string
		file string
		opts []Option
	}{
		{"jsonl", writeFile(b, dir, "b.jsonl", jsonlBytes(b, rows)), nil},
		{"parquet-cached", writeFile(b, dir, "b.parquet", parquetBytes(b, rows, 2000)), nil},
		{"parquet-seek", writeFile(b, dir, "s.parquet", parquetBytes(b, rows, 2000)), []Option{WithRowGroupCache(0)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			d, err := newRegistry(b).Open(context.Background(), tc.file, append(tc.opts, WithCacheDir(filepath.Join(dir, "cache")))...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := d.Row(ctx, Index(1, n, i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
