// Command temporal-cluster is the Temporal server v1.32.0 that Quarry's
// cluster recipe runs (scripts/cluster/), built from a module of its own
// because the server's binary does not build inside Quarry's module.
//
//	temporal-cluster server --config-file temporal.yaml --service history
//	temporal-cluster sql --plugin postgres12 ... setup-schema -v 0.0
//	temporal-cluster namespace --address 127.0.0.1:7233 --namespace default
//	temporal-cluster free-ports 8
//
// "server" runs the named services of one config (the upstream cmd/server's
// `start`, without its deprecated flags); "sql" is the upstream
// temporal-sql-tool, whose --schema-name option applies the schemas the
// server module embeds (postgresql/v12/temporal, postgresql/v12/visibility);
// "namespace" registers a namespace and waits until the cluster serves it
// (the scripts have no temporal CLI); "free-ports" prints loopback ports
// nobody listens on, for a cluster on a shared host.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/headers"
	"go.temporal.io/server/common/log"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql" // the postgres12 plugin
	"go.temporal.io/server/temporal"
	"go.temporal.io/server/tools/sql"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: temporal-cluster server --config-file FILE --service NAME[,NAME...] | temporal-cluster sql ARGS...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "server":
		err = serve(os.Args[2:])
	case "sql":
		// RunTool reads args[1:] as the tool's arguments.
		err = sql.RunTool(append([]string{"temporal-sql-tool"}, os.Args[2:]...))
	case "namespace":
		err = namespace(os.Args[2:])
	case "free-ports":
		err = freePorts(os.Args[2:])
	case "version":
		fmt.Println(headers.ServerVersion)
	default:
		err = fmt.Errorf("unknown command %q: want server, sql, namespace, free-ports or version", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "temporal-cluster:", err)
		os.Exit(1)
	}
}

// serve starts the services of one config and blocks until SIGINT or
// SIGTERM.
func serve(args []string) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	file := fs.String("config-file", "", "server config (YAML)")
	services := fs.String("service", strings.Join(temporal.DefaultServices, ","), "comma-separated services to run: frontend, history, matching, worker")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *file == "" {
		return errors.New("server: --config-file is required")
	}
	cfg, err := config.Load(config.WithConfigFile(*file))
	if err != nil {
		return fmt.Errorf("server: load %s: %w", *file, err)
	}
	logger := log.NewZapLogger(log.BuildZapLogger(cfg.Log))
	authorizer, err := authorization.GetAuthorizerFromConfig(&cfg.Global.Authorization)
	if err != nil {
		return fmt.Errorf("server: authorizer: %w", err)
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&cfg.Global.Authorization, logger)
	if err != nil {
		return fmt.Errorf("server: claim mapper: %w", err)
	}
	s, err := temporal.NewServer(
		temporal.ForServices(strings.Split(*services, ",")),
		temporal.WithConfig(cfg),
		temporal.WithLogger(logger),
		temporal.InterruptOn(temporal.InterruptCh()),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
	)
	if err != nil {
		return fmt.Errorf("server: create: %w", err)
	}
	// Start blocks until the interrupt channel fires, then stops the services.
	if err := s.Start(); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}
