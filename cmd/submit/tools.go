package main

import (
	"context"
	"fmt"

	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/toolset"
)

// preflightTools checks a job's tools before anything is submitted: the
// retrieval server answers a query, MCP servers start and list their tools,
// and with --local (where this process runs the calls) the python sandbox
// starts. Remote workers check their own sandbox when they start one. A dry
// run starts no MCP server (a stdio server is a program the spec names) and
// no sandbox (starting one reclaims its uid range): it only checks that each
// stdio command resolves.
func preflightTools(ctx context.Context, g *globals, spec schema.JobSpec, dryRun bool) error {
	t := spec.Tools
	if t == nil {
		return nil
	}
	host := &toolset.Host{Sandbox: g.sandbox, Log: g.logger()}
	defer host.CloseAll()
	switch {
	case g.local && t.Python != nil && dryRun:
		fmt.Fprintln(g.out, "tools.python: sandbox not started (dry run)")
	case g.local && t.Python != nil:
		if err := host.Check(ctx, &schema.ToolsSpec{Python: t.Python}); err != nil {
			return fmt.Errorf("tools.python: %w (install bubblewrap with scripts/deps/bubblewrap.sh; sandboxes need root to run as their own uids)", err)
		}
	}
	if dryRun && t.MCP != nil {
		cfg, err := toolset.MCPConfig(t)
		if err != nil {
			return err
		}
		if err := cfg.CheckCommands(); err != nil {
			return fmt.Errorf("tools.mcp: %w", err)
		}
		fmt.Fprintln(g.out, "tools.mcp: servers not started (dry run)")
		rest := *t
		rest.MCP = nil
		if len(rest.Names()) == 0 {
			return nil
		}
		t = &rest
	}
	set, err := host.Set(ctx, t)
	if err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	if st, ok := set.Tool("search"); ok {
		if err := probe(ctx, st, "test"); err != nil {
			return fmt.Errorf("tools.search.url %s: %w (serve an index with `quarry retrieve serve --index DIR`)", t.Search.URL, err)
		}
	}
	fmt.Fprintf(g.out, "tools: %v (max %d uses per episode)\n", spec.Tools.Names(), set.Config.MaxToolUses)
	return nil
}

// probe runs one call of a stateless tool and fails on an error observation.
func probe(ctx context.Context, t tools.Tool, input string) error {
	s, err := t.Open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.Execute(ctx, tools.Call{Tool: t.Name(), Input: input})
	if err != nil {
		return err
	}
	if res.Error {
		return fmt.Errorf("%s", res.Observation)
	}
	return nil
}
