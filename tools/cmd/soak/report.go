package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// result is one row of the table.
type result struct {
	Mix              mix
	Resources        int // resource instances in state after the apply
	ApplyRuns        int // terraform apply runs until it converged
	ApplyErr         string
	Injected         wire.StatsFaults
	Requests         int64 // /v1 requests the service received, retries included
	Customers        int64 // customers at the service after the apply
	Sources          int64 // sources at the service after the apply
	Duplicates       int64 // objects at the service beyond those in state after a finished apply
	Orphans          int64 // objects at the service unknown to state after an interrupt, or left after destroy
	Missing          int   // objects in state the service does not have
	InterruptAt      int   // customers at the service when SIGINT was sent
	InterruptState   int   // resource instances in state when the interrupted apply stopped
	InterruptOrphans int64 // objects at the service unknown to state when it stopped
	PlanEmpty        bool
	PlanErr          string
	DestroyErr       string
	LeftAfterDelete  int64
	Duration         time.Duration
}

func (r *result) ok() bool {
	return r.ApplyErr == "" && r.PlanErr == "" && r.DestroyErr == "" && r.PlanEmpty &&
		r.Duplicates == 0 && r.Orphans == 0 && r.Missing == 0 && r.LeftAfterDelete == 0
}

// printTable prints the results as a Markdown table, ready to paste into
// an issue, followed by notes on the interrupted run and any errors.
func printTable(w io.Writer, results []*result) {
	header := []string{"mix", "faults set", "resources applied", "apply runs", "requests",
		"injected errors", "injected drops", "rate limited (429)", "customers found", "sources found",
		"duplicates", "orphans", "missing", "plan empty", "left after destroy", "duration"}
	rows := [][]string{header}
	for _, r := range results {
		rows = append(rows, []string{
			r.Mix.Name, faultsString(r.Mix), fmt.Sprint(r.Resources), fmt.Sprint(r.ApplyRuns), fmt.Sprint(r.Requests),
			fmt.Sprint(r.Injected.Errors), fmt.Sprint(r.Injected.Drops), fmt.Sprint(r.Injected.RateLimited),
			fmt.Sprint(r.Customers), fmt.Sprint(r.Sources),
			fmt.Sprint(r.Duplicates), fmt.Sprint(r.Orphans), fmt.Sprint(r.Missing),
			yesNo(r.PlanEmpty), fmt.Sprint(r.LeftAfterDelete), r.Duration.String(),
		})
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, cell := range cells {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i < 2 {
				b.WriteString(" " + cell + pad + " |")
			} else {
				b.WriteString(" " + pad + cell + " |")
			}
		}
		fmt.Fprintln(w, b.String())
	}
	line(rows[0])
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", widths[i])
		if i >= 2 {
			sep[i] = sep[i][:widths[i]-1] + ":"
		}
	}
	line(sep)
	for _, row := range rows[1:] {
		line(row)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "requests: the account's /v1 requests, retries and the soak's own verification reads included; "+
		"duplicates: objects at the service beyond those in state after an apply that finished; "+
		"orphans: objects at the service unknown to state after an interrupted apply, plus any left after destroy; "+
		"missing: objects in state that the service does not have. All three must be 0.")
	for _, r := range results {
		if r.Mix.Interrupt {
			fmt.Fprintf(w, "%s: terraform was sent SIGINT when %d customers existed; when it stopped, state held %d resource instances and the service %d objects it did not know (orphans).\n",
				r.Mix.Name, r.InterruptAt, r.InterruptState, r.InterruptOrphans)
		}
		for _, e := range []struct{ what, msg string }{{"apply", r.ApplyErr}, {"plan", r.PlanErr}, {"destroy", r.DestroyErr}} {
			if e.msg != "" {
				fmt.Fprintf(w, "%s: %s: %s\n", r.Mix.Name, e.what, e.msg)
			}
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// planSummary returns the plan's "Plan: …" line.
func planSummary(out string) string {
	for l := range strings.Lines(out) {
		if s := strings.TrimSpace(l); strings.HasPrefix(s, "Plan:") {
			return s
		}
	}
	return tfcli.Tail(out, 10)
}
