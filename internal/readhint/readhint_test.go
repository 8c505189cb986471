package readhint

import (
	"strings"
	"testing"
)

func TestFolderHint(t *testing.T) {
	got := strings.Join(Lines("file:///data/rl", "job1", S3{}), "\n")
	for _, want := range []string{
		"output: /data/rl/job1",
		"SELECT * FROM '/data/rl/job1/shards/*.turns.parquet'",
		`glob.glob("/data/rl/job1/shards/*.turns.parquet")`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hint lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "httpfs") || strings.Contains(got, "s3fs") {
		t.Errorf("a folder hint speaks of S3:\n%s", got)
	}
}

func TestS3Hint(t *testing.T) {
	got := strings.Join(Lines("s3://bucket/rl/", "job1", S3{Endpoint: "http://127.0.0.1:7070", Region: "eu-west-1"}), "\n")
	for _, want := range []string{
		"output: s3://bucket/rl/job1",
		"INSTALL httpfs; LOAD httpfs; CREATE SECRET (TYPE s3, PROVIDER credential_chain, ENDPOINT '127.0.0.1:7070', URL_STYLE 'path', USE_SSL false, REGION 'eu-west-1');",
		"SELECT * FROM 's3://bucket/rl/job1/shards/*.turns.parquet'",
		`so = {"endpoint_url": "http://127.0.0.1:7070", "client_kwargs": {"region_name": "eu-west-1"}}`,
		`s3fs.S3FileSystem(**so).glob("bucket/rl/job1/shards/*.turns.parquet")`,
		`pd.read_parquet("s3://" + f, storage_options=so)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hint lacks %q:\n%s", want, got)
		}
	}
	aws := strings.Join(Lines("s3://bucket", "job1", S3{Endpoint: "https://s3.example.com/"}), "\n")
	for _, want := range []string{"ENDPOINT 's3.example.com'", "USE_SSL true", "SELECT * FROM 's3://bucket/job1/shards/*.turns.parquet'"} {
		if !strings.Contains(aws, want) {
			t.Errorf("hint lacks %q:\n%s", want, aws)
		}
	}
	plain := strings.Join(Lines("s3://bucket", "job1", S3{}), "\n")
	if strings.Contains(plain, "ENDPOINT") || !strings.Contains(plain, "so = {}") {
		t.Errorf("AWS's own S3 needs no endpoint:\n%s", plain)
	}
}
