// Package readhint writes the "how to read" lines a command prints after a
// job: where its committed data is, and a DuckDB query and a pandas line
// that read it, for a folder and for an S3 bucket (with the endpoint, TLS
// and URL style an S3-compatible server needs).
package readhint

import (
	"fmt"
	"net/url"
	"strings"
)

// S3 is how the reader reaches the bucket: the endpoint URL of an
// S3-compatible server ("" for AWS's own) and the region ("" for the
// reader's default). Credentials are never printed: both readers take them
// from the standard AWS chain (environment, profile).
type S3 struct {
	Endpoint string
	Region   string
}

// Lines are the hint for job under output (a file:// URL, a folder, or an
// s3:// URL).
func Lines(output, job string, s3 S3) []string {
	root := strings.TrimRight(strings.TrimPrefix(output, "file://"), "/") + "/" + job
	turns := root + "/shards/*.turns.parquet"
	lines := []string{
		"output: " + root,
		fmt.Sprintf("  committed shards are listed in %s/_manifest/; data in %s/shards/*.parquet", root, root),
	}
	if !strings.HasPrefix(output, "s3://") {
		return append(lines,
			fmt.Sprintf("  DuckDB:  SELECT * FROM '%s'", turns),
			fmt.Sprintf("  pandas:  pd.concat(pd.read_parquet(f) for f in sorted(glob.glob(%q)))", turns))
	}
	return append(lines,
		"  DuckDB:  "+duckSecret(s3),
		fmt.Sprintf("           SELECT * FROM '%s'", turns),
		"  pandas:  "+pandasS3(s3, turns))
}

// duckSecret is the httpfs setup: DuckDB reads s3:// URLs through httpfs,
// with the credentials of the AWS chain and, for an S3-compatible server,
// its address, TLS setting and path-style URLs.
func duckSecret(s3 S3) string {
	opts := []string{"TYPE s3", "PROVIDER credential_chain"}
	if s3.Endpoint != "" {
		host, ssl := s3.Endpoint, true
		if u, err := url.Parse(s3.Endpoint); err == nil && u.Host != "" {
			host, ssl = u.Host+strings.TrimRight(u.Path, "/"), u.Scheme != "http"
		}
		opts = append(opts, fmt.Sprintf("ENDPOINT '%s'", host), "URL_STYLE 'path'", fmt.Sprintf("USE_SSL %t", ssl))
	}
	if s3.Region != "" {
		opts = append(opts, fmt.Sprintf("REGION '%s'", s3.Region))
	}
	return "INSTALL httpfs; LOAD httpfs; CREATE SECRET (" + strings.Join(opts, ", ") + ");"
}

// pandasS3 reads the turn shards with s3fs (pandas' s3:// filesystem),
// whose storage_options carry the endpoint of an S3-compatible server.
func pandasS3(s3 S3, turns string) string {
	var kv []string
	if s3.Endpoint != "" {
		kv = append(kv, fmt.Sprintf("%q: %q", "endpoint_url", s3.Endpoint))
	}
	if s3.Region != "" {
		kv = append(kv, fmt.Sprintf("%q: {%q: %q}", "client_kwargs", "region_name", s3.Region))
	}
	so := "{" + strings.Join(kv, ", ") + "}"
	return fmt.Sprintf("so = %s; pd.concat(pd.read_parquet(\"s3://\" + f, storage_options=so) for f in sorted(s3fs.S3FileSystem(**so).glob(%q)))  (pip install s3fs)",
		so, strings.TrimPrefix(turns, "s3://"))
}
