package deploycheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/modfile"
)

// Binary is what a Quarry command accepts: its flags (without the leading
// dashes) and the environment variables its help names.
type Binary struct {
	Flags map[string]bool
	Env   map[string]bool
}

var (
	helpFlag = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z0-9][a-z0-9-]*)`)
	helpEnv  = regexp.MustCompile(`\$([A-Z][A-Z0-9_]+)`)
)

// ParseHelp reads a cobra command's -h output.
func ParseHelp(help string) Binary {
	b := Binary{Flags: map[string]bool{}, Env: map[string]bool{}}
	for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
		b.Flags[m[1]] = true
	}
	for _, m := range helpEnv.FindAllStringSubmatch(help, -1) {
		b.Env[m[1]] = true
	}
	return b
}

// Repo holds the facts of the repository the recipes are checked against.
type Repo struct {
	// GoVersion is go.mod's go directive (the builder image's Go).
	GoVersion string
	// Modules maps each module go.mod requires to its version.
	Modules map[string]string
	// Binaries maps a command under cmd/ to what it accepts.
	Binaries map[string]Binary
	// Versitygw is the version scripts/deps/versitygw.sh installs for the
	// tests; the compose S3 service builds the same.
	Versitygw string
	// TemporalEnv are the environment variables the server's embedded
	// config template reads (DB, POSTGRES_SEEDS, NUM_HISTORY_SHARDS…).
	TemporalEnv map[string]bool
}

// ReadRepo reads go.mod and scripts/deps/versitygw.sh under root. Binaries
// and TemporalEnv are the caller's to fill.
func ReadRepo(root string) (Repo, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return Repo{}, fmt.Errorf("read go.mod: %w", err)
	}
	mf, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return Repo{}, fmt.Errorf("parse go.mod: %w", err)
	}
	r := Repo{Modules: map[string]string{}, Binaries: map[string]Binary{}}
	if mf.Go != nil {
		r.GoVersion = mf.Go.Version
	}
	for _, req := range mf.Require {
		r.Modules[req.Mod.Path] = req.Mod.Version
	}
	sh, err := os.ReadFile(filepath.Join(root, "scripts", "deps", "versitygw.sh"))
	if err != nil {
		return Repo{}, fmt.Errorf("read the versitygw install script: %w", err)
	}
	m := regexp.MustCompile(`VERSITYGW_VERSION:-(v[0-9.]+)`).FindSubmatch(sh)
	if m == nil {
		return Repo{}, fmt.Errorf("scripts/deps/versitygw.sh: no VERSITYGW_VERSION default found")
	}
	r.Versitygw = string(m[1])
	return r, nil
}

// TemplateEnv lists the environment variables a Temporal server config
// template reads ({{ env "NAME" }} or .Env.NAME).
func TemplateEnv(template string) map[string]bool {
	env := map[string]bool{}
	re := regexp.MustCompile(`env "([A-Z][A-Z0-9_]*)"|\.Env\.([A-Z][A-Z0-9_]*)`)
	for _, m := range re.FindAllStringSubmatch(template, -1) {
		env[m[1]+m[2]] = true
	}
	return env
}

// awsEnv are the AWS SDK's variables the blob store relies on
// (internal/blob: endpoint, credentials, region, profile).
var awsEnv = map[string]bool{
	"AWS_ENDPOINT_URL": true, "AWS_ENDPOINT_URL_S3": true, "AWS_REGION": true, "AWS_DEFAULT_REGION": true,
	"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true, "AWS_PROFILE": true,
	"AWS_REQUEST_CHECKSUM_CALCULATION": true, "AWS_RESPONSE_CHECKSUM_VALIDATION": true, "AWS_RETRY_MODE": true,
}

// SpecKeyEnv are the variables the recipes provide for a spec's
// api_key_env to name; no binary reads them until a spec says so.
var SpecKeyEnv = map[string]bool{"OPENAI_API_KEY": true}

// checkInvocation checks one run of a Quarry binary: the flags of args
// and the environment variables set for it.
func (r Repo) checkInvocation(where, bin string, args, env []string) []error {
	b, ok := r.Binaries[bin]
	if !ok {
		return []error{fmt.Errorf("%s: runs %q, which is not a command under cmd/ (have %s)", where, bin, keys(r.Binaries))}
	}
	var errs []error
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if b.Flags[name] {
			continue
		}
		errs = append(errs, fmt.Errorf("%s: %s has no flag --%s (see %s -h)", where, bin, name, bin))
	}
	for _, e := range env {
		if !b.Env[e] && !awsEnv[e] && !SpecKeyEnv[e] {
			errs = append(errs, fmt.Errorf("%s: environment variable %s is read by neither %s nor the AWS SDK, and no spec names it", where, e, bin))
		}
	}
	return errs
}

// flagValue returns the value of --name in args ("--name v" or "--name=v").
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}
