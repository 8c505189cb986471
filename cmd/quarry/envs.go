package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

type envRow struct {
	ID          string         `json:"id"`
	Category    string         `json:"category"`
	Version     string         `json:"version"`
	MaxTurns    int            `json:"max_turns"`
	RewardMin   float64        `json:"reward_min"`
	RewardMax   float64        `json:"reward_max"`
	Description string         `json:"description"`
	AliasOf     string         `json:"alias_of,omitempty"`
	Defaults    map[string]any `json:"defaults,omitempty"`
}

func newEnvsCmd() *cobra.Command {
	var category string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "envs",
		Short: "List the registered env ids with category, version, max turns and description",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := newRegistry()
			if err != nil {
				return err
			}
			var rows []envRow
			cats := map[string]bool{}
			for _, s := range r.Specs() {
				cats[s.Category()] = true
				if category != "" && s.Category() != category {
					continue
				}
				rows = append(rows, envRow{s.ID, s.Category(), s.Version(), s.MaxTurns, s.RewardMin, s.RewardMax, s.Description, "", s.Defaults()})
			}
			for alias, target := range r.Aliases() {
				s, _ := r.Lookup(target)
				if category != "" && s.Category() != category {
					continue
				}
				rows = append(rows, envRow{alias, s.Category(), s.Version(), s.MaxTurns, s.RewardMin, s.RewardMax, "alias of " + target, target, nil})
			}
			if category != "" && !cats[category] {
				known := make([]string, 0, len(cats))
				for c := range cats {
					known = append(known, c)
				}
				slices.Sort(known)
				return fmt.Errorf("no env in category %q; categories: %v", category, known)
			}
			slices.SortFunc(rows, func(a, b envRow) int {
				if a.ID < b.ID {
					return -1
				}
				return 1
			})
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tCATEGORY\tVERSION\tMAX TURNS\tDESCRIPTION")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", r.ID, r.Category, r.Version, r.MaxTurns, r.Description)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&category, "category", "", "only this category (game, rg, math, code, qa, …)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON, with each id's default options")
	return cmd
}
