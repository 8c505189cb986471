package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/metrics"
	"github.com/quarry-rl/quarry/internal/readhint"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/toolset"
	"github.com/quarry-rl/quarry/workflows"
)

const memoSpecHash = "spec_hash"

// loadSpec reads, defaults and validates a spec, resolving its envs against
// this binary's registry, so a bad spec never reaches the cluster.
func loadSpec(path string) (schema.JobSpec, error) {
	data, err := readSpecFile(path)
	if err != nil {
		return schema.JobSpec{}, err
	}
	spec, err := schema.ParseJobSpec(data)
	if err != nil {
		return schema.JobSpec{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := inlineTemplate(&spec, filepath.Dir(path)); err != nil {
		return schema.JobSpec{}, fmt.Errorf("%s: %w", path, err)
	}
	spec = spec.WithDefaults()
	if !strings.Contains(spec.Output, "://") {
		// Workers may run elsewhere: a folder is made absolute here.
		abs, err := filepath.Abs(spec.Output)
		if err != nil {
			return schema.JobSpec{}, err
		}
		spec.Output = "file://" + abs
	}
	if err := spec.Validate(); err != nil {
		return schema.JobSpec{}, fmt.Errorf("%s: %w", path, err)
	}
	reg, err := catalog.New()
	if err != nil {
		return schema.JobSpec{}, err
	}
	if _, err := activities.ResolveEnvs(reg, spec); err != nil {
		return schema.JobSpec{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := activities.CheckTools(spec); err != nil {
		return schema.JobSpec{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := activities.CheckPrompt(spec); err != nil {
		return schema.JobSpec{}, fmt.Errorf("%s: %w", path, err)
	}
	return spec, nil
}

// inlineTemplate reads policy.openai.template_file (relative to dir) into
// template_text, so workers need no file and the spec's hash covers it.
func inlineTemplate(spec *schema.JobSpec, dir string) error {
	o := spec.Policy.OpenAI
	if o == nil || o.TemplateFile == "" {
		return nil
	}
	p := o.TemplateFile
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("policy.openai.template_file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, schema.MaxPromptText+1))
	if err != nil {
		return fmt.Errorf("policy.openai.template_file: %w", err)
	}
	if len(data) > schema.MaxPromptText {
		return fmt.Errorf("policy.openai.template_file: %s is over %d bytes", o.TemplateFile, schema.MaxPromptText)
	}
	c := *o
	c.TemplateText, c.TemplateFile = string(data), ""
	spec.Policy.OpenAI = &c
	return nil
}

// readSpecFile reads at most one byte past the document limit, so a huge
// file (or /dev/zero) is refused by ParseJobSpec without being read whole.
func readSpecFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, schema.MaxSpecDocumentBytes+1))
}

func runSubmit(ctx context.Context, g *globals, path string, wait, dryRun bool) error {
	if g.metricsAddr != "" && !g.local {
		return errors.New("--metrics-address serves the metrics of --local's in-process worker; without --local, run each worker with its own --metrics-address")
	}
	spec, err := loadSpec(path)
	if err != nil {
		return err
	}
	store, err := openOutput(ctx, g, spec, dryRun)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.out, "job %s: %d episodes (%d tasks × %d samples) in %d batches, policy %s, output %s\n",
		spec.Job, spec.Episodes(), spec.Tasks, spec.SamplesPerTask, spec.Batches(), spec.Policy.Kind, spec.Output)
	if spec, err = preflightEndpoints(ctx, g, spec); err != nil {
		return err
	}
	if err := preflightTools(ctx, g, spec, dryRun); err != nil {
		return err
	}
	if dryRun {
		fmt.Fprintln(g.out, "spec is valid (dry run: nothing submitted)")
		return nil
	}
	if _, err := store.Stat(ctx, schema.SuccessKey(spec.Job)); err == nil {
		fmt.Fprintf(g.out, "job %s is already complete (%s/%s exists)\n", spec.Job, spec.Output, schema.SuccessKey(spec.Job))
		printHowToRead(g, spec)
		return nil
	}
	sess, err := connect(ctx, g)
	if err != nil {
		return err
	}
	defer sess.close()
	run, attached, err := startOrAttach(ctx, sess.client, g.queue, spec)
	if err != nil {
		return err
	}
	if attached {
		fmt.Fprintf(g.out, "attached to running job %s\n", spec.Job)
	} else {
		fmt.Fprintf(g.out, "submitted job %s\n", spec.Job)
	}
	fmt.Fprintf(g.out, "sizing: %s\n", spec.SizingNote(spec.InFlight, workersNow(ctx, g, sess.client)))
	if sess.uiURL != "" {
		fmt.Fprintf(g.out, "Temporal Web UI: %s/namespaces/default/workflows/%s\n", sess.uiURL, spec.Job)
	}
	if !wait {
		fmt.Fprintf(g.out, "watch it with: submit status %s (or submit --wait %s)\n", spec.Job, path)
		return nil
	}
	return watch(ctx, g, sess.client, spec, run)
}

// workersNow is how many workers poll the job's queue now: 1 with --local
// (the worker in this process), 0 when unknown.
func workersNow(ctx context.Context, g *globals, c client.Client) int {
	if g.local {
		return 1
	}
	p, err := tclient.QueuePollers(ctx, c, g.queue)
	if err != nil {
		return 0
	}
	return p.Workers()
}

// openOutput opens the job's output and checks it. A real submission runs
// the store's Preflight (write, read back, delete a probe; sweep stale
// debris). A dry run changes nothing: it opens the store without its
// cleanup and checks what it can read-only.
func openOutput(ctx context.Context, g *globals, spec schema.JobSpec, dryRun bool) (blob.Store, error) {
	if !dryRun {
		store, err := blob.Open(ctx, spec.Output)
		if err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		if err := store.Preflight(ctx); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		return store, nil
	}
	store, err := blob.Open(ctx, spec.Output, blob.WithoutAutoCleanup())
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	note, err := checkOutputReadOnly(ctx, store, spec.Output, schema.SuccessKey(spec.Job))
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	fmt.Fprintf(g.out, "output check (dry run, nothing written): %s\n", note)
	return store, nil
}

// checkOutputReadOnly checks an output location without writing: a folder
// (or its nearest existing ancestor, which a real run would create it
// under) must be a writable folder; a bucket must answer a read of key
// (the job's _SUCCESS, usually absent), and whether it accepts writes is
// not checked.
func checkOutputReadOnly(ctx context.Context, store blob.Store, output, key string) (string, error) {
	dir, isFile := strings.CutPrefix(output, "file://")
	if !isFile {
		if _, err := store.Stat(ctx, key); err != nil && !errors.Is(err, blob.ErrNotExist) {
			return "", fmt.Errorf("%s: cannot read the bucket: %w", output, err)
		}
		return output + " answers a read; write access is not checked on a dry run", nil
	}
	existing := dir
	for {
		fi, err := os.Stat(existing)
		if err == nil {
			if !fi.IsDir() {
				return "", fmt.Errorf("cannot create folder %q: %q is a file, not a folder (choose another output path or move the file)", dir, existing)
			}
			break
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", fmt.Errorf("folder %q: %w", dir, err)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		existing = parent
	}
	const wOK, xOK = 0x2, 0x1 // access(2): may create entries in the folder
	if err := syscall.Access(existing, wOK|xOK); err != nil {
		return "", fmt.Errorf("folder %q is not writable by this user (fix its permissions or choose another output path): %w", existing, err)
	}
	if existing != dir {
		return fmt.Sprintf("%s does not exist yet; a real run creates it under %s, which is writable", dir, existing), nil
	}
	return dir + " is a writable folder", nil
}

// startOrAttach starts the job's workflow or attaches to the run already
// going under its id. A different spec under the same id is refused.
func startOrAttach(ctx context.Context, c client.Client, queue string, spec schema.JobSpec) (client.WorkflowRun, bool, error) {
	hash := spec.Hash()
	desc, err := c.DescribeWorkflowExecution(ctx, spec.Job, "")
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
	case err != nil:
		return nil, false, fmt.Errorf("look up job %s: %w", spec.Job, err)
	default:
		info := desc.GetWorkflowExecutionInfo()
		if got := memoHash(info.GetMemo().GetFields()[memoSpecHash]); got != hash {
			return nil, false, fmt.Errorf("job %s exists with a different spec (hash %.12s, this spec %.12s): give this spec another job id, or cancel the other job", spec.Job, got, hash)
		}
		if info.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return c.GetWorkflow(ctx, spec.Job, ""), true, nil
		}
		// Failed, cancelled, terminated or timed out: a new run resumes it,
		// skipping the batches already committed.
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       spec.Job,
		TaskQueue:                queue,
		Memo:                     map[string]any{memoSpecHash: hash},
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, workflows.JobWorkflowName, workflows.JobInput{Spec: spec})
	if err != nil {
		return nil, false, fmt.Errorf("start job %s: %w", spec.Job, err)
	}
	return run, false, nil
}

func memoHash(p *commonpb.Payload) string {
	var h string
	if p == nil || converter.GetDefaultDataConverter().FromPayload(p, &h) != nil {
		return ""
	}
	return h
}

// session is a connection to Temporal, with the embedded server and worker
// when --local.
type session struct {
	client client.Client
	uiURL  string
	// metricsAddr is where --local's worker serves metrics ("" when off).
	metricsAddr string
	close       func()
}

func connect(ctx context.Context, g *globals) (*session, error) { return dial(ctx, g, true) }

// manage connects for a management command (status, pause, …). Locally it
// attaches to the server a running `submit --local` serves, or starts one
// without a worker, so a status call never runs the job's work.
func manage(ctx context.Context, g *globals) (*session, error) { return dial(ctx, g, false) }

func dial(ctx context.Context, g *globals, withWorker bool) (*session, error) {
	log := g.logger()
	if g.local && !withWorker {
		dir := filepath.Join(g.stateDir, "temporal")
		if address, err := localserver.Address(dir); err == nil && localserver.InUse(dir) {
			c, err := g.conn.Local(address, "default").Dial(log)
			if err != nil {
				return nil, err
			}
			return &session{client: c, close: c.Close}, nil
		}
	}
	if !g.local {
		c, err := g.conn.Dial(log)
		if err != nil {
			return nil, err
		}
		return &session{client: c, close: c.Close}, nil
	}
	srv, err := localserver.Start(localserver.Options{Dir: filepath.Join(g.stateDir, "temporal"), UI: g.ui, Logger: log})
	if err != nil {
		return nil, err
	}
	var mx *metrics.Process // the worker's metrics, when asked for
	if withWorker {
		if mx, err = metrics.Start(g.metricsAddr, log); err != nil {
			srv.Stop()
			return nil, err
		}
	}
	opts := g.conn.Local(srv.HostPort(), srv.Namespace())
	opts.MetricsHandler = mx.Handler()
	c, err := opts.Dial(log)
	if err != nil {
		srv.Stop()
		return nil, errors.Join(err, mx.Close())
	}
	if !withWorker {
		return &session{client: c, uiURL: srv.UIURL(), close: func() {
			c.Close()
			srv.Stop()
		}}, nil
	}
	return startLocalWorker(g, c, srv, mx, log)
}

// startLocalWorker runs --local's in-process worker on c, recording into mx.
func startLocalWorker(g *globals, c client.Client, srv *localserver.Server, mx *metrics.Process, log *slog.Logger) (*session, error) {
	stop := func() {
		c.Close()
		srv.Stop()
		if err := mx.Close(); err != nil {
			log.Warn("metrics: close", "err", err)
		}
	}
	// One sandbox for the process: python tool calls and code grading.
	sb := sandbox.Lazy(g.sandbox)
	reg, err := catalog.New(catalog.WithSandbox(sb))
	if err != nil {
		stop()
		return nil, err
	}
	a := &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Log: log, Tools: &toolset.Host{Provider: sb, Log: log}}
	if mx != nil {
		a.Metrics = mx
	}
	w := workflows.NewWorkers(c, g.queue, a, worker.Options{WorkerStopTimeout: 5 * time.Second}, workflows.AllRoles)
	if err := w.Start(); err != nil {
		stop()
		return nil, fmt.Errorf("local worker: %w", err)
	}
	mx.Ready(c)
	if mx != nil {
		fmt.Fprintf(g.err, "metrics: http://%s%s\n", mx.Addr(), metrics.PathMetrics)
	}
	return &session{client: c, uiURL: srv.UIURL(), metricsAddr: mx.Addr(), close: func() {
		w.Stop()
		stop()
	}}, nil
}

// watch shows a progress bar until the job ends or ctx is cancelled
// (Ctrl-C), which detaches: the job goes on, and rerunning attaches to it.
func watch(ctx context.Context, g *globals, c client.Client, spec schema.JobSpec, run client.WorkflowRun) error {
	total := int64(spec.Episodes())
	if spec.OpenEnded() {
		total = -1 // a spinner: an online job without steps runs until cancelled
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(g.err),
		progressbar.OptionSetDescription(spec.Job),
		progressbar.OptionShowCount(),
		// Rates and the ETA come from the job's own progress (below), not
		// the bar's clock, so they stay right when attaching to a job that
		// is half done.
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(30),
	)
	done := make(chan error, 1)
	var final workflows.Progress
	go func() { done <- run.Get(ctx, &final) }()
	workers := newWorkerWatch(ctx, g, c, spec)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if ctx.Err() != nil {
				return detached(g, spec)
			}
			if err != nil {
				fmt.Fprintln(g.err)
				return fmt.Errorf("job %s failed: %w", spec.Job, err)
			}
			update(bar, final)
			_ = bar.Finish()
			fmt.Fprintln(g.err)
			fmt.Fprintf(g.out, "job %s complete: %d episodes (%d failed), %d turns, mean reward %.4f, success rate %.1f%%\n",
				spec.Job, final.EpisodesDone, final.EpisodesFailed, final.Turns, final.MeanReward(), 100*ratio(final.Successes, final.EpisodesDone-final.EpisodesFailed))
			if final.PromptTokens+final.ResponseTokens > 0 {
				fmt.Fprintf(g.out, "tokens: %d prompt, %d response\n", final.PromptTokens, final.ResponseTokens)
			}
			printFaults(g.out, final)
			printHowToRead(g, spec)
			return failureVerdict(spec, final)
		case <-ctx.Done():
			return detached(g, spec)
		case <-tick.C:
			workers.check(ctx)
			qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			v, err := c.QueryWorkflow(qctx, spec.Job, "", workflows.QueryProgress)
			cancel()
			var p workflows.Progress
			if err == nil && v.Get(&p) == nil {
				update(bar, p)
			}
		}
	}
}

