package deploycheck

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// KubeObject is one decoded manifest document.
type KubeObject struct {
	Where string // file:document
	Kind  string
	Meta  metav1.ObjectMeta
	Obj   any // a pointer to the k8s.io/api type
}

// kinds are the objects the recipes may use, by apiVersion/kind.
var kinds = map[string]func() any{
	"v1/Namespace":                             func() any { return &corev1.Namespace{} },
	"v1/ConfigMap":                             func() any { return &corev1.ConfigMap{} },
	"v1/Secret":                                func() any { return &corev1.Secret{} },
	"v1/Service":                               func() any { return &corev1.Service{} },
	"v1/ServiceAccount":                        func() any { return &corev1.ServiceAccount{} },
	"apps/v1/Deployment":                       func() any { return &appsv1.Deployment{} },
	"apps/v1/StatefulSet":                      func() any { return &appsv1.StatefulSet{} },
	"batch/v1/Job":                             func() any { return &batchv1.Job{} },
	"networking.k8s.io/v1/NetworkPolicy":       func() any { return &networkingv1.NetworkPolicy{} },
	"rbac.authorization.k8s.io/v1/Role":        func() any { return &rbacv1.Role{} },
	"rbac.authorization.k8s.io/v1/RoleBinding": func() any { return &rbacv1.RoleBinding{} },
}

var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

// LoadKube decodes every document of the *.yaml files in dir, in file-name
// order, strictly: an unknown or duplicate field is an error, as is a kind
// outside the list above.
func LoadKube(dir string) ([]KubeObject, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var objs []KubeObject
	var errs []error
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for i, doc := range docSep.Split(string(data), -1) {
			if isBlank(doc) {
				continue
			}
			where := fmt.Sprintf("%s (document %d)", filepath.Base(f), i+1)
			o, err := decodeKube(where, []byte(doc))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no Kubernetes manifest", dir))
	}
	return objs, joinErrs(errs)
}

func isBlank(doc string) bool {
	for _, l := range strings.Split(doc, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

func decodeKube(where string, doc []byte) (KubeObject, error) {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return KubeObject{}, fmt.Errorf("%s: %w", where, err)
	}
	mk, ok := kinds[tm.APIVersion+"/"+tm.Kind]
	if !ok {
		return KubeObject{}, fmt.Errorf("%s: apiVersion %q kind %q is not a kind the recipes use (known: %s)", where, tm.APIVersion, tm.Kind, keys(kinds))
	}
	obj := mk()
	if err := yaml.UnmarshalStrict(doc, obj); err != nil {
		return KubeObject{}, fmt.Errorf("%s: %s: %w", where, tm.Kind, err)
	}
	var meta struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if err := yaml.Unmarshal(doc, &meta); err != nil {
		return KubeObject{}, fmt.Errorf("%s: %w", where, err)
	}
	if meta.Metadata.Name == "" {
		return KubeObject{}, fmt.Errorf("%s: %s has no metadata.name", where, tm.Kind)
	}
	return KubeObject{Where: where, Kind: tm.Kind, Meta: meta.Metadata, Obj: obj}, nil
}

// kubeSet indexes the decoded objects.
type kubeSet struct {
	objs       []KubeObject
	configMaps map[string]*corev1.ConfigMap // namespace/name
	secrets    map[string]*corev1.Secret
	namespaces map[string]bool
}

// pod is a pod template with where it came from.
type pod struct {
	where  string
	ns     string
	kind   string
	meta   metav1.ObjectMeta
	spec   *corev1.PodSpec
	object KubeObject
}

// CheckKube checks decoded manifests against the image and the repository
// (see the package doc for the list).
func CheckKube(objs []KubeObject, img Image, r Repo) error {
	ks := kubeSet{objs: objs, configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}, namespaces: map[string]bool{}}
	var errs []error
	var pods []pod
	for _, o := range objs {
		key := o.Meta.Namespace + "/" + o.Meta.Name
		switch v := o.Obj.(type) {
		case *corev1.Namespace:
			ks.namespaces[o.Meta.Name] = true
		case *corev1.ConfigMap:
			ks.configMaps[key] = v
		case *corev1.Secret:
			ks.secrets[key] = v
		case *appsv1.Deployment:
			errs = append(errs, checkSelector(o.Where, v.Spec.Selector, v.Spec.Template.Labels)...)
			pods = append(pods, pod{o.Where, o.Meta.Namespace, o.Kind, v.Spec.Template.ObjectMeta, &v.Spec.Template.Spec, o})
		case *appsv1.StatefulSet:
			errs = append(errs, checkSelector(o.Where, v.Spec.Selector, v.Spec.Template.Labels)...)
			pods = append(pods, pod{o.Where, o.Meta.Namespace, o.Kind, v.Spec.Template.ObjectMeta, &v.Spec.Template.Spec, o})
		case *batchv1.Job:
			pods = append(pods, pod{o.Where, o.Meta.Namespace, o.Kind, v.Spec.Template.ObjectMeta, &v.Spec.Template.Spec, o})
		}
	}
	errs = append(errs, ks.checkNamespaces()...)
	var namespaceJobs, users []containerEnv
	for _, p := range pods {
		errs = append(errs, ks.checkRefs(p)...)
		for i := range p.spec.Containers {
			c := &p.spec.Containers[i]
			env := ks.envOf(p, c)
			where := fmt.Sprintf("%s: %s %s container %s", p.where, p.kind, p.object.Meta.Name, c.Name)
			errs = append(errs, kubeImageVersion(where, c.Image, r)...)
			script := strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
			if strings.Contains(script, "namespace create") {
				namespaceJobs = append(namespaceJobs, containerEnv{where, env, script})
			}
			if !isQuarryImage(c.Image) {
				continue
			}
			cerrs, bin, args := ks.checkQuarryContainer(where, p, c, env, img, r)
			errs = append(errs, cerrs...)
			if bin != "" {
				users = append(users, containerEnv{where, env, strings.Join(args, " ")})
			}
		}
	}
	return joinErrs(append(errs, checkTemporalNamespace(namespaceJobs, users)...))
}

