package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarry-rl/quarry/envs"
)

func newPlayCmd() *cobra.Command {
	var (
		seed       uint64
		policy     string
		wrapper    string
		options    []string
		maxHistory int
	)
	cmd := &cobra.Command{
		Use:   "play <env-id>",
		Short: "Play an env in the terminal: type actions, or watch the random or oracle policy",
		Long: "Play an env in the terminal. With --policy human (the default) each line you type is one action;\n" +
			"an empty line or end of input stops. --policy random or oracle plays by itself.\n" +
			"Options override the id's defaults: -o max_turns=12 -o min_number=null (values are JSON).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := parseOptions(options)
			if err != nil {
				return err
			}
			w, err := envs.ParseWrapper(wrapper)
			if err != nil {
				return err
			}
			r, err := newRegistry()
			if err != nil {
				return err
			}
			spec, err := r.Lookup(args[0])
			if err != nil {
				return err
			}
			env, err := r.Make(args[0], opts)
			if err != nil {
				return err
			}
			next, err := pickPolicy(policy, env, seed, cmd.InOrStdin())
			if err != nil {
				return err
			}
			return play(cmd.OutOrStdout(), spec, env, w, maxHistory, seed, next)
		},
	}
	cmd.Flags().Uint64Var(&seed, "seed", 0, "episode seed")
	cmd.Flags().StringVar(&policy, "policy", "human", "human, random or oracle")
	cmd.Flags().StringVar(&wrapper, "wrapper", string(envs.WrapLast), "observation wrapper: last, concat, concat_with_action, chat")
	cmd.Flags().StringArrayVarP(&options, "option", "o", nil, "env option key=value (JSON value), repeatable")
	cmd.Flags().IntVar(&maxHistory, "max-history", 0, "wrapper history length (0 = all)")
	return cmd
}

func parseOptions(kvs []string) (map[string]any, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("option %q: want key=value", kv)
		}
		var val any
		if err := json.Unmarshal([]byte(v), &val); err != nil {
			val = v // a bare word is a string
		}
		out[k] = val
	}
	return out, nil
}

// errStop ends a human session early.
var errStop = fmt.Errorf("stopped")

func pickPolicy(name string, env envs.Env, seed uint64, in io.Reader) (func() (string, error), error) {
	switch name {
	case "human":
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		return func() (string, error) {
			if !sc.Scan() || strings.TrimSpace(sc.Text()) == "" {
				return "", errStop
			}
			return sc.Text(), nil
		}, nil
	case "random":
		rng := envs.NewRand(seed ^ 0x5eed)
		return func() (string, error) { return env.SampleRandomAction(rng), nil }, nil
	case "oracle":
		o, ok := envs.AsOracle(env)
		if !ok {
			return nil, fmt.Errorf("this env has no oracle; use --policy human or random")
		}
		return o.OracleAction, nil
	}
	return nil, fmt.Errorf("--policy %q: want human, random or oracle", name)
}

func play(out io.Writer, spec envs.Spec, env envs.Env, w envs.Wrapper, maxHistory int, seed uint64, next func() (string, error)) error {
	ep := envs.NewEpisode(env, w, maxHistory)
	prompt, _, err := ep.Reset(seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "== %s (version %s, seed %d, at most %d turns)\n%s\n", spec.ID, spec.Version(), seed, spec.MaxTurns, prompt)
	for !ep.Done() {
		fmt.Fprint(out, "> ")
		action, err := next()
		if err == errStop {
			fmt.Fprintln(out, "\n(stopped)")
			break
		}
		if err != nil {
			return err
		}
		fmt.Fprintln(out, action)
		prompt, res, err := ep.Step(action)
		if err != nil {
			return err
		}
		flags := ""
		switch {
		case res.Info.FormatError:
			flags = " [format error]"
		case res.Info.InvalidAction:
			flags = " [invalid]"
		}
		fmt.Fprintf(out, "-- reward %+.4g%s\n%s\n", res.Reward, flags, prompt)
		if res.Done() {
			outcome := "lost"
			if res.Info.Success {
				outcome = "won"
			}
			fmt.Fprintf(out, "== episode over (%s): %d turns, total reward %.4g, terminated=%v truncated=%v\n",
				outcome, ep.Steps(), ep.CumulativeReward(), res.Terminated, res.Truncated)
		}
	}
	return nil
}
