// Command quarry is the environment toolbox: list the registered env ids and
// play any of them in a terminal, by hand or with the random or oracle policy.
//
//	quarry envs [--category game] [--json]
//	quarry play game:Mastermind-v0-easy [--seed 7] [--policy human|random|oracle] [-o key=value]
//	quarry serve --output DIR [--listen 127.0.0.1:8815] [--http 127.0.0.1:8816]   # online jobs to trainers
//	quarry report out/myjob [-o report.html]                                          # an HTML report
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/quarry-rl/quarry/envs/catalog"
)

func main() {
	if err := newRoot(os.Stdin, os.Stdout).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "quarry:", err)
		os.Exit(1)
	}
}

func newRoot(in io.Reader, out io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "quarry",
		Short:         "Quarry's environment toolbox",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(in)
	root.SetOut(out)
	root.AddCommand(newEnvsCmd(), newPlayCmd(), newInspectCmd(), newRetrieveCmd(), newServeCmd(), newReportCmd())
	return root
}

var newRegistry = catalog.New
