package deploycheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// LoadCompose loads a compose file the way docker compose does, with every
// profile enabled and an empty environment (so ${VAR:-default} takes its
// default): compose-spec's JSON schema, interpolation, anchors and merges.
func LoadCompose(ctx context.Context, file string) (*types.Project, error) {
	details := types.ConfigDetails{
		WorkingDir:  filepath.Dir(file),
		ConfigFiles: []types.ConfigFile{{Filename: file}},
		Environment: types.Mapping{},
	}
	p, err := loader.LoadWithContext(ctx, details, func(o *loader.Options) {
		o.SetProjectName(filepath.Base(filepath.Dir(file)), false) // unless the file names it
		o.Profiles = []string{"*"}
		o.ResolvePaths = true
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", file, err)
	}
	return p, nil
}

// composeService is a service with the command it runs resolved.
type composeService struct {
	name string
	cfg  types.ServiceConfig
	bin  string   // the Quarry binary it runs, "" for other images
	args []string // that binary's arguments
}

// CheckCompose checks a loaded compose project against the image and the
// repository (see the package doc for the list).
func CheckCompose(p *types.Project, img Image, r Repo) error {
	var errs []error
	builds := func(s types.ServiceConfig) bool {
		return s.Build != nil && strings.HasSuffix(filepath.ToSlash(s.Build.Dockerfile), "deploy/Dockerfile")
	}
	quarryImages := map[string]bool{}
	for _, s := range p.Services {
		if builds(s) && s.Image != "" {
			quarryImages[s.Image] = true
		}
	}
	var all, workers []composeService
	for _, name := range sortedNames(p) {
		cs := composeService{name: name, cfg: p.Services[name]}
		if builds(cs.cfg) || quarryImages[cs.cfg.Image] {
			errs = append(errs, cs.resolve(img, r)...)
			if cs.bin == "worker" {
				workers = append(workers, cs)
			}
		}
		all = append(all, cs)
	}
	if len(workers) == 0 {
		errs = append(errs, errors.New("compose: no service runs the worker"))
	}
	errs = append(errs, composeOrder(p)...)
	errs = append(errs, composeVersions(p, r)...)
	errs = append(errs, composeSandbox(workers)...)
	errs = append(errs, composeReadiness(p, all)...)
	errs = append(errs, composeS3(p, all)...)
	return joinErrs(errs)
}

// composeS3 checks that a Quarry service's S3 endpoint is a service of the
// stack listening on that port, and that its access key is the one that
// service's root account has.
func composeS3(p *types.Project, all []composeService) []error {
	var errs []error
	for _, cs := range all {
		ep := cs.cfg.Environment["AWS_ENDPOINT_URL"]
		if cs.bin == "" || ep == nil {
			continue
		}
		where := "compose: service " + cs.name
		hostPort := strings.TrimPrefix(strings.TrimPrefix(*ep, "http://"), "https://")
		host, port, _ := strings.Cut(strings.TrimSuffix(hostPort, "/"), ":")
		s3, ok := p.Services[host]
		if !ok {
			continue // an S3 store outside the stack
		}
		if v, ok := flagValue(s3.Command, "port"); ok && strings.TrimPrefix(v, "0.0.0.0") != ":"+port {
			errs = append(errs, fmt.Errorf("%s: AWS_ENDPOINT_URL %s, but service %s listens on %s", where, *ep, host, v))
		}
		key, root := cs.cfg.Environment["AWS_ACCESS_KEY_ID"], s3.Environment["ROOT_ACCESS_KEY"]
		if key != nil && root != nil && *key != *root {
			errs = append(errs, fmt.Errorf("%s: AWS_ACCESS_KEY_ID %q is not the access key of service %s (%q)", where, *key, host, *root))
		}
		secret, rootSecret := cs.cfg.Environment["AWS_SECRET_ACCESS_KEY"], s3.Environment["ROOT_SECRET_KEY"]
		if secret != nil && rootSecret != nil && *secret != *rootSecret {
			errs = append(errs, fmt.Errorf("%s: AWS_SECRET_ACCESS_KEY is not the secret key of service %s", where, host))
		}
	}
	return errs
}

// resolve finds the binary a Quarry service runs and checks its flags and
// environment.
func (cs *composeService) resolve(img Image, r Repo) []error {
	argv := append([]string{}, img.Entrypoint...)
	if cs.cfg.Entrypoint != nil {
		argv = append([]string{}, cs.cfg.Entrypoint...)
	}
	argv = append(argv, cs.cfg.Command...)
	where := "compose: service " + cs.name
	bin, args, err := img.program(argv)
	if err != nil {
		return []error{fmt.Errorf("%s: %w", where, err)}
	}
	cs.bin, cs.args = bin, args
	return r.checkInvocation(where, bin, args, slices.Sorted(mapKeys(cs.cfg.Environment)))
}

// composeOrder checks restart policies and that every depends_on condition
// can be met: service_healthy needs a healthcheck, and
// service_completed_successfully a one-shot (a service that is not
// restarted after it exits 0).
func composeOrder(p *types.Project) []error {
	var errs []error
	oneShot := map[string]bool{}
	for _, name := range sortedNames(p) {
		for dep, d := range p.Services[name].DependsOn {
			target, ok := p.Services[dep]
			if !ok {
				continue // the loader already refuses this
			}
			switch d.Condition {
			case types.ServiceConditionHealthy:
				if target.HealthCheck == nil || target.HealthCheck.Disable || len(target.HealthCheck.Test) == 0 {
					errs = append(errs, fmt.Errorf("compose: service %s waits for %s to be healthy, but %s has no healthcheck", name, dep, dep))
				}
			case types.ServiceConditionCompletedSuccessfully:
				oneShot[dep] = true
				if rs := target.Restart; rs == "always" || rs == "unless-stopped" {
					errs = append(errs, fmt.Errorf("compose: service %s waits for %s to complete, but %s has restart: %s and is started again when it exits", name, dep, dep, rs))
				}
			}
		}
	}
	for _, name := range sortedNames(p) {
		s := p.Services[name]
		if oneShot[name] || slices.Contains(s.Profiles, "cli") {
			continue
		}
		if s.Restart == "" || s.Restart == "no" {
			errs = append(errs, fmt.Errorf("compose: service %s has no restart policy (want unless-stopped): a crash or a host reboot leaves it down", name))
		}
	}
	return errs
}

// composeVersions checks that the Temporal images are of the server
// version Quarry is built and tested against, the UI image of the UI
// version it embeds, and the S3 server of the version the tests run.
func composeVersions(p *types.Project, r Repo) []error {
	var errs []error
	want := map[string]string{
		"temporalio/server":      strings.TrimPrefix(r.Modules["go.temporal.io/server"], "v"),
		"temporalio/admin-tools": strings.TrimPrefix(r.Modules["go.temporal.io/server"], "v"),
		"temporalio/ui":          strings.TrimPrefix(r.Modules["github.com/temporalio/ui-server/v2"], "v"),
	}
	versitygw := regexp.MustCompile(`versitygw/cmd/versitygw@(\S+)`)
	for _, name := range sortedNames(p) {
		s := p.Services[name]
		repo, tag, _ := strings.Cut(s.Image, ":")
		if v, ok := want[repo]; ok && tag != v {
			errs = append(errs, fmt.Errorf("compose: service %s: image %s; want tag %s (the version in go.mod)", name, s.Image, v))
		}
		if s.Build != nil {
			for _, m := range versitygw.FindAllStringSubmatch(s.Build.DockerfileInline, -1) {
				if m[1] != r.Versitygw {
					errs = append(errs, fmt.Errorf("compose: service %s builds versitygw %s; the tests run %s (scripts/deps/versitygw.sh)", name, m[1], r.Versitygw))
				}
			}
		}
		if repo == "temporalio/server" {
			errs = append(errs, temporalServerEnv(name, s, r)...)
		}
	}
	return errs
}

// temporalServerEnv checks the server's environment against its config
// template: every variable is one the template reads, the shard count is
// explicit, and the dynamic config file it names is mounted.
func temporalServerEnv(name string, s types.ServiceConfig, r Repo) []error {
	var errs []error
	for _, k := range slices.Sorted(mapKeys(s.Environment)) {
		if len(r.TemporalEnv) > 0 && !r.TemporalEnv[k] {
			errs = append(errs, fmt.Errorf("compose: service %s: the Temporal server's config template reads no %s", name, k))
		}
	}
	if s.Environment["NUM_HISTORY_SHARDS"] == nil {
		errs = append(errs, fmt.Errorf("compose: service %s: set NUM_HISTORY_SHARDS: the shard count is fixed when the cluster is created (default 4)", name))
	}
	if dc := s.Environment["DYNAMIC_CONFIG_FILE_PATH"]; dc != nil {
		mounted := slices.ContainsFunc(s.Configs, func(c types.ServiceConfigObjConfig) bool { return c.Target == *dc }) ||
			slices.ContainsFunc(s.Volumes, func(v types.ServiceVolumeConfig) bool { return v.Target == *dc || strings.HasPrefix(*dc, v.Target+"/") })
		if !mounted {
			errs = append(errs, fmt.Errorf("compose: service %s: DYNAMIC_CONFIG_FILE_PATH %s is neither a config target nor inside a volume", name, *dc))
		}
	}
	return errs
}

// sandboxRange is the uid range a worker's sandbox uses.
type sandboxRange struct {
	where       string
	base, slots int
}

// composeSandbox checks that each worker can run bwrap (root, CAP_SYS_ADMIN,
// no AppArmor profile or /proc masking in the way) and that workers, which
// share one kernel, have disjoint slot uid ranges.
func composeSandbox(workers []composeService) []error {
	var errs []error
	var ranges []sandboxRange
	for _, w := range workers {
		where := "compose: service " + w.name
		c := w.cfg
		if !c.Privileged {
			if u := c.User; u != "" && u != "root" && u != "0" && !strings.HasPrefix(u, "0:") {
				errs = append(errs, fmt.Errorf("%s: user %s: the sandbox must run as root to switch each run to its slot uid", where, u))
			}
			if !slices.ContainsFunc(c.CapAdd, func(s string) bool { return strings.TrimPrefix(s, "CAP_") == "SYS_ADMIN" || s == "ALL" }) {
				errs = append(errs, fmt.Errorf("%s: cap_add lacks SYS_ADMIN: bwrap cannot make namespaces under the default seccomp profile", where))
			}
			for _, opt := range []string{"apparmor=unconfined", "systempaths=unconfined"} {
				if !slices.ContainsFunc(c.SecurityOpt, func(s string) bool { return strings.Replace(s, ":", "=", 1) == opt }) {
					errs = append(errs, fmt.Errorf("%s: security_opt lacks %s, without which bwrap cannot mount the sandbox's root and /proc", where, opt))
				}
			}
		}
		if c.Deploy != nil && c.Deploy.Replicas != nil && *c.Deploy.Replicas > 1 {
			errs = append(errs, fmt.Errorf("%s: %d replicas would share one sandbox uid range on one kernel; declare one service per worker, each with its own --sandbox-uid-base", where, *c.Deploy.Replicas))
		}
		rg, err := workerRange(where, w.args)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ranges = append(ranges, rg)
	}
	return append(errs, overlaps(ranges)...)
}

// workerRange reads a worker's explicit sandbox uid range.
func workerRange(where string, args []string) (sandboxRange, error) {
	rg := sandboxRange{where: where}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"sandbox-uid-base", &rg.base}, {"sandbox-slots", &rg.slots}} {
		v, ok := flagValue(args, f.name)
		if !ok {
			return rg, fmt.Errorf("%s: pass --%s: workers sharing a kernel need explicit, disjoint sandbox uid ranges (the slot count defaults to the CPU count)", where, f.name)
		}
		if _, err := fmt.Sscanf(v, "%d", f.dst); err != nil || *f.dst <= 0 {
			return rg, fmt.Errorf("%s: --%s %q: want a positive integer", where, f.name, v)
		}
	}
	return rg, nil
}

