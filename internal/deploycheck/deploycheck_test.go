package deploycheck

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository this package lives in.
const repoRoot = "../.."

// repo holds the repository's facts, read once in TestMain: the binaries
// are built and asked for -h there, as a user would.
var repo Repo

func TestMain(m *testing.M) {
	var err error
	if repo, err = readFacts(); err != nil {
		fmt.Fprintln(os.Stderr, "deploycheck:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func readFacts() (Repo, error) {
	r, err := ReadRepo(repoRoot)
	if err != nil {
		return r, err
	}
	bin, err := os.MkdirTemp("", "deploycheck-bin-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(bin)
	entries, err := os.ReadDir(filepath.Join(repoRoot, "cmd"))
	if err != nil {
		return r, err
	}
	args := []string{"build", "-buildvcs=false", "-o", bin + "/"}
	for _, e := range entries {
		args = append(args, "./cmd/"+e.Name())
	}
	build := exec.Command("go", args...)
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		return r, fmt.Errorf("go build: %v\n%s", err, out)
	}
	for _, e := range entries {
		out, err := exec.Command(filepath.Join(bin, e.Name()), "-h").CombinedOutput()
		if err != nil {
			return r, fmt.Errorf("%s -h: %v\n%s", e.Name(), err, out)
		}
		r.Binaries[e.Name()] = ParseHelp(string(out))
	}
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.temporal.io/server").Output()
	if err != nil {
		return r, fmt.Errorf("go list the Temporal server module: %w", err)
	}
	tmpl, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "common", "config", "config_template_embedded.yaml"))
	if err != nil {
		return r, fmt.Errorf("read the Temporal server's config template: %w", err)
	}
	r.TemporalEnv = TemplateEnv(string(tmpl))
	return r, nil
}