// containerEnv is a container's resolved environment (values from env and
// ConfigMaps; secrets resolve to "").
type containerEnv struct {
	where  string
	env    map[string]string
	script string
}

func isQuarryImage(image string) bool {
	repo, _, _ := strings.Cut(image, ":")
	return path.Base(repo) == "quarry"
}

func checkSelector(where string, sel *metav1.LabelSelector, labels map[string]string) []error {
	if sel == nil || len(sel.MatchLabels) == 0 {
		return []error{fmt.Errorf("%s: no spec.selector.matchLabels", where)}
	}
	for k, v := range sel.MatchLabels {
		if labels[k] != v {
			return []error{fmt.Errorf("%s: selector %s=%s does not match the pod template's labels %v", where, k, v, labels)}
		}
	}
	return nil
}

// checkNamespaces checks that every object names a namespace the recipe
// creates, and that the Namespace is applied first (kubectl apply -f dir
// goes in file-name order).
func (ks kubeSet) checkNamespaces() []error {
	var errs []error
	if len(ks.namespaces) == 0 {
		return []error{fmt.Errorf("k8s: no Namespace object: the recipe should create its namespace")}
	}
	seenNS := false
	for _, o := range ks.objs {
		if o.Kind == "Namespace" {
			seenNS = true
			continue
		}
		switch {
		case o.Meta.Namespace == "":
			errs = append(errs, fmt.Errorf("%s: %s %s has no metadata.namespace (it would land in whatever namespace kubectl points at)", o.Where, o.Kind, o.Meta.Name))
		case !ks.namespaces[o.Meta.Namespace]:
			errs = append(errs, fmt.Errorf("%s: %s %s is in namespace %q, which the recipe does not create (%s)", o.Where, o.Kind, o.Meta.Name, o.Meta.Namespace, keys(ks.namespaces)))
		case !seenNS:
			errs = append(errs, fmt.Errorf("%s: %s %s comes before its Namespace in file-name order, so kubectl apply -f fails on a new cluster", o.Where, o.Kind, o.Meta.Name))
		}
	}
	return errs
}