func overlaps(ranges []sandboxRange) []error {
	var errs []error
	for i, a := range ranges {
		for _, b := range ranges[i+1:] {
			if a.base < b.base+b.slots && b.base < a.base+a.slots {
				errs = append(errs, fmt.Errorf("%s and %s: sandbox uid ranges %d…%d and %d…%d overlap", a.where, b.where,
					a.base, a.base+a.slots-1, b.base, b.base+b.slots-1))
			}
		}
	}
	return errs
}

// composeReadiness checks that Quarry's services wait for what they need:
// a healthy Temporal server, the Temporal namespace they use created, and
// the buckets the specs submitted here write to created; and that those
// specs validate.
func composeReadiness(p *types.Project, all []composeService) []error {
	var errs []error
	servers, namespaces, buckets := providers(all)
	for _, cs := range all {
		if cs.bin == "" {
			continue
		}
		where := "compose: service " + cs.name
		for _, srv := range servers {
			if !dependsOn(p, cs.name, srv, types.ServiceConditionHealthy) {
				errs = append(errs, fmt.Errorf("%s: does not wait for %s (the Temporal server) to be healthy", where, srv))
			}
		}
		ns := "default"
		if v := cs.cfg.Environment["TEMPORAL_NAMESPACE"]; v != nil {
			ns = *v
		}
		if v, ok := flagValue(cs.args, "namespace"); ok {
			ns = v
		}
		creator, ok := namespaces[ns]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: uses Temporal namespace %q, which no service creates", where, ns))
		} else if !dependsOn(p, cs.name, creator, types.ServiceConditionCompletedSuccessfully) {
			errs = append(errs, fmt.Errorf("%s: does not wait for %s (which creates namespace %q) to complete", where, creator, ns))
		}
		if len(buckets) == 0 {
			errs = append(errs, fmt.Errorf("%s: no service creates an S3 bucket", where))
		}
		for b, creator := range buckets {
			if !dependsOn(p, cs.name, creator, types.ServiceConditionCompletedSuccessfully) {
				errs = append(errs, fmt.Errorf("%s: does not wait for %s (which creates bucket %s) to complete", where, creator, b))
			}
		}
		if cs.bin == "submit" {
			errs = append(errs, composeSpecs(where, cs.cfg, buckets, all)...)
		}
	}
	return errs
}