func update(bar *progressbar.ProgressBar, p workflows.Progress) {
	state := ""
	if p.EpisodesFailed > 0 {
		state += fmt.Sprintf("  failed %d", p.EpisodesFailed)
	}
	if f := faults(p); f != "" {
		state += " (" + f + ")"
	}
	if p.Paused {
		state += " [paused]"
	}
	if o := p.Endpoint; o != nil {
		state += fmt.Sprintf(" [endpoint unavailable since %s, %d turns waiting]", o.Since.Local().Format(time.TimeOnly), o.Waiting)
	}
	bar.Describe(fmt.Sprintf("%s  batches %d/%d  turns/s %.0f  mean reward %.3f%s%s", p.Job, p.BatchesDone, p.Batches, p.TurnsPerSecond(), p.MeanReward(), eta(p), state))
	_ = bar.Set64(p.EpisodesDone)
}

// eta estimates the time left from the job's episode rate since it started
// (committed batches only, so it moves in steps of a batch).
func eta(p workflows.Progress) string {
	elapsed := p.UpdatedAt.Sub(p.StartedAt)
	played := p.EpisodesDone - p.Resumed.Episodes // by this job's runs, not an earlier one
	if p.Done || played <= 0 || elapsed <= 0 {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(p.Episodes-p.EpisodesDone) / float64(played))
	return "  eta " + left.Round(time.Second).String()
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func detached(g *globals, spec schema.JobSpec) error {
	fmt.Fprintln(g.err)
	if g.local {
		fmt.Fprintf(g.out, "stopped; job %s is saved in %s — run the same command again to resume it\n", spec.Job, g.stateDir)
	} else {
		fmt.Fprintf(g.out, "detached; job %s keeps running — run the same command again to attach\n", spec.Job)
	}
	return nil
}

func printHowToRead(g *globals, spec schema.JobSpec) {
	for _, l := range readhint.Lines(spec.Output, spec.Job, s3Reader()) {
		fmt.Fprintln(g.out, l)
	}
}

// s3Reader is how a reader on this machine reaches an S3 output: the
// endpoint and region of the standard AWS environment, which the output was
// opened with too.
func s3Reader() readhint.S3 {
	return readhint.S3{
		Endpoint: cmp.Or(os.Getenv("AWS_ENDPOINT_URL_S3"), os.Getenv("AWS_ENDPOINT_URL")),
		Region:   cmp.Or(os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION")),
	}
}

// preflightEndpoints asks every endpoint of an openai policy for its models
// before anything is submitted: an unreachable endpoint, a wrong model name
// or a rejected key is reported now, not after the first episode fails.
// It returns the spec adjusted to what the endpoints do (Report.Adjust).
func preflightEndpoints(ctx context.Context, g *globals, spec schema.JobSpec) (schema.JobSpec, error) {
	o := spec.Policy.OpenAI
	if o == nil {
		return spec, nil
	}
	if o.APIKeyEnv != "" && os.Getenv(o.APIKeyEnv) == "" {
		fmt.Fprintf(g.out, "endpoint preflight skipped: $%s is not set here (the workers must have it)\n", o.APIKeyEnv)
		return spec, nil
	}
	var opts []inference.Option
	onReset := spec.Wrapper == string(envs.WrapConcatChatOnReset)
	if onReset {
		opts = append(opts, inference.WithCapabilityProbes())
	}
	pool, err := inference.NewPool(*o, opts...)
	if err != nil {
		return spec, fmt.Errorf("policy.openai: %w", err)
	}
	defer pool.Close()
	rep, err := pool.Preflight(ctx)
	if err != nil {
		return spec, fmt.Errorf("policy.openai: %w", err)
	}
	if onReset && !rep.Capabilities.Tokenize {
		return spec, fmt.Errorf("wrapper: concat_chat_on_reset renders with the served model's chat template, learnt through the endpoint's /tokenize, which %s does not serve", strings.Join(o.Endpoints, ", "))
	}
	adjusted, warnings := rep.Adjust(*o)
	spec.Policy.OpenAI = &adjusted
	for _, w := range warnings {
		fmt.Fprintf(g.out, "warning: %s\n", w)
	}
	ids := "returns token ids"
	if !rep.TokenIDs {
		ids = "does not return token ids (token columns will be null; vLLM ≥ 0.10.2 with return_token_ids does)"
	}
	fmt.Fprintf(g.out, "endpoint preflight: model %s served by %d endpoint(s), context %d tokens, %s\n", o.Model, len(rep.Endpoints), rep.MaxModelLen, ids)
	return spec, nil
}
