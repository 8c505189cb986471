package envs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Spec describes one registered env id.
type Spec struct {
	// ID follows GEM: "category:Name[-variant]", e.g. "game:Sudoku-v0-easy".
	ID          string
	Description string
	// MaxTurns bounds the number of Steps of any episode of this id (for
	// random variants, the largest limit any draw can have).
	MaxTurns int
	// RewardMin and RewardMax bound every per-step reward.
	RewardMin, RewardMax float64
	// Revision numbers the env's rules; bump it whenever dynamics or rewards
	// change, so datasets never silently mix two rule sets under one version.
	// A golden test of behaviour fingerprints insists on it.
	Revision int
	// DataDigest identifies embedded data the env depends on (word lists,
	// graphs, samples); empty when there is none. See Digest.
	DataDigest string
	// Build makes instances from decoded options; see Options.
	Build Builder
	// Images: the env's observations show pictures (Info.Images), which
	// only chat requests carry (image parts); a job must use api: chat
	// without token-in/token-out.
	Images bool
}

// Category is the part of the id before the colon ("game", "math", "rg", …).
func (s Spec) Category() string {
	cat, _, _ := strings.Cut(s.ID, ":")
	return cat
}

// Version identifies the env's rules, default options and embedded data:
// "<revision>.<hash>". Every output row records it.
func (s Spec) Version() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", s.ID, s.Revision)
	if s.Build != nil {
		b, _ := json.Marshal(s.Build.defaults())
		h.Write(b)
	}
	fmt.Fprintf(h, "\x00%s", s.DataDigest)
	return fmt.Sprintf("%d.%s", s.Revision, hex.EncodeToString(h.Sum(nil))[:8])
}

