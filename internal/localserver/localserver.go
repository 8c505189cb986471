// Package localserver runs a Temporal server inside the current process for
// `submit --local` and for end-to-end tests: all services in one process,
// persisted to a SQLite file (or memory), bound to loopback, with the Web UI
// optionally beside it.
//
// Restarting on the same directory resumes every running workflow: the
// database keeps the state and ports.json keeps the ports, because a cluster
// that comes back on new ports waits for its old membership to expire before
// it serves.
package localserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uiserveroptions "github.com/temporalio/ui-server/v2/server/server_options"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

const host = "127.0.0.1"

// Options configure a local server.
type Options struct {
	// Dir holds temporal.db and ports.json. Empty means an in-memory
	// database on fresh ports (tests that need no persistence).
	Dir string
	// Namespace to create; "default" when empty.
	Namespace string
	// UI starts the Temporal Web UI on loopback.
	UI bool
	// Logger receives the server's warnings and errors; nil discards them.
	Logger *slog.Logger
	// DynamicConfig overrides server dynamic config keys.
	DynamicConfig map[string]any
}

// Ports are the loopback ports of one local server, kept across restarts.
type Ports struct {
	Frontend     int `json:"frontend"`
	FrontendHTTP int `json:"frontend_http"`
	History      int `json:"history"`
	Matching     int `json:"matching"`
	Worker       int `json:"worker"`
	UI           int `json:"ui"`
}

// Server is a running local Temporal server.
type Server struct {
	server    temporal.Server
	ui        *uiserver.Server
	ports     Ports
	namespace string
	lock      *os.File
}

// Start starts the server and returns once its frontend accepts connections.
func Start(opts Options) (*Server, error) {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{namespace: opts.Namespace}
	var dbFile string
	if opts.Dir != "" {
		if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("local server: state dir: %w", err)
		}
		lock, err := lockDir(opts.Dir)
		if err != nil {
			return nil, err
		}
		s.lock = lock
		dbFile = filepath.Join(opts.Dir, "temporal.db")
	}
	ports, err := loadOrPickPorts(opts.Dir)
	if err != nil {
		s.unlock()
		return nil, err
	}
	s.ports = ports
	sqlConf, err := sqlConfig(dbFile, opts.Namespace)
	if err != nil {
		s.unlock()
		return nil, err
	}
	dyn := dynamicconfig.StaticClient{
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
	}
	for k, v := range opts.DynamicConfig {
		dyn[dynamicconfig.MakeKey(k)] = v
	}
	srv, err := temporal.NewServer(
		temporal.WithConfig(serverConfig(ports, sqlConf)),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(map[primitives.ServiceName]static.Hosts{
			primitives.FrontendService: static.SingleLocalHost(addr(ports.Frontend)),
			primitives.HistoryService:  static.SingleLocalHost(addr(ports.History)),
			primitives.MatchingService: static.SingleLocalHost(addr(ports.Matching)),
			primitives.WorkerService:   static.SingleLocalHost(addr(ports.Worker)),
		}),
		temporal.WithLogger(newServerLogger(logger)),
		temporal.WithDynamicConfigClient(dyn),
	)
	if err != nil {
		s.unlock()
		return nil, fmt.Errorf("local server: %w", err)
	}
	if err := srv.Start(); err != nil {
		s.unlock()
		return nil, fmt.Errorf("local server: start: %w", err)
	}
	s.server = srv
	if opts.UI {
		s.ui = uiserver.NewServer(uiserveroptions.WithConfigProvider(&uiconfig.Config{
			Host:                host,
			Port:                ports.UI,
			TemporalGRPCAddress: addr(ports.Frontend),
			EnableUI:            true,
			CORS:                uiconfig.CORS{CookieInsecure: true},
			HideLogs:            true,
			DisableNewsFetch:    true, // no network beyond loopback
		}))
		go func() {
			if err := s.ui.Start(); err != nil && !errors.Is(err, net.ErrClosed) {
				logger.Error("temporal web ui stopped", "err", err)
			}
		}()
	}
	if err := waitListening(addr(ports.Frontend), 30*time.Second); err != nil {
		s.Stop()
		return nil, err
	}
	if s.ui != nil {
		if err := waitListening(addr(ports.UI), 30*time.Second); err != nil {
			s.Stop()
			return nil, err
		}
	}
	return s, nil
}

// HostPort is the frontend address for SDK clients.
func (s *Server) HostPort() string { return addr(s.ports.Frontend) }

// Namespace is the namespace the server created.
func (s *Server) Namespace() string { return s.namespace }

// UIURL is the Web UI's address, or "" when the UI is off.
func (s *Server) UIURL() string {
	if s.ui == nil {
		return ""
	}
	return "http://" + addr(s.ports.UI)
}

// Ports returns the server's ports.
func (s *Server) Ports() Ports { return s.ports }

// Stop stops the UI and the server and releases the state dir.
func (s *Server) Stop() {
	if s.ui != nil {
		s.ui.Stop()
	}
	if s.server != nil {
		_ = s.server.Stop()
	}
	s.unlock()
}

func (s *Server) unlock() {
	if s.lock != nil {
		_ = syscall.Flock(int(s.lock.Fd()), syscall.LOCK_UN)
		_ = s.lock.Close()
		s.lock = nil
	}
}