// checkRefs checks that the ConfigMaps, Secrets and keys a pod refers to
// exist in its namespace.
func (ks kubeSet) checkRefs(p pod) []error {
	var errs []error
	cm := func(name, key, what string) {
		m, ok := ks.configMaps[p.ns+"/"+name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %s refers to ConfigMap %s/%s, which the recipe does not define", p.where, what, p.ns, name))
		} else if _, has := m.Data[key]; key != "" && !has {
			errs = append(errs, fmt.Errorf("%s: %s refers to key %q of ConfigMap %s, which has %s", p.where, what, key, name, keys(m.Data)))
		}
	}
	sec := func(name, key, what string) {
		s, ok := ks.secrets[p.ns+"/"+name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %s refers to Secret %s/%s, which the recipe does not define", p.where, what, p.ns, name))
			return
		}
		_, inData := s.Data[key]
		_, inString := s.StringData[key]
		if key != "" && !inData && !inString {
			errs = append(errs, fmt.Errorf("%s: %s refers to key %q of Secret %s, which has %s %s", p.where, what, key, name, keys(s.StringData), keys(s.Data)))
		}
	}
	for _, c := range p.spec.Containers {
		for _, ef := range c.EnvFrom {
			if ef.ConfigMapRef != nil {
				cm(ef.ConfigMapRef.Name, "", "container "+c.Name+" envFrom")
			}
			if ef.SecretRef != nil {
				sec(ef.SecretRef.Name, "", "container "+c.Name+" envFrom")
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.SecretKeyRef; r != nil {
				sec(r.Name, r.Key, "env "+e.Name)
			}
			if r := e.ValueFrom.ConfigMapKeyRef; r != nil {
				cm(r.Name, r.Key, "env "+e.Name)
			}
		}
	}
	for _, v := range p.spec.Volumes {
		if v.ConfigMap != nil {
			cm(v.ConfigMap.Name, "", "volume "+v.Name)
		}
		if v.Secret != nil {
			sec(v.Secret.SecretName, "", "volume "+v.Name)
		}
	}
	return errs
}

// envOf resolves a container's environment: envFrom ConfigMaps first, then
// env entries (secrets resolve to "").
func (ks kubeSet) envOf(p pod, c *corev1.Container) map[string]string {
	env := map[string]string{}
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef == nil {
			continue
		}
		if m := ks.configMaps[p.ns+"/"+ef.ConfigMapRef.Name]; m != nil {
			for k, v := range m.Data {
				env[ef.Prefix+k] = v
			}
		}
	}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	return env
}

func kubeImageVersion(where, image string, r Repo) []error {
	repo, tag, _ := strings.Cut(image, ":")
	want := strings.TrimPrefix(r.Modules["go.temporal.io/server"], "v")
	if (repo == "temporalio/admin-tools" || repo == "temporalio/server") && tag != want {
		return []error{fmt.Errorf("%s: image %s; want tag %s (the server version in go.mod)", where, image, want)}
	}
	return nil
}

// checkQuarryContainer checks a container of the Quarry image: the binary
// and flags it runs, its environment, and for a worker its probes,
// metrics port and sandbox; for submit, the spec it submits.
func (ks kubeSet) checkQuarryContainer(where string, p pod, c *corev1.Container, env map[string]string, img Image, r Repo) ([]error, string, []string) {
	argv := append([]string{}, img.Entrypoint...)
	if len(c.Command) > 0 {
		argv = append([]string{}, c.Command...)
	}
	argv = append(argv, c.Args...)
	bin, args, err := img.program(argv)
	if err != nil {
		return []error{fmt.Errorf("%s: %w", where, err)}, "", nil
	}
	errs := r.checkInvocation(where, bin, args, slices.Sorted(mapKeys(env)))
	switch bin {
	case "worker":
		errs = append(errs, checkMetrics(where, p, c, args)...)
		errs = append(errs, checkPodSandbox(where, p, c, args)...)
	case "submit":
		errs = append(errs, ks.checkSubmitSpec(where, p, c, args, env)...)
	}
	return errs, bin, args
}

