package mcp

import (
	"context"
	"testing"

	"github.com/quarry-rl/quarry/tools"
)

// benchCalls runs b.N sequential calls of action in one session.
func benchCalls(b *testing.B, cfg Config, action, want string) {
	tool, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s, err := tool.Open(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	call, _ := tool.Parse(action)
	var res tools.Result
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res, err = s.Execute(ctx, call); err != nil || res.Observation != want {
			b.Fatalf("call: %+v, %v", res, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkCallEverything: calls/s against the npm reference server (node,
// stdio).
func BenchmarkCallEverything(b *testing.B) {
	cfg := Config{Servers: map[string]Server{"everything": everythingStdio(b, nil)}}
	benchCalls(b, cfg, gemCall("echo", `{"message": "hi"}`), "Echo: hi")
}

// BenchmarkCallGoServer: calls/s against the Go SDK server over stdio and
// streamable HTTP (loopback).
func BenchmarkCallGoServer(b *testing.B) {
	b.Run("stdio", func(b *testing.B) {
		benchCalls(b, Config{Servers: map[string]Server{"go": goStdioServer(b, nil)}}, gemCall("echo", `{"text": "hi"}`), "echo: hi")
	})
	b.Run("http", func(b *testing.B) {
		benchCalls(b, Config{Servers: map[string]Server{"go": {URL: startGoHTTP(b).URL}}}, gemCall("echo", `{"text": "hi"}`), "echo: hi")
	})
}

// BenchmarkOpenClose: the cost of a session (start a stdio server,
// handshake, close), which every episode pays once.
func BenchmarkOpenClose(b *testing.B) {
	tool, err := New(Config{Servers: map[string]Server{"go": goStdioServer(b, nil)}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := tool.Instructions(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := tool.Open(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