// ErrInUse means another process serves the state dir; Address finds it.
var ErrInUse = errors.New("state dir in use by another process")

// Address returns the frontend host:port of the server a state dir records
// (ports.json), for a client that attaches to a server another process runs.
func Address(dir string) (string, error) {
	path := filepath.Join(dir, "ports.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("local server: %w", err)
	}
	var p Ports
	if err := json.Unmarshal(b, &p); err != nil || p.Frontend == 0 {
		return "", fmt.Errorf("local server: %s: no frontend port (%v)", path, err)
	}
	return addr(p.Frontend), nil
}

// InUse reports whether a running server holds dir's lock.
func InUse(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "server.lock"))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// lockDir takes an exclusive lock so two processes never serve one database.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "server.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("local server: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("local server: %s: %w (another `submit --local` on the same state dir?)", dir, ErrInUse)
	}
	return f, nil
}

func loadOrPickPorts(dir string) (Ports, error) {
	var p Ports
	path := filepath.Join(dir, "ports.json")
	if dir != "" {
		b, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := json.Unmarshal(b, &p); err != nil {
				return p, fmt.Errorf("local server: %s: %w (delete it to pick new ports)", path, err)
			}
			for _, port := range []int{p.Frontend, p.FrontendHTTP, p.History, p.Matching, p.Worker, p.UI} {
				if err := checkFree(port); err != nil {
					return p, fmt.Errorf("local server: port %d recorded in %s is taken by another process: %w", port, path, err)
				}
			}
			return p, nil
		case !errors.Is(err, os.ErrNotExist):
			return p, fmt.Errorf("local server: %w", err)
		}
	}
	ports, err := freePorts(6)
	if err != nil {
		return p, err
	}
	p = Ports{ports[0], ports[1], ports[2], ports[3], ports[4], ports[5]}
	if dir != "" {
		b, _ := json.MarshalIndent(p, "", "  ")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return p, fmt.Errorf("local server: %w", err)
		}
	}
	return p, nil
}

// freePorts reserves n distinct loopback ports by listening on them at once.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	out := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", host+":0")
		if err != nil {
			return nil, fmt.Errorf("local server: pick a port: %w", err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

func checkFree(port int) error {
	l, err := net.Listen("tcp", addr(port))
	if err != nil {
		return err
	}
	return l.Close()
}

func waitListening(address string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", address, time.Second)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("local server: frontend %s not listening after %s: %w", address, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func addr(port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }

func sqlConfig(dbFile, namespace string) (*config.SQL, error) {
	c := &config.SQL{PluginName: sqliteplugin.PluginName}
	if dbFile == "" {
		c.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
		c.DatabaseName = "quarry-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	} else {
		// Keys other than mode become SQLite pragmas (_pragma=key=value).
		c.ConnectAttributes = map[string]string{"mode": "rwc", "journal_mode": "wal", "synchronous": "NORMAL"}
		c.DatabaseName = dbFile
		if _, err := os.Stat(dbFile); errors.Is(err, os.ErrNotExist) {
			if err := sqliteschema.SetupSchema(c); err != nil {
				return nil, fmt.Errorf("local server: create schema in %s: %w", dbFile, err)
			}
		}
	}
	ns, err := sqliteschema.NewNamespaceConfig("active", namespace, false, nil)
	if err != nil {
		return nil, fmt.Errorf("local server: namespace: %w", err)
	}
	if err := sqliteschema.CreateNamespaces(c, ns); err != nil {
		return nil, fmt.Errorf("local server: create namespace %q: %w", namespace, err)
	}
	return c, nil
}

func serverConfig(p Ports, sqlConf *config.SQL) *config.Config {
	var c config.Config
	c.Global.Membership.MaxJoinDuration = 30 * time.Second
	c.Global.Membership.BroadcastAddress = host
	c.Persistence.DefaultStore = "sqlite"
	c.Persistence.VisibilityStore = "sqlite"
	c.Persistence.NumHistoryShards = 1
	c.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: sqlConf}}
	c.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        "active",
		CurrentClusterName:       "active",
		ClusterInformation: map[string]cluster.ClusterInformation{
			"active": {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             addr(p.Frontend),
				HTTPAddress:            addr(p.FrontendHTTP),
				ClusterID:              "quarry-local",
			},
		},
	}
	c.DCRedirectionPolicy.Policy = "noop"
	svc := func(port, httpPort int) config.Service {
		var s config.Service
		s.RPC.GRPCPort = port
		s.RPC.BindOnIP = host
		s.RPC.HTTPPort = httpPort
		return s
	}
	c.Services = map[string]config.Service{
		"frontend": svc(p.Frontend, p.FrontendHTTP),
		"history":  svc(p.History, 0),
		"matching": svc(p.Matching, 0),
		"worker":   svc(p.Worker, 0),
	}
	c.Archival.History.State = "disabled"
	c.Archival.Visibility.State = "disabled"
	c.NamespaceDefaults.Archival.History.State = "disabled"
	c.NamespaceDefaults.Archival.Visibility.State = "disabled"
	c.PublicClient.HostPort = addr(p.Frontend)
	return &c
}
