// Package deploycheck validates the deploy recipes in deploy/ without a
// Docker engine or network: the compose file with compose-spec's own loader
// (its JSON schema and interpolation), every Kubernetes manifest strictly
// decoded into k8s.io/api types (an unknown or misspelt field is an error),
// and the Dockerfile read instruction by instruction. On top of the
// schemas it checks the facts a user would trip over: the image builds the
// binaries the recipes run, every flag a recipe passes is a flag of that
// binary, every environment variable is one something reads, probes and
// scrape annotations name the metrics port, image versions match go.mod,
// workers on one kernel get disjoint sandbox uid ranges and the privileges
// the sandbox needs, and the specs the recipes submit validate and write to
// the bucket the recipe creates.
//
// The facts about the binaries (Binary) come from their -h output, so the
// checks follow the code rather than a copy of it; tests build them.
package deploycheck
