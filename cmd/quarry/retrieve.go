package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/quarry-rl/quarry/tools/search/retriever"
)

func newRetrieveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "retrieve",
		Short: "Build and serve a BM25 retrieval index for the search tool",
		Long: "The built-in retrieval server for the search tool: index a JSONL corpus in Search-R1's format\n" +
			"({\"id\": ..., \"contents\": \"\\\"Title\\\"\\nbody\"} per line) into a BM25 index on disk, then serve it on\n" +
			"POST /retrieve, speaking GEM's (msgpack, {\"query\"}) and Search-R1's (JSON, {\"queries\"}) protocols.",
	}
	cmd.AddCommand(newRetrieveIndexCmd(), newRetrieveServeCmd())
	return cmd
}

func newRetrieveIndexCmd() *cobra.Command {
	var (
		corpus, dir string
		batchSize   int
	)
	cmd := &cobra.Command{
		Use:   "index --corpus corpus.jsonl --index DIR",
		Short: "Build a BM25 index from a JSONL corpus",
		Long: "Stream a JSONL corpus into a new BM25 index at DIR, in batches. DIR must not exist; the index is\n" +
			"built beside it and moved into place when complete.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := retrieveContext(cmd)
			defer stop()
			f, err := os.Open(corpus)
			if err != nil {
				return fmt.Errorf("open corpus: %w", err)
			}
			defer f.Close()
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			stats, err := retriever.Build(ctx, f, dir, retriever.WithBatchSize(batchSize), retriever.WithLogger(log))
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "indexed %d documents (%d corpus lines) into %s\n", stats.Documents, stats.Lines, dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&corpus, "corpus", "", "JSONL corpus to index (required)")
	cmd.Flags().StringVar(&dir, "index", "", "directory to create the index in (required)")
	cmd.Flags().IntVar(&batchSize, "batch-size", retriever.DefaultBatchSize, "documents per indexing batch")
	_ = cmd.MarkFlagRequired("corpus")
	_ = cmd.MarkFlagRequired("index")
	return cmd
}

func newRetrieveServeCmd() *cobra.Command {
	var (
		dir, addr  string
		cfg        retriever.ServerConfig
		maxRequest int64
	)
	cmd := &cobra.Command{
		Use:   "serve --index DIR [--addr 127.0.0.1:8000]",
		Short: "Serve a BM25 index on POST /retrieve and GET /health",
		Long: "Serve an index built by `quarry retrieve index` until interrupted (SIGINT or SIGTERM), then finish\n" +
			"the requests in flight and exit. Point the search tool at http://ADDR/retrieve.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := retrieveContext(cmd)
			defer stop()
			idx, err := retriever.Open(dir)
			if err != nil {
				return err
			}
			defer idx.Close()
			n, err := idx.DocCount()
			if err != nil {
				return err
			}
			cfg.MaxRequestBytes = maxRequest
			cfg.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			srv, err := retriever.NewServer(idx, cfg)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("listen: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "serving %d documents on http://%s/retrieve\n", n, ln.Addr())
			return srv.Serve(ctx, ln)
		},
	}
	cmd.Flags().StringVar(&dir, "index", "", "index directory built by `quarry retrieve index` (required)")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8000", "address to listen on (loopback unless you mean otherwise)")
	cmd.Flags().IntVar(&cfg.TopK, "topk", retriever.DefaultTopK, "passages per query when a request gives no topk")
	cmd.Flags().IntVar(&cfg.MaxTopK, "max-topk", retriever.DefaultMaxTopK, "largest topk a request may ask for")
	cmd.Flags().IntVar(&cfg.MaxQueries, "max-queries", retriever.DefaultMaxQueries, "most queries in one request")
	cmd.Flags().Int64Var(&maxRequest, "max-request-bytes", retriever.DefaultMaxRequestBytes, "largest request body accepted")
	_ = cmd.MarkFlagRequired("index")
	return cmd
}

// retrieveContext is the command's context, also cancelled by SIGINT or SIGTERM.
func retrieveContext(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