// checkAll runs every check on a deploy/ folder.
func checkAll(t *testing.T, deploy string) error {
	t.Helper()
	df, err := os.ReadFile(filepath.Join(deploy, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := CheckDockerfile(string(df), repo)
	errs := []error{err}
	project, err := LoadCompose(context.Background(), filepath.Join(deploy, "docker-compose.yaml"))
	if err != nil {
		errs = append(errs, err)
	} else {
		errs = append(errs, CheckCompose(project, img, repo))
	}
	objs, err := LoadKube(filepath.Join(deploy, "k8s"))
	if err != nil {
		errs = append(errs, err)
	} else {
		errs = append(errs, CheckKube(objs, img, repo))
	}
	return errors.Join(errs...)
}

func TestTheFactsAreRead(t *testing.T) {
	for _, f := range []string{"address", "namespace", "max-activities", "sandbox-uid-base", "sandbox-slots"} {
		if !repo.Binaries["worker"].Flags[f] {
			t.Errorf("worker -h lists no --%s: %v", f, repo.Binaries["worker"].Flags)
		}
	}
	if !repo.Binaries["submit"].Env["TEMPORAL_ADDRESS"] || !repo.Binaries["submit"].Flags["wait"] {
		t.Errorf("submit -h: want $TEMPORAL_ADDRESS and --wait, got %+v", repo.Binaries["submit"])
	}
	if !repo.TemporalEnv["NUM_HISTORY_SHARDS"] || !repo.TemporalEnv["POSTGRES_SEEDS"] {
		t.Errorf("the server's config template: want NUM_HISTORY_SHARDS and POSTGRES_SEEDS among %d variables", len(repo.TemporalEnv))
	}
	if repo.GoVersion == "" || repo.Versitygw == "" || repo.Modules["go.temporal.io/server"] == "" {
		t.Errorf("go.mod and versitygw.sh facts missing: %+v", repo)
	}
}

// The recipes as shipped pass every check.
func TestDeployRecipesAreValid(t *testing.T) {
	if err := checkAll(t, filepath.Join(repoRoot, "deploy")); err != nil {
		t.Fatalf("deploy/ has problems:\n%v", err)
	}
}

// Each broken copy of a recipe is caught with an error that says what is
// wrong. Every mutation must apply to the shipped file, so a recipe that
// changes under a check breaks this test rather than silently passing it.
func TestBrokenRecipesAreCaught(t *testing.T) {
	for _, tc := range brokenRecipes {
		t.Run(tc.name, func(t *testing.T) {
			deploy := copyDeploy(t)
			path := filepath.Join(deploy, tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tc.old) {
				t.Fatalf("%s no longer contains %q: update the mutation", tc.file, tc.old)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(data), tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.rename != "" {
				if err := os.Rename(path, filepath.Join(filepath.Dir(path), tc.rename)); err != nil {
					t.Fatal(err)
				}
			}
			err = checkAll(t, deploy)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error containing %q, got:\n%v", tc.want, err)
			}
		})
	}
}

type brokenRecipe struct {
	name, file, old, new string
	rename               string // then rename the file to this
	want                 string
}

var brokenRecipes = []brokenRecipe{
	// Dockerfile
	{name: "image runs as nobody", file: "Dockerfile", old: "WORKDIR /var/lib/quarry", new: "USER 65534:65534\nWORKDIR /var/lib/quarry", want: "USER 65534:65534: the sandbox must run as root"},
	{name: "no bubblewrap", file: "Dockerfile", old: "bubblewrap ca-certificates", new: "ca-certificates", want: "does not install bubblewrap"},
	{name: "no tini", file: "Dockerfile", old: " tini util-linux", new: " util-linux", want: "does not install tini"},
	{name: "builder Go differs from go.mod", file: "Dockerfile", old: "FROM golang:1.26.8-bookworm AS build", new: "FROM golang:1.25.0-bookworm AS build", want: "go.mod's go directive"},
	{name: "entrypoint not in the image", file: "Dockerfile", old: `"/usr/local/bin/worker"]`, new: `"/usr/local/bin/workr"]`, want: "runs /usr/local/bin/workr, which the image does not hold"},
	{name: "builds a command that does not exist", file: "Dockerfile", old: "./cmd/submit ./cmd/quarry", new: "./cmd/submitter ./cmd/quarry", want: "builds ./cmd/submitter, which is not a command"},
	{name: "copies what is not built", file: "Dockerfile", old: "./cmd/submit ./cmd/quarry", new: "./cmd/quarry", want: "copies /out/submit, which the build stage does not build"},
	{name: "shell-form entrypoint", file: "Dockerfile", old: `ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/worker"]`, new: "ENTRYPOINT /usr/local/bin/worker", want: "want the exec form"},

	// docker-compose.yaml
	{name: "compose schema violation", file: "docker-compose.yaml", old: "stop_grace_period: 60s", new: "stop_grace_periods: 60s", want: "stop_grace_periods"},
	{name: "worker without SYS_ADMIN", file: "docker-compose.yaml", old: "cap_add: [SYS_ADMIN]", new: "cap_add: [NET_ADMIN]", want: "cap_add lacks SYS_ADMIN"},
	{name: "worker with masked /proc", file: "docker-compose.yaml", old: `, "systempaths=unconfined"]`, new: "]", want: "security_opt lacks systempaths=unconfined"},
	{name: "worker as nobody", file: "docker-compose.yaml", old: `user: "0:0"`, new: `user: "65534:65534"`, want: "user 65534:65534: the sandbox must run as root"},
	{name: "overlapping uid ranges", file: "docker-compose.yaml", old: `"--sandbox-uid-base", "61100"`, new: `"--sandbox-uid-base", "61004"`, want: "overlap"},
	{name: "implicit slot count", file: "docker-compose.yaml", old: `, "--sandbox-slots", "8"]`, new: "]", want: "pass --sandbox-slots"},
	{name: "replicas share a uid range", file: "docker-compose.yaml", old: "  stop_grace_period: 60s", new: "  stop_grace_period: 60s\n  deploy: {replicas: 2}", want: "2 replicas would share one sandbox uid range"},
	{name: "misspelt worker flag", file: "docker-compose.yaml", old: `"--max-activities"`, new: `"--max-activity"`, want: "worker has no flag --max-activity"},
	{name: "misspelt environment variable", file: "docker-compose.yaml", old: "    TEMPORAL_NAMESPACE: default\n    # The policy", new: "    TEMPORAL_NAMESPCE: default\n    # The policy", want: "TEMPORAL_NAMESPCE is read by neither worker"},
	{name: "submit runs a binary the image lacks", file: "docker-compose.yaml", old: `entrypoint: ["/usr/local/bin/submit"]`, new: `entrypoint: ["/usr/local/bin/sumbit"]`, want: "runs /usr/local/bin/sumbit"},
	{name: "server image of another version", file: "docker-compose.yaml", old: "temporalio/server:1.32.0", new: "temporalio/server:1.29.0", want: "image temporalio/server:1.29.0; want tag 1.32.0"},
	{name: "ui image of another version", file: "docker-compose.yaml", old: "temporalio/ui:2.54.1", new: "temporalio/ui:2.34.0", want: "image temporalio/ui:2.34.0; want tag 2.54.1"},
	{name: "versitygw of another version", file: "docker-compose.yaml", old: "versitygw@v1.8.0", new: "versitygw@v1.7.0", want: "builds versitygw v1.7.0; the tests run v1.8.0"},
	{name: "server env the template does not read", file: "docker-compose.yaml", old: "  POSTGRES_SEEDS: postgres", new: "  POSTGRES_SEED: postgres", want: "config template reads no POSTGRES_SEED"},
	{name: "implicit shard count", file: "docker-compose.yaml", old: `      NUM_HISTORY_SHARDS: "64"` + "\n", new: "", want: "set NUM_HISTORY_SHARDS"},
	{name: "dynamic config not mounted", file: "docker-compose.yaml", old: "target: /etc/temporal/config/dynamicconfig/quarry.yaml", new: "target: /etc/temporal/config/dynamicconfig/other.yaml", want: "DYNAMIC_CONFIG_FILE_PATH /etc/temporal/config/dynamicconfig/quarry.yaml is neither"},
	{name: "waiting on health without a healthcheck", file: "docker-compose.yaml", old: `      test: ["CMD", "nc", "-z", "127.0.0.1", "7233"]`, new: "      disable: true", want: "waits for temporal to be healthy, but temporal has no healthcheck"},
	{name: "workers do not wait for the namespace", file: "docker-compose.yaml", old: "    temporal-namespace: {condition: service_completed_successfully}\n    s3-bucket: {condition: service_completed_successfully}\n  # The sandbox", new: "    s3-bucket: {condition: service_completed_successfully}\n  # The sandbox", want: "service worker-1: does not wait for temporal-namespace"},
	{name: "nothing waits for a healthy Temporal", file: "docker-compose.yaml", old: "      temporal: {condition: service_healthy}", new: "      temporal: {condition: service_started}", want: "service worker-1: does not wait for temporal (the Temporal server) to be healthy"},
	{name: "workers use a namespace nobody creates", file: "docker-compose.yaml", old: "    TEMPORAL_NAMESPACE: default\n    # The policy", new: "    TEMPORAL_NAMESPACE: rl\n    # The policy", want: `uses Temporal namespace "rl", which no service creates`},
	{name: "one-shot restarted forever", file: "docker-compose.yaml", old: "image: amazon/aws-cli:2.27.0\n    restart: on-failure:5", new: "image: amazon/aws-cli:2.27.0\n    restart: unless-stopped", want: "s3-bucket has restart: unless-stopped"},
	{name: "no restart policy", file: "docker-compose.yaml", old: "image: postgres:16-bookworm\n    restart: unless-stopped", new: "image: postgres:16-bookworm", want: "service postgres has no restart policy"},
	{name: "S3 endpoint on another port", file: "docker-compose.yaml", old: "AWS_ENDPOINT_URL: http://s3:7070", new: "AWS_ENDPOINT_URL: http://s3:9000", want: "AWS_ENDPOINT_URL http://s3:9000, but service s3 listens on :7070"},
	{name: "S3 access key mismatch", file: "docker-compose.yaml", old: "ROOT_ACCESS_KEY: ${QUARRY_S3_ACCESS_KEY:-quarry}", new: "ROOT_ACCESS_KEY: ${QUARRY_S3_ACCESS_KEY:-admin}", want: `AWS_ACCESS_KEY_ID "quarry" is not the access key of service s3 ("admin")`},
	{name: "spec writes to a bucket nobody creates", file: "specs/quickstart-s3.yaml", old: "output: s3://quarry/quickstart", new: "output: s3://other/quickstart", want: `bucket "other" is not one the recipe creates`},
	{name: "spec invalid", file: "specs/quickstart-s3.yaml", old: "samples_per_task: 8", new: "samples_per_task: -8", want: "samples_per_task: -8: want at least 1"},
	{name: "spec names an unknown env", file: "specs/quickstart-s3.yaml", old: "game:Mastermind-v0-easy", new: "game:Mastermind-v9", want: "Mastermind-v9"},
	{name: "spec names a key the workers lack", file: "specs/quickstart-s3.yaml", old: "policy:\n  kind: oracle", new: "policy:\n  kind: openai\n  openai: {endpoints: [\"http://vllm:8000/v1\"], model: m, api_key_env: VLLM_KEY}", want: "api_key_env names VLLM_KEY, which the workers do not have"},

	// k8s
	{name: "unknown field", file: "k8s/30-worker.yaml", old: "procMount: Unmasked", new: "procMounts: Unmasked", want: `unknown field "procMounts"`},
	{name: "unknown kind", file: "k8s/10-config.yaml", old: "kind: ConfigMap", new: "kind: ConfigMapp", want: `kind "ConfigMapp" is not a kind`},
	{name: "readiness path", file: "k8s/30-worker.yaml", old: "path: /readyz", new: "path: /ready", want: `readinessProbe path "/ready"; the worker serves /readyz`},
	{name: "liveness port", file: "k8s/30-worker.yaml", old: "httpGet: {path: /healthz, port: metrics}", new: "httpGet: {path: /healthz, port: 8080}", want: "livenessProbe port 8080 is not the metrics port 9090"},
	{name: "metrics port not declared", file: "k8s/30-worker.yaml", old: "{name: metrics, containerPort: 9090}", new: "{name: metrics, containerPort: 9091}", want: "the metrics port 9090 (--metrics-address) is not a containerPort"},
	{name: "scrape annotation port", file: "k8s/30-worker.yaml", old: `prometheus.io/port: "9090"`, new: `prometheus.io/port: "9091"`, want: `prometheus.io/port "9091" is not the metrics port 9090`},
	{name: "misspelt metrics flag", file: "k8s/30-worker.yaml", old: `"--metrics-address"`, new: `"--metrics-adress"`, want: "worker has no flag --metrics-adress"},
	{name: "pods share host uids", file: "k8s/30-worker.yaml", old: "      hostUsers: false\n", new: "", want: "set hostUsers: false"},
	{name: "pod without SYS_ADMIN", file: "k8s/30-worker.yaml", old: "capabilities: {add: [SYS_ADMIN]}", new: "capabilities: {add: [NET_ADMIN]}", want: "capabilities.add lacks SYS_ADMIN"},
	{name: "pod with masked /proc", file: "k8s/30-worker.yaml", old: "procMount: Unmasked", new: "procMount: Default", want: "set procMount: Unmasked"},
	{name: "pod confined by AppArmor", file: "k8s/30-worker.yaml", old: "appArmorProfile: {type: Unconfined}", new: "appArmorProfile: {type: RuntimeDefault}", want: "set appArmorProfile type Unconfined"},
	{name: "pod as non-root", file: "k8s/30-worker.yaml", old: "runAsUser: 0", new: "runAsUser: 1000", want: "the sandbox must run as root"},
	{name: "uids outside the pod's range", file: "k8s/30-worker.yaml", old: `"--sandbox-uid-base", "61000"`, new: `"--sandbox-uid-base", "65530"`, want: "fall outside the pod's 65536 mapped ids"},
	{name: "selector does not match", file: "k8s/30-worker.yaml", old: "    matchLabels: {app: quarry-worker}", new: "    matchLabels: {app: quarry-workers}", want: "does not match the pod template's labels"},
	{name: "secret key missing", file: "k8s/30-worker.yaml", old: "key: openai-api-key}", new: "key: openai-key}", want: `key "openai-key" of Secret quarry-secrets`},
	{name: "config map missing", file: "k8s/30-worker.yaml", old: "configMapRef: {name: quarry-connection}", new: "configMapRef: {name: quarry-conection}", want: "ConfigMap quarry/quarry-conection, which the recipe does not define"},
	{name: "worker on a namespace nobody creates", file: "k8s/30-worker.yaml", old: `args: ["--max-activities"`, new: `args: ["--namespace", "other", "--max-activities"`, want: `uses Temporal namespace "other"`},
	{name: "object in another namespace", file: "k8s/20-temporal-namespace.yaml", old: "namespace: quarry", new: "namespace: quary", want: `namespace "quary", which the recipe does not create`},
	{name: "namespace applied last", file: "k8s/00-namespace.yaml", old: "name: quarry", new: "name: quarry", rename: "99-namespace.yaml", want: "comes before its Namespace"},
	{name: "admin-tools of another version", file: "k8s/20-temporal-namespace.yaml", old: "temporalio/admin-tools:1.32.0", new: "temporalio/admin-tools:1.30.1", want: "image temporalio/admin-tools:1.30.1; want tag 1.32.0"},
	{name: "submitted spec not on S3", file: "k8s/40-submit.yaml", old: "output: s3://quarry/quickstart-k8s", new: "output: ./out", want: `output "./out" is not on S3`},
	{name: "submitted spec missing", file: "k8s/40-submit.yaml", old: `"/specs/job.yaml"`, new: `"/specs/jobs.yaml"`, want: `ConfigMap quarry-spec has no key "jobs.yaml"`},
	{name: "submit flag misspelt", file: "k8s/40-submit.yaml", old: `args: ["--wait"`, new: `args: ["--wiat"`, want: "submit has no flag --wiat"},
}

// copyDeploy copies deploy/ into a temporary folder, so a test can break
// the copy.
func copyDeploy(t *testing.T) string {
	t.Helper()
	src := filepath.Join(repoRoot, "deploy")
	dst := filepath.Join(t.TempDir(), "deploy")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