// providers finds the services Quarry's services need: the Temporal
// servers, and the one-shots creating namespaces and buckets (each by the
// name it creates).
func providers(all []composeService) (servers []string, namespaces, buckets map[string]string) {
	namespaces, buckets = map[string]string{}, map[string]string{}
	bucketRe := regexp.MustCompile(`create-bucket\s+--bucket\s+(\S+)|mb\s+s3://([^/\s]+)`)
	nsRe := regexp.MustCompile(`namespace create[^\n]*--namespace\s+(\S+)`)
	for _, cs := range all {
		if strings.HasPrefix(cs.cfg.Image, "temporalio/server:") {
			servers = append(servers, cs.name)
		}
		text := strings.Join(append(append([]string{}, cs.cfg.Entrypoint...), cs.cfg.Command...), " ")
		for _, m := range bucketRe.FindAllStringSubmatch(text, -1) {
			buckets[m[1]+m[2]] = cs.name
		}
		for _, m := range nsRe.FindAllStringSubmatch(text, -1) {
			namespaces[m[1]] = cs.name
		}
	}
	return servers, namespaces, buckets
}

// dependsOn reports whether service from waits, directly or through the
// services it waits for, for to reach condition.
func dependsOn(p *types.Project, from, to, condition string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(s string) bool {
		if seen[s] {
			return false
		}
		seen[s] = true
		for dep, d := range p.Services[s].DependsOn {
			if (dep == to && d.Condition == condition) || walk(dep) {
				return true
			}
		}
		return false
	}
	return walk(from)
}

// composeSpecs validates the specs in the folders mounted into the submit
// service: each parses, writes to a bucket the stack creates, and names
// only API key variables the workers have.
func composeSpecs(where string, s types.ServiceConfig, buckets map[string]string, all []composeService) []error {
	var errs []error
	n := 0
	for _, v := range s.Volumes {
		if v.Type != types.VolumeTypeBind {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(v.Source, "*.yaml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", where, err))
				continue
			}
			n++
			errs = append(errs, checkSpec(where+": spec "+filepath.Base(f), data, buckets, workerEnv(all))...)
		}
	}
	if n == 0 {
		errs = append(errs, fmt.Errorf("%s: mounts no folder of specs (*.yaml) to submit", where))
	}
	return errs
}

func workerEnv(all []composeService) map[string]bool {
	env := map[string]bool{}
	for _, cs := range all {
		if cs.bin == "worker" {
			for k := range cs.cfg.Environment {
				env[k] = true
			}
		}
	}
	return env
}

func sortedNames(p *types.Project) []string {
	return slices.Sorted(mapKeys(p.Services))
}

func joinErrs(errs []error) error { return errors.Join(errs...) }