// checkMetrics checks that the probes and the scrape annotations use the
// port of --metrics-address, and the probe paths are the worker's.
func checkMetrics(where string, p pod, c *corev1.Container, args []string) []error {
	addr, ok := flagValue(args, "metrics-address")
	if !ok {
		return []error{fmt.Errorf("%s: no --metrics-address: the probes and Prometheus have nothing to talk to", where)}
	}
	_, portStr, _ := strings.Cut(addr, ":")
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return []error{fmt.Errorf("%s: --metrics-address %q: want [host]:port", where, addr)}
	}
	var errs []error
	declared := slices.ContainsFunc(c.Ports, func(cp corev1.ContainerPort) bool { return int(cp.ContainerPort) == port })
	if !declared {
		errs = append(errs, fmt.Errorf("%s: the metrics port %d (--metrics-address) is not a containerPort", where, port))
	}
	for _, pr := range []struct {
		name, path string
		probe      *corev1.Probe
	}{{"livenessProbe", "/healthz", c.LivenessProbe}, {"readinessProbe", "/readyz", c.ReadinessProbe}} {
		if pr.probe == nil || pr.probe.HTTPGet == nil {
			errs = append(errs, fmt.Errorf("%s: no %s httpGet on %s", where, pr.name, pr.path))
			continue
		}
		if pr.probe.HTTPGet.Path != pr.path {
			errs = append(errs, fmt.Errorf("%s: %s path %q; the worker serves %s", where, pr.name, pr.probe.HTTPGet.Path, pr.path))
		}
		if got := resolvePort(c, pr.probe.HTTPGet.Port.String()); got != port {
			errs = append(errs, fmt.Errorf("%s: %s port %s is not the metrics port %d (--metrics-address)", where, pr.name, pr.probe.HTTPGet.Port.String(), port))
		}
	}
	a := p.meta.Annotations
	if a["prometheus.io/scrape"] != "true" {
		errs = append(errs, fmt.Errorf("%s: the pod template lacks the annotation prometheus.io/scrape: \"true\"", where))
	}
	if a["prometheus.io/port"] != strconv.Itoa(port) {
		errs = append(errs, fmt.Errorf("%s: annotation prometheus.io/port %q is not the metrics port %d", where, a["prometheus.io/port"], port))
	}
	if pth, ok := a["prometheus.io/path"]; ok && pth != "/metrics" {
		errs = append(errs, fmt.Errorf("%s: annotation prometheus.io/path %q; the worker serves /metrics", where, pth))
	}
	return errs
}

// resolvePort maps a probe's port (a number or a container port's name)
// to a number; 0 when it names no port.
func resolvePort(c *corev1.Container, port string) int {
	if n, err := strconv.Atoi(port); err == nil {
		return n
	}
	for _, cp := range c.Ports {
		if cp.Name == port {
			return int(cp.ContainerPort)
		}
	}
	return 0
}

// podIDs is how many uids a user-namespaced pod has (0…65535).
const podIDs = 65536

// checkPodSandbox checks what bwrap needs in a pod and that the pod's
// sandbox uids are its own on the host.
func checkPodSandbox(where string, p pod, c *corev1.Container, args []string) []error {
	var errs []error
	if p.spec.HostUsers == nil || *p.spec.HostUsers {
		errs = append(errs, fmt.Errorf("%s: set hostUsers: false: without a user namespace per pod, pods on one node share slot uids (RLIMIT_NPROC counts them host-wide) and CAP_SYS_ADMIN is the host's", where))
	}
	sc := c.SecurityContext
	if sc == nil {
		return append(errs, fmt.Errorf("%s: no securityContext: the sandbox needs root, CAP_SYS_ADMIN, procMount: Unmasked and no AppArmor profile", where))
	}
	if sc.Privileged != nil && *sc.Privileged {
		return errs
	}
	if sc.RunAsNonRoot != nil && *sc.RunAsNonRoot || sc.RunAsUser != nil && *sc.RunAsUser != 0 {
		errs = append(errs, fmt.Errorf("%s: the sandbox must run as root (in the pod's user namespace) to switch each run to its slot uid", where))
	}
	if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Add, "SYS_ADMIN") {
		errs = append(errs, fmt.Errorf("%s: capabilities.add lacks SYS_ADMIN: the runtime's seccomp profile refuses bwrap's namespaces without it", where))
	}
	if sc.ProcMount == nil || *sc.ProcMount != corev1.UnmaskedProcMount {
		errs = append(errs, fmt.Errorf("%s: set procMount: Unmasked: bwrap cannot mount its /proc over a masked one", where))
	}
	apparmor := sc.AppArmorProfile
	if apparmor == nil && p.spec.SecurityContext != nil {
		apparmor = p.spec.SecurityContext.AppArmorProfile
	}
	if apparmor == nil || apparmor.Type != corev1.AppArmorProfileTypeUnconfined {
		errs = append(errs, fmt.Errorf("%s: set appArmorProfile type Unconfined: the runtime's default profile refuses bwrap's mounts", where))
	}
	rg, err := workerRange(where, args)
	if err != nil {
		return append(errs, err)
	}
	if rg.base+rg.slots > podIDs {
		errs = append(errs, fmt.Errorf("%s: sandbox uids %d…%d fall outside the pod's %d mapped ids", where, rg.base, rg.base+rg.slots-1, podIDs))
	}
	return errs
}

