// Package python is GEM's Python code tool: an agent writes a
// <python>…</python> tag or a ```python fenced block, the code runs under
// bubblewrap (internal/sandbox) in a work dir that lives for the episode,
// and the agent sees "Code execution result: " and the output.
package python

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/tools"
)

// Name is the tool's stable name.
const Name = "python"

// DefaultInterpreter is Debian's python3. A pyenv shim or a virtualenv's
// python on PATH does not work inside the sandbox, which hides /root and /home.
const DefaultInterpreter = "/usr/bin/python3"

// DefaultTimeout is the wall-clock limit of one execution: GEM's effective
// timeout (its subprocess runs always get DEFAULT_TIMEOUT, 10 s).
const DefaultTimeout = 10 * time.Second

// Options configure the tool.
type Options struct {
	// Timeout is the wall-clock limit of one execution (default 10 s); the
	// CPU limit is the same. GEM accepts a timeout argument but ignores it;
	// here it is enforced, and the timeout message names it.
	Timeout time.Duration
	// Interpreter is the python inside the sandbox (default /usr/bin/python3).
	Interpreter string
	// KeepErrorLastLine keeps only the last line of stderr, as GEM's
	// keep_error_last_line.
	KeepErrorLastLine bool
	// Blocklist refuses code containing GEM's blocklist (Blocked) without
	// running it, as GEM's python tool with its default sandbox type does:
	// the call fails ("Execution blocked: …"), so it earns no success
	// reward. The job presets turn it on (tools.python.no_blocklist turns
	// it off); the sandbox, not the list, is the isolation either way.
	Blocklist bool
	// NoImportRetry turns off GEM's second attempt: when a run fails with
	// "is not defined" in stderr, GEM runs the code again with a prelude of
	// common imports (math, itertools, collections, numpy, …).
	NoImportRetry bool
	// Limits override the sandbox's limits (address space, processes,
	// output cap, …); Timeout sets their CPU and Wall.
	Limits sandbox.Limits
}

// Tool runs agent code in a Sandbox. It is safe for concurrent use.
type Tool struct {
	sb   *sandbox.Sandbox
	opts Options
}

var _ tools.Tool = (*Tool)(nil)

