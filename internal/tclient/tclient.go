// Package tclient dials Temporal the same way for every Quarry command: a
// local or self-hosted cluster, or Temporal Cloud with mTLS or an API key.
// Keys are read from environment variables named on the command line, never
// passed as flag values (which would show in process listings).
package tclient

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
)

// Options select a Temporal cluster.
type Options struct {
	Address   string
	Namespace string
	TLSCert   string // client certificate file (mTLS)
	TLSKey    string
	TLSCA     string // CA bundle for the server, when not a public CA
	TLS       bool   // TLS without a client certificate (API-key auth)
	APIKeyEnv string // environment variable holding a Temporal Cloud API key
	// MetricsHandler receives the SDK's metrics (internal/metrics); not a flag.
	MetricsHandler client.MetricsHandler
}

// AddFlags registers the connection flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Address, "address", envOr("TEMPORAL_ADDRESS", "127.0.0.1:7233"), "Temporal frontend host:port ($TEMPORAL_ADDRESS)")
	fs.StringVar(&o.Namespace, "namespace", envOr("TEMPORAL_NAMESPACE", "default"), "Temporal namespace ($TEMPORAL_NAMESPACE)")
	fs.StringVar(&o.TLSCert, "tls-cert", "", "client certificate for mTLS")
	fs.StringVar(&o.TLSKey, "tls-key", "", "client key for mTLS")
	fs.StringVar(&o.TLSCA, "tls-ca", "", "CA bundle that signed the server's certificate")
	fs.BoolVar(&o.TLS, "tls", false, "use TLS without a client certificate (implied by --tls-cert or --api-key-env)")
	fs.StringVar(&o.APIKeyEnv, "api-key-env", "", "name of the environment variable holding a Temporal Cloud API key")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Dial connects to the cluster.
func (o Options) Dial(log *slog.Logger) (client.Client, error) {
	co := client.Options{HostPort: o.Address, Namespace: o.Namespace, Logger: sdklog.NewStructuredLogger(log), MetricsHandler: o.MetricsHandler}
	useTLS := o.TLS || o.TLSCert != "" || o.APIKeyEnv != ""
	if useTLS {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if o.TLSCert != "" || o.TLSKey != "" {
			cert, err := tls.LoadX509KeyPair(o.TLSCert, o.TLSKey)
			if err != nil {
				return nil, fmt.Errorf("temporal: load client certificate: %w", err)
			}
			cfg.Certificates = []tls.Certificate{cert}
		}
		if o.TLSCA != "" {
			pem, err := os.ReadFile(o.TLSCA)
			if err != nil {
				return nil, fmt.Errorf("temporal: read CA bundle: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("temporal: %s holds no PEM certificate", o.TLSCA)
			}
			cfg.RootCAs = pool
		}
		co.ConnectionOptions.TLS = cfg
	}
	if o.APIKeyEnv != "" {
		key := os.Getenv(o.APIKeyEnv)
		if key == "" {
			return nil, fmt.Errorf("temporal: environment variable %s (from --api-key-env) is empty", o.APIKeyEnv)
		}
		co.Credentials = client.NewAPIKeyStaticCredentials(key)
	}
	c, err := client.Dial(co)
	if err != nil {
		return nil, fmt.Errorf("temporal: connect to %s (namespace %s): %w", o.Address, o.Namespace, err)
	}
	return c, nil
}