// checkSubmitSpec finds the spec a submit container submits in a
// ConfigMap volume and checks it.
func (ks kubeSet) checkSubmitSpec(where string, p pod, c *corev1.Container, args []string, env map[string]string) []error {
	var specPath string
	for _, a := range args {
		if strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml") {
			specPath = a
		}
	}
	if specPath == "" {
		return nil // a status, list or signal command
	}
	for _, m := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(specPath, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok {
			continue
		}
		for _, v := range p.spec.Volumes {
			if v.Name != m.Name || v.ConfigMap == nil {
				continue
			}
			cm := ks.configMaps[p.ns+"/"+v.ConfigMap.Name]
			if cm == nil {
				return nil // reported by checkRefs
			}
			data, ok := cm.Data[rel]
			if !ok {
				return []error{fmt.Errorf("%s: submits %s, but ConfigMap %s has no key %q (has %s)", where, specPath, cm.Name, rel, keys(cm.Data))}
			}
			workers := map[string]bool{}
			for k := range ks.workerEnv() {
				workers[k] = true
			}
			return checkSpec(where+": spec "+specPath, []byte(data), nil, workers)
		}
	}
	return []error{fmt.Errorf("%s: submits %s, which no ConfigMap volume mount provides", where, specPath)}
}

// workerEnv is the union of the worker containers' environment names.
func (ks kubeSet) workerEnv() map[string]string {
	env := map[string]string{}
	for _, o := range ks.objs {
		d, ok := o.Obj.(*appsv1.Deployment)
		if !ok {
			continue
		}
		p := pod{o.Where, o.Meta.Namespace, o.Kind, d.Spec.Template.ObjectMeta, &d.Spec.Template.Spec, o}
		for i := range d.Spec.Template.Spec.Containers {
			for k, v := range ks.envOf(p, &d.Spec.Template.Spec.Containers[i]) {
				env[k] = v
			}
		}
	}
	return env
}

// checkTemporalNamespace checks that a Job creates the Temporal namespace
// every Quarry container uses, on the same cluster.
func checkTemporalNamespace(creators, users []containerEnv) []error {
	created := map[string]bool{} // address + " " + namespace
	nsFlag := regexp.MustCompile(`namespace create[^\n]*(?:--namespace|-n)\s+(\S+)`)
	for _, c := range creators {
		ns := c.env["TEMPORAL_NAMESPACE"]
		if m := nsFlag.FindStringSubmatch(c.script); m != nil {
			ns = m[1]
		}
		created[c.env["TEMPORAL_ADDRESS"]+" "+ns] = true
	}
	var errs []error
	for _, u := range users {
		addr, ns := u.env["TEMPORAL_ADDRESS"], u.env["TEMPORAL_NAMESPACE"]
		args := strings.Fields(u.script)
		if v, ok := flagValue(args, "address"); ok {
			addr = v
		}
		if v, ok := flagValue(args, "namespace"); ok {
			ns = v
		}
		if !created[addr+" "+ns] {
			errs = append(errs, fmt.Errorf("%s: uses Temporal namespace %q at %q, which no Job of the recipe creates", u.where, ns, addr))
		}
	}
	return errs
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