// New returns the tool running code in sb.
func New(sb *sandbox.Sandbox, opts Options) (*Tool, error) {
	if sb == nil {
		return nil, errors.New("python tool: nil sandbox")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Interpreter == "" {
		opts.Interpreter = DefaultInterpreter
	}
	opts.Limits.Wall = opts.Timeout
	opts.Limits.CPU = opts.Timeout
	return &Tool{sb: sb, opts: opts}, nil
}

// Name implements tools.Tool.
func (t *Tool) Name() string { return Name }

// GEM's patterns, tried in this order; of the first match of each, the one
// that ends first wins, and on a tie the later pattern.
var patterns = []*regexp.Regexp{
	regexp.MustCompile(`(?s)<python>(.*?)</python>`),
	regexp.MustCompile("(?s)```\n?python(.*?)```"),
}

// Parse implements tools.Tool: the action's first complete <python> tag or
// ```python block, with GEM's precedence. Input is the code with Python's
// str.strip applied; Raw is the matched text.
func (t *Tool) Parse(action string) (tools.Call, bool) { return Parse(action) }

// Parse is Tool.Parse without a tool: parsing needs no sandbox.
func Parse(action string) (tools.Call, bool) {
	var best []int
	for _, re := range patterns {
		m := re.FindStringSubmatchIndex(action)
		if m != nil && (best == nil || m[1] <= best[1]) {
			best = m
		}
	}
	if best == nil {
		return tools.Call{}, false
	}
	return tools.Call{
		Tool:  Name,
		Input: strings.TrimFunc(action[best[2]:best[3]], pyIsSpace),
		Raw:   action[best[0]:best[1]],
		Shown: action[:best[1]],
	}, true
}

// pyIsSpace is Python's str.isspace for one rune: Go's unicode.IsSpace plus
// the separators U+001C…U+001F, which Python's strip also removes.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// Instructions implements tools.Tool with GEM's instruction string.
func (t *Tool) Instructions(context.Context) (string, error) { return Instructions, nil }

// Instructions is GEM's instruction string for the Python tool.
const Instructions = "Solve the above problem step by step. You now have the ability to selectively write " +
	"executable Python code to enhance your reasoning process. The Python code will be executed by an external sandbox, " +
	`and the output (after "Code execution result: ") is returned to aid your reasoning and help you arrive at the final answer. ` +
	"The Python code should be complete scripts, including necessary imports, wrapped within <python>...</python> tags or using ```python...``` code block. " +
	"Return your final answer within \\boxed{}."

// Open implements tools.Tool: a session owns one sandbox workspace, so the
// files one call writes are there for the next.
func (t *Tool) Open(ctx context.Context) (tools.Session, error) {
	ws, err := t.sb.NewWorkspace(ctx)
	if err != nil {
		return nil, fmt.Errorf("python tool: open: %w", err)
	}
	return &Session{tool: t, ws: ws}, nil
}

// Session runs the calls of one episode in one workspace.
type Session struct {
	tool *Tool
	ws   *sandbox.Workspace
}

// Close removes the session's workspace.
func (s *Session) Close() error { return s.ws.Close() }

// Execute implements tools.Session.
func (s *Session) Execute(ctx context.Context, call tools.Call) (tools.Result, error) {
	if call.Err != "" {
		return tools.Result{Observation: "Code execution result: " + call.Err + "\n", Error: true}, nil
	}
	code := call.Input
	if s.tool.opts.Blocklist && Blocked(code) {
		return observe(outcome{stderr: BlockedMessage}, s.tool.opts), nil
	}
	// GEM answers a lone "..." (a placeholder, valid Python) without running it.
	if code == "..." {
		return observe(outcome{stderr: "SyntaxError: invalid syntax"}, s.tool.opts), nil
	}
	out, err := s.run(ctx, code)
	if err != nil {
		return tools.Result{}, err
	}
	if !out.ok && !out.timedOut && !s.tool.opts.NoImportRetry && strings.Contains(out.stderr, "is not defined") {
		if out, err = s.run(ctx, importPrelude+"\n"+code); err != nil {
			return tools.Result{}, err
		}
	}
	return observe(out, s.tool.opts), nil
}

// BlockedMessage is GEM's stderr for code its blocklist refuses.
const BlockedMessage = "Execution blocked: Code contains potentially dangerous operations or imports."

// GEM's blocklist (gem/utils/sandbox.py check_forbidden_imports): plain
// substring tests, so a comment or a string holding one blocks the code too.
var (
	blockedModules  = []string{"subprocess", "multiprocessing", "threading", "socket", "psutil", "resource", "ctypes"}
	blockedPatterns = []string{"os.system", "os.popen", "os.spawn", "os.fork", "os.exec", "sys.exit", "os._exit", "os.kill"}
)

// Blocked reports whether GEM's python tool would refuse code: it contains
// "import m" or "from m" for a blocked module m, or a blocked call pattern.
func Blocked(code string) bool {
	for _, m := range blockedModules {
		if strings.Contains(code, "import "+m) || strings.Contains(code, "from "+m) {
			return true
		}
	}
	for _, p := range blockedPatterns {
		if strings.Contains(code, p) {
			return true
		}
	}
	return false
}

// outcome is one run as GEM's run_python sees it.
type outcome struct {
	ok             bool
	stdout, stderr string
	timedOut       bool
	truncated      bool
}

// maxArg is below Linux's limit on one argument (MAX_ARG_STRLEN, 128 KiB):
// code up to it goes on the command line as GEM's `python -c`, longer code
// through stdin, which such code then cannot read.
const maxArg = 100 << 10

func (s *Session) run(ctx context.Context, code string) (outcome, error) {
	cmd := sandbox.Cmd{
		Args: []string{s.tool.opts.Interpreter, "-c", code},
		// As GEM's minimal environment: BLAS libraries keep to one thread.
		Env:    []string{"OPENBLAS_NUM_THREADS=1", "PYTHONIOENCODING=utf-8"},
		Limits: s.tool.opts.Limits,
	}
	if len(code) > maxArg {
		cmd.Args = []string{s.tool.opts.Interpreter, "-"}
		cmd.Stdin = []byte(code)
	}
	res, err := s.ws.Run(ctx, cmd)
	if err != nil {
		if errors.Is(err, sandbox.ErrNotStarted) {
			err = tools.NotExecuted(err)
		}
		return outcome{}, fmt.Errorf("python tool: execute: %w", err)
	}
	out := outcome{
		ok:        res.ExitCode == 0 && res.Signal == "",
		stdout:    decode(res.Stdout),
		stderr:    strings.TrimFunc(decode(res.Stderr), pyIsSpace),
		timedOut:  res.TimedOut || res.CPULimited,
		truncated: res.Truncated(),
	}
	switch {
	case res.MemoryLimited:
		// A process was OOM-killed: say so, whatever else was printed.
		limit := s.tool.sb.Options().Limits.Memory
		if s.tool.opts.Limits.Memory > 0 {
			limit = s.tool.opts.Limits.Memory
		}
		out.ok = false
		out.stderr = strings.TrimLeft(out.stderr+"\nMemoryError: the code reached the sandbox's memory limit ("+
			strconv.FormatInt(limit>>20, 10)+" MiB) and a process was killed", "\n")
	case res.Signal != "" && !out.timedOut && out.stderr == "":
		// GEM shows nothing for a signal death; say what happened.
		out.stderr = "Process killed by signal: " + res.Signal
	}
	if res.Truncated() {
		limit := s.tool.sb.Options().Limits.OutputBytes
		if s.tool.opts.Limits.OutputBytes > 0 {
			limit = s.tool.opts.Limits.OutputBytes
		}
		if res.StdoutTruncated {
			out.stdout += "\n[stdout truncated to " + strconv.Itoa(limit) + " bytes]"
		}
		if res.StderrTruncated {
			out.stderr += "\n[stderr truncated to " + strconv.Itoa(limit) + " bytes]"
		}
	}
	return out, nil
}

// decode turns output into text, invalid UTF-8 (or a character cut by the
// output cap) replaced by U+FFFD.
func decode(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// observe formats an outcome as GEM's execute_action does.
func observe(out outcome, opts Options) tools.Result {
	stdout, stderr := out.stdout, out.stderr
	if out.timedOut {
		stdout = ""
		stderr = "\nExecution timed out after " + seconds(opts.Timeout) + " seconds."
	}
	if stderr != "" && opts.KeepErrorLastLine {
		stderr = stderr[strings.LastIndexByte(stderr, '\n')+1:]
	}
	result := stdout
	if stderr != "" {
		result = stdout + "\n" + stderr
	}
	return tools.Result{
		Observation: "Code execution result: " + strings.TrimLeft(result, " \n") + "\n",
		Error:       !out.ok,
		TimedOut:    out.timedOut,
		Truncated:   out.truncated && !out.timedOut,
	}
}

// seconds formats a duration as GEM's integer seconds ("10"), with a
// fraction only when it has one.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// importPrelude is GEM's BASE_IMPORTS, prepended on the retry after a
// NameError. numpy and pandas are imported only when installed (Debian's
// python3 may lack pandas), so a missing one does not replace the agent's
// error with an ImportError.
const importPrelude = `from itertools import accumulate, chain, combinations, count, permutations, product, groupby, islice, repeat
from copy import deepcopy
from string import ascii_lowercase, ascii_uppercase
from math import floor, log2, log10, sqrt, comb, gcd, ceil, inf, isqrt, factorial, atan2, pi
from collections import defaultdict, deque, Counter
from bisect import bisect, bisect_left, bisect_right, insort
from heapq import heappush, heappop, heapify, merge, nlargest, nsmallest, heapreplace
from functools import reduce, cache, lru_cache, cmp_to_key, reduce
from random import randrange, shuffle
from operator import itemgetter, sub, xor, or_
from re import search as re_search  # Assuming 're' refers to a regex search
from os.path import commonprefix
from typing import List, Tuple, Dict, Set, Optional, Union, Any, Callable, Iterable, Iterator, Generator, Deque
import copy
import string
import math
import collections
import bisect
import heapq
import functools
import random
import itertools
import operator
import re
import datetime
from time import time
try:
    import numpy as np
except ImportError:
    pass
try:
    import pandas as pd
except ImportError:
    pass
from math import log, prod  # 'log' and 'prod' are functions in the math module
from collections import deque, defaultdict, Counter, OrderedDict
from itertools import accumulate, permutations, combinations, product, groupby, islice, chain, repeat, zip_longest, cycle, pairwise
from functools import lru_cache, reduce, partial
from operator import iand
import sys
import io, os
`

// Function is the Python tool as an OpenAI function tool (native calling):
// python(code).
var Function = tools.Function{
	Name:        Name,
	Description: "Run a complete Python script in a sandbox and return what it prints (stdout, then stderr).",
	Parameters:  []byte(`{"type":"object","properties":{"code":{"type":"string","description":"A complete Python script; print what you need to see."}},"required":["code"]}`),
}

// Functions implements tools.Functions.
func (t *Tool) Functions(context.Context) ([]tools.Function, error) {
	return []tools.Function{Function}, nil
}
