//go:build linux

package clustertest

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/parquet-go/parquet-go"

	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/schema"
)

// The cluster test's claim "no half-written object was visible" is only as
// good as the watcher's checks: each case puts what a broken commit would
// leave in a real S3 server and expects the watcher to name it.
func TestWatcherCatchesIncompleteObjects(t *testing.T) {
	type row struct {
		Episode int64 `parquet:"episode"`
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, []row{{1}, {2}, {3}}); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	const shard = "shards/part-00000.turns.parquet"
	manifest := func(data []byte) []byte {
		m := &schema.Manifest{Job: "j", Files: []schema.ManifestFile{schema.FileEntry("j", "j/"+shard, data, 3)}}
		b, err := schema.MarshalManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		steps   [][2]string // key, body; a Scan after each step
		wantErr string      // of the last scan; "" for none
	}{
		{"whole shard and its manifest", [][2]string{{shard, string(whole)}, {"_manifest/part-00000.json", string(manifest(whole))}}, ""},
		{"truncated shard", [][2]string{{shard, string(whole[:len(whole)/2])}}, "not a complete Parquet file"},
		{"shard rewritten after it was visible", [][2]string{{shard, string(whole)}, {shard, string(whole) + "x"}}, "changed from"},
		{"manifest committing other bytes", [][2]string{{shard, string(whole)}, {"_manifest/part-00000.json", string(manifest(append([]byte("x"), whole...)))}}, "the manifest says"},
		{"half a manifest", [][2]string{{shard, string(whole)}, {"_manifest/part-00000.json", string(manifest(whole)[:20])}}, "not a whole manifest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := s3test.Start(t)
			client := srv.Client()
			w := newWatcher(client, srv.Bucket, "j/")
			ctx := context.Background()
			var err error
			for _, step := range tc.steps {
				if _, perr := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(srv.Bucket), Key: aws.String("j/" + step[0]), Body: strings.NewReader(step[1])}); perr != nil {
					t.Fatal(perr)
				}
				if err = w.Scan(ctx); err != nil {
					break
				}
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Scan: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Scan: %v, want an error containing %q", err, tc.wantErr)
			}
			if n, _, _ := w.Committed(); tc.wantErr == "" && n != 1 {
				t.Fatalf("%d manifests committed, want 1", n)
			}
		})
	}
}