// Defaults returns the env's default options as a JSON-shaped map (GEM's
// registration kwargs). Nil when the env takes no options.
func (s Spec) Defaults() map[string]any {
	if s.Build == nil {
		return nil
	}
	b, err := json.Marshal(s.Build.defaults())
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// Digest returns a DataDigest for embedded data files.
func Digest(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*:[A-Za-z0-9][A-Za-z0-9_.\-]*$`)

// Registry maps env ids to specs. It is explicit: nothing registers itself at
// init time; a program builds the registry it needs (see envs/catalog).
type Registry struct {
	specs   map[string]Spec
	aliases map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{specs: map[string]Spec{}, aliases: map[string]string{}}
}

// Register adds a spec. Duplicate ids and incomplete specs are rejected.
func (r *Registry) Register(s Spec) error {
	switch {
	case !idPattern.MatchString(s.ID):
		return fmt.Errorf("register %q: id must look like category:Name-variant", s.ID)
	case r.taken(s.ID):
		return fmt.Errorf("register %q: id already registered", s.ID)
	case s.Build == nil:
		return fmt.Errorf("register %q: no Build", s.ID)
	case s.MaxTurns <= 0:
		return fmt.Errorf("register %q: MaxTurns must be positive", s.ID)
	case s.RewardMin > s.RewardMax:
		return fmt.Errorf("register %q: RewardMin %v exceeds RewardMax %v", s.ID, s.RewardMin, s.RewardMax)
	case s.Description == "":
		return fmt.Errorf("register %q: no Description", s.ID)
	}
	if err := s.Build.checkDefaults(); err != nil {
		return fmt.Errorf("register %q: %w", s.ID, err)
	}
	r.specs[s.ID] = s
	return nil
}

// Alias makes alias resolve to the registered id target.
func (r *Registry) Alias(alias, target string) error {
	if !idPattern.MatchString(alias) {
		return fmt.Errorf("alias %q: id must look like category:Name-variant", alias)
	}
	if r.taken(alias) {
		return fmt.Errorf("alias %q: id already registered", alias)
	}
	if _, ok := r.specs[target]; !ok {
		return fmt.Errorf("alias %q: target %q is not registered", alias, target)
	}
	r.aliases[alias] = target
	return nil
}

func (r *Registry) taken(id string) bool {
	_, spec := r.specs[id]
	_, alias := r.aliases[id]
	return spec || alias
}

// Lookup resolves an id or alias. An unknown id returns an *UnknownIDError
// naming the closest known ids.
func (r *Registry) Lookup(id string) (Spec, error) {
	if target, ok := r.aliases[id]; ok {
		id = target
	}
	if s, ok := r.specs[id]; ok {
		return s, nil
	}
	return Spec{}, &UnknownIDError{ID: id, Suggestions: r.suggest(id)}
}

// Make builds an env for id. options override the id's defaults and are
// decoded strictly: unknown or ill-typed options fail with an *OptionError.
// The returned env enforces the episode protocol (ErrNotReset, ErrEpisodeOver).
func (r *Registry) Make(id string, options map[string]any) (Env, error) {
	s, err := r.Lookup(id)
	if err != nil {
		return nil, err
	}
	e, err := s.Build.build(s.ID, options)
	if err != nil {
		return nil, err
	}
	return &checked{env: e}, nil
}

// IDs returns every registered id (aliases excluded), sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.specs))
	for id := range r.specs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Specs returns every registered spec, sorted by id.
func (r *Registry) Specs() []Spec {
	out := make([]Spec, 0, len(r.specs))
	for _, id := range r.IDs() {
		out = append(out, r.specs[id])
	}
	return out
}

// Aliases returns alias → target, for listing.
func (r *Registry) Aliases() map[string]string {
	out := make(map[string]string, len(r.aliases))
	for a, t := range r.aliases {
		out[a] = t
	}
	return out
}

// suggest returns up to five known ids close to id: those containing it
// (case-insensitively) first, then the nearest by edit distance.
func (r *Registry) suggest(id string) []string {
	type cand struct {
		id   string
		dist int
	}
	low := strings.ToLower(id)
	var cands []cand
	for known := range r.specs {
		kl := strings.ToLower(known)
		d := levenshtein.ComputeDistance(low, kl)
		if family, _, ok := strings.Cut(kl, "-v"); ok { // "game:sudoku" for "game:sudoku-v0-easy"
			d = min(d, levenshtein.ComputeDistance(low, family))
		}
		if strings.Contains(kl, low) || strings.Contains(low, kl) {
			d = 0
		} else if _, name, ok := strings.Cut(low, ":"); ok && name != "" && strings.Contains(kl, name) {
			d = 1
		}
		if d <= max(3, len(id)/3) {
			cands = append(cands, cand{known, d})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.id, b.id)
	})
	var out []string
	for i := 0; i < len(cands) && i < 5; i++ {
		out = append(out, cands[i].id)
	}
	return out
}

// UnknownIDError reports an id that is not registered.
type UnknownIDError struct {
	ID          string
	Suggestions []string
}

func (e *UnknownIDError) Error() string {
	msg := fmt.Sprintf("unknown env id %q", e.ID)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	} else {
		msg += " (list the known ids with `quarry envs`)"
	}
	return msg
}

// OptionError reports an env option that is unknown, ill-typed or out of range.
type OptionError struct {
	Env    string
	Option string // empty when the error concerns the options as a whole
	Reason string
}

func (e *OptionError) Error() string {
	if e.Option == "" {
		return fmt.Sprintf("env %s: options: %s", e.Env, e.Reason)
	}
	return fmt.Sprintf("env %s: option %q: %s", e.Env, e.Option, e.Reason)
}

// Builder turns decoded options into an Env. Make one with Options.
type Builder interface {
	defaults() any
	bounds() []Bound
	// checkDefaults fails when an option has no range tag or a registered
	// default lies outside its range.
	checkDefaults() error
	build(id string, options map[string]any) (Env, error)
}

// Bounds lists the documented range of every option of the env, sorted by
// option name; nil when it takes none.
func (s Spec) Bounds() []Bound {
	if s.Build == nil {
		return nil
	}
	b := s.Build.bounds()
	slices.SortFunc(b, func(x, y Bound) int { return strings.Compare(x.Option, y.Option) })
	return b
}

// Validator is implemented by option structs that check their own values;
// return an *OptionError (Env may be left empty) to name the option.
type Validator interface {
	Validate() error
}

// Options returns a Builder for an env whose options are the JSON-tagged
// struct O. defaults holds the registered values; user options are decoded
// over a copy of it.
func Options[O any](defaults O, newEnv func(O) (Env, error)) Builder {
	bs, err := optionBounds(defaults)
	return optionsBuilder[O]{def: defaults, newEnv: newEnv, bs: bs, bsErr: err}
}

type optionsBuilder[O any] struct {
	def    O
	newEnv func(O) (Env, error)
	bs     []Bound // the options' ranges, from their tags
	bsErr  error   // an option without a range; Register refuses the spec
}

func (b optionsBuilder[O]) defaults() any { return b.def }

func (b optionsBuilder[O]) bounds() []Bound { return slices.Clone(b.bs) }

func (b optionsBuilder[O]) checkDefaults() error {
	if b.bsErr != nil {
		return b.bsErr
	}
	if err := checkBounds(b.def, b.bs); err != nil {
		return fmt.Errorf("the default of option %q is outside its range: %s", err.Option, err.Reason)
	}
	return nil
}

func (b optionsBuilder[O]) build(id string, options map[string]any) (Env, error) {
	opts, err := b.decode(id, options)
	if err != nil {
		return nil, err
	}
	e, err := b.newEnv(opts)
	if err != nil {
		return nil, fmt.Errorf("make %s: %w", id, err)
	}
	return e, nil
}

// decode applies options over a copy of the defaults, then checks their
// ranges and the struct's own Validate.
func (b optionsBuilder[O]) decode(id string, options map[string]any) (O, error) {
	// A fresh copy of the defaults for every build: decoding into b.def
	// itself would write through its pointer fields into the registered
	// defaults, leaking one caller's options into every later Make.
	var zero O
	opts, err := copyOptions(b.def)
	if err != nil {
		return zero, &OptionError{Env: id, Reason: "copy defaults: " + err.Error()}
	}
	if len(options) > 0 {
		known := optionNames(b.def)
		keys := make([]string, 0, len(options))
		for k := range options {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !slices.Contains(known, k) {
				reason := "unknown option; this env takes no options"
				if len(known) > 0 {
					reason = "unknown option; known options: " + strings.Join(known, ", ")
				}
				return zero, &OptionError{Env: id, Option: k, Reason: reason}
			}
		}
		if err := decodeStrict(options, &opts); err != nil {
			return zero, withRange(optionError(id, err), b.bs)
		}
		if err := checkBounds(opts, b.bs); err != nil {
			err.Env = id
			return zero, err
		}
	}
	if v, ok := any(opts).(Validator); ok {
		if err := v.Validate(); err != nil {
			var oe *OptionError
			if errors.As(err, &oe) {
				oe.Env = id
				return zero, withRange(oe, b.bs)
			}
			return zero, &OptionError{Env: id, Reason: err.Error()}
		}
	}
	return opts, nil
}

// copyOptions deep-copies an options struct through its JSON form.
func copyOptions[O any](def O) (O, error) {
	var out O
	b, err := json.Marshal(def)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(b, &out)
	return out, err
}

// decodeStrict decodes a JSON-shaped map into dst, rejecting unknown keys.
func decodeStrict(m map[string]any, dst any) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// withRange adds the option's documented range to an error about it that
// does not already state it (a type error, a task's own cross-field check),
// so every refusal tells the user what is allowed.
func withRange(err error, bs []Bound) error {
	var oe *OptionError
	if !errors.As(err, &oe) || oe.Option == "" {
		return err
	}
	for _, b := range bs {
		if b.Option == oe.Option && !strings.Contains(oe.Reason, b.String()) {
			oe.Reason += " (allowed: " + b.String() + ")"
		}
	}
	return err
}

func optionError(id string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &OptionError{Env: id, Option: te.Field, Reason: fmt.Sprintf("got %s, want %s", te.Value, friendlyType(te.Type.String()))}
	}
	return &OptionError{Env: id, Reason: err.Error()}
}

func friendlyType(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	}
	return t
}

// optionNames lists the JSON names of an options struct's fields, sorted.
func optionNames(def any) []string {
	t := reflect.TypeOf(def)
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// OptionsWith is Options for an env whose options are two JSON-tagged
// structs shown as one flat set: O, the task's own, and X, options a variant
// adds (a retry variant's attempt limit). Their JSON names must not overlap.
// Each struct is decoded, bounded and validated as Options does.
func OptionsWith[O, X any](defaults O, extra X, newEnv func(O, X) (Env, error)) Builder {
	bo := Options(defaults, nil).(optionsBuilder[O])
	bx := Options(extra, nil).(optionsBuilder[X])
	b := pairBuilder[O, X]{o: bo, x: bx, newEnv: newEnv}
	for _, n := range optionNames(extra) {
		if slices.Contains(optionNames(defaults), n) {
			b.err = fmt.Errorf("option %q is both the task's and the variant's", n)
		}
	}
	return b
}

type pairBuilder[O, X any] struct {
	o      optionsBuilder[O]
	x      optionsBuilder[X]
	newEnv func(O, X) (Env, error)
	err    error
}

func (b pairBuilder[O, X]) defaults() any {
	m := map[string]any{}
	for _, d := range []any{b.o.def, b.x.def} {
		raw, _ := json.Marshal(d)
		_ = json.Unmarshal(raw, &m)
	}
	return m
}

func (b pairBuilder[O, X]) bounds() []Bound { return append(b.o.bounds(), b.x.bounds()...) }

func (b pairBuilder[O, X]) checkDefaults() error {
	if b.err != nil {
		return b.err
	}
	if err := b.o.checkDefaults(); err != nil {
		return err
	}
	return b.x.checkDefaults()
}

func (b pairBuilder[O, X]) build(id string, options map[string]any) (Env, error) {
	own, extra := map[string]any{}, map[string]any{}
	xs := optionNames(b.x.def)
	for k, v := range options {
		if slices.Contains(xs, k) {
			extra[k] = v
		} else {
			own[k] = v
		}
	}
	o, err := b.o.decode(id, own)
	if err != nil {
		// An unknown option lists both structs' names.
		var oe *OptionError
		if errors.As(err, &oe) && strings.HasPrefix(oe.Reason, "unknown option") {
			names := append(optionNames(b.o.def), xs...)
			slices.Sort(names)
			oe.Reason = "unknown option; known options: " + strings.Join(names, ", ")
		}
		return nil, err
	}
	x, err := b.x.decode(id, extra)
	if err != nil {
		return nil, err
	}
	e, err := b.newEnv(o, x)
	if err != nil {
		return nil, fmt.Errorf("make %s: %w", id, err)
	}
	return e, nil
}
