// Package tools holds the Tool contract shared by Quarry's tools (sandboxed
// Python, search against a retrieval server, MCP) and the tool-env wrapper
// that lets an agent call them between environment steps, with GEM's
// semantics.
//
// A tool has two halves. Parsing is pure and cheap: it decides whether an
// action contains a call for this tool and extracts it, so the workflow's act
// step can route the call without I/O. Execution happens in a Session, which
// lives as long as one episode on one worker (a sandbox work dir, an MCP
// connection) and is always closed.
package tools

import (
	"context"
	"encoding/json"
	"errors"
)

// Tool is one kind of tool an agent can call.
type Tool interface {
	// Name is the tool's stable name ("python", "search", "mcp").
	Name() string
	// Parse finds this tool's first call in an action. ok is false when the
	// action holds no call for this tool; a call with a malformed body is
	// still returned (ok true) with Call.Err set, so the agent sees why.
	Parse(action string) (call Call, ok bool)
	// Instructions describes the tool for the prompt (how to call it, and for
	// MCP the listed tools' JSON schemas). It may be empty.
	Instructions(ctx context.Context) (string, error)
	// Open starts a session for one episode.
	Open(ctx context.Context) (Session, error)
}

// Session executes calls for one episode. It is not safe for concurrent use.
type Session interface {
	// Execute runs one call. Everything the agent should see — the output,
	// a timeout, a tool-reported error — comes back as a Result. A non-nil
	// error means the infrastructure failed (the sandbox could not start,
	// the retrieval server is misconfigured, ctx was cancelled); wrap it with
	// NotExecuted when the call provably did not take effect, so a caller may
	// retry it.
	Execute(ctx context.Context, call Call) (Result, error)
	// Close releases the session's processes, connections and files. It is
	// safe to call more than once.
	Close() error
}

// Call is one parsed tool call.
type Call struct {
	// Tool is the Name of the tool that parsed the call.
	Tool string `json:"tool"`
	// Name is the called function for tools that offer several (MCP); empty otherwise.
	Name string `json:"name,omitempty"`
	// Input is the call's body: code, a query, or a JSON object of arguments.
	Input string `json:"input"`
	// Raw is the exact text of the call in the action.
	Raw string `json:"raw"`
	// Shown is the turn's action as GEM's observation wrappers show it (its
	// tool's parsed_action): for python and search the action up to the end
	// of the call, thinking included; "" means Raw (GEM's MCP tool shows the
	// call alone).
	Shown string `json:"shown,omitempty"`
	// Err explains why the call is malformed (bad JSON arguments, unknown
	// tool name); Execute of such a call returns it as an error observation
	// without running anything.
	Err string `json:"err,omitempty"`
}

// Called is what the agent called, as the turn's tool_name records it: the
// function of a tool that offers several (an MCP tool, named as the agent
// sees it), else the tool ("python", "search").
func (c Call) Called() string {
	if c.Name != "" {
		return c.Name
	}
	return c.Tool
}

// Result is what a call produced, as the agent will see it.
type Result struct {
	// Observation is the text shown to the agent, formatted as GEM does.
	Observation string `json:"observation"`
	// Error is true when the call ran but failed (non-zero exit, exception,
	// timeout, tool-reported error, malformed call). GEM's "has_error".
	Error bool `json:"error"`
	// TimedOut is true when the call was stopped by its timeout.
	TimedOut bool `json:"timed_out,omitempty"`
	// Truncated is true when the output was cut to the tool's cap.
	Truncated bool `json:"truncated,omitempty"`
}

// notExecuted marks an error after which the call provably did not run.
type notExecuted struct{ err error }

func (e notExecuted) Error() string { return e.err.Error() }
func (e notExecuted) Unwrap() error { return e.err }

// NotExecuted wraps err to say the call did not take effect, so retrying it
// cannot repeat side effects.
func NotExecuted(err error) error {
	if err == nil {
		return nil
	}
	return notExecuted{err}
}

// IsNotExecuted reports whether err (or an error it wraps) was marked by NotExecuted.
func IsNotExecuted(err error) bool {
	var ne notExecuted
	return errors.As(err, &ne)
}

// Function describes a tool as an OpenAI function tool, for native tool
// calling (the request's "tools"; the model answers with tool_calls).
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"` // a JSON Schema object
}

// Functions is implemented by tools that can be offered as function tools.
type Functions interface {
	Functions(ctx context.Context) ([]Function, error)
}
