package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// row is one line of the main table: the medians of one operation at one N.
type row struct {
	N        int
	Op       string
	Runs     int
	Payments float64
	Floor    float64
	Ratio    float64
	// The median CPU seconds of Terraform with each provider, their ratio,
	// and the sandbox's median CPU seconds while serving the payments
	// provider: less noisy than wall-clock time on a busy machine.
	PaymentsCPU float64
	FloorCPU    float64
	CPURatio    float64
	SandboxCPU  float64
	// PerResource is the payments provider's requests per resource by
	// route, averaged over the repetitions; Requests is their sum.
	PerResource map[string]float64
	Requests    float64
	// Connections is the median number of connections the sandbox accepted
	// during the operation.
	Connections float64
	// The request floor's median seconds, CPU seconds and the sandbox's CPU
	// seconds while serving it (zero when it was not timed), and the two
	// ratios it gives: the payments provider over it, and it over the
	// floor (what one plain request per resource costs on the machine).
	RequestFloor           float64
	RequestFloorCPU        float64
	RequestFloorSandboxCPU float64
	RatioToRequestFloor    float64
	CPURatioToRequestFloor float64
	RequestFloorRatio      float64
	RequestFloorCPURatio   float64
	// NoJournal is the payments provider's median with its create
	// journal off (-journal-off).
	NoJournal float64
	// Paired are the same ratios taken run by run (the providers' runs of
	// one repetition, which follow each other) and their median: a drift
	// of the machine's speed between repetitions cancels out of them, as
	// it does not out of a ratio of medians. The thresholds read these.
	Paired paired
}

// paired are the run-by-run ratios' medians, wall and CPU.
type paired struct {
	Ratio, CPURatio                             float64
	RatioToRequestFloor, CPURatioToRequestFloor float64
	// RatioToNoJournal is the payments provider with its journal over
	// without it.
	RatioToNoJournal                        float64
	RequestFloorRatio, RequestFloorCPURatio float64
	Runs                                    int
}

// pairedRatios are the medians of the run-by-run ratios of the samples
// of one N and operation, keyed by provider and then repetition.
func pairedRatios(by map[string]map[int]sample) paired {
	ratios := func(a, b string) (wall, cpu float64, runs int) {
		var ws, cs []float64
		for rep, sa := range by[a] {
			sb, ok := by[b][rep]
			if !ok || sb.Seconds <= 0 || sb.CPUSeconds <= 0 {
				continue
			}
			ws = append(ws, sa.Seconds/sb.Seconds)
			cs = append(cs, sa.CPUSeconds/sb.CPUSeconds)
		}
		if len(ws) == 0 {
			return 0, 0, 0
		}
		return median(ws), median(cs), len(ws)
	}
	var p paired
	p.Ratio, p.CPURatio, p.Runs = ratios(paymentsLocal, floorLocal)
	p.RatioToRequestFloor, p.CPURatioToRequestFloor, _ = ratios(paymentsLocal, requestFloorName)
	p.RequestFloorRatio, p.RequestFloorCPURatio, _ = ratios(requestFloorName, floorLocal)
	p.RatioToNoJournal, _, _ = ratios(paymentsLocal, noJournalName)
	return p
}

// latencyRow is one line of the latency table.
type latencyRow struct {
	N          int
	LatencyMS  int64
	FloorApply float64
	Requests   int64
	Bound      float64
	Apply      float64
	Ratio      float64
}

// aggregate turns the samples without latency into the main table's rows,
// ordered by N then operation.
func aggregate(samples []sample, ns []int) []row {
	var rows []row
	for _, n := range ns {
		for _, op := range operations {
			var pay, flo, payCPU, floCPU, sbCPU, conns, rf, rfCPU, rfSB, nj []float64
			reqs := map[string]int64{}
			resources := 0
			byRep := map[string]map[int]sample{}
			for _, s := range samples {
				if s.N != n || s.Op != op || s.LatencyMS != 0 {
					continue
				}
				if byRep[s.Provider] == nil {
					byRep[s.Provider] = map[int]sample{}
				}
				byRep[s.Provider][s.Rep] = s
				switch s.Provider {
				case floorLocal:
					flo = append(flo, s.Seconds)
					floCPU = append(floCPU, s.CPUSeconds)
					continue
				case requestFloorName:
					rf = append(rf, s.Seconds)
					rfCPU = append(rfCPU, s.CPUSeconds)
					rfSB = append(rfSB, s.SandboxCPUSeconds)
					continue
				case noJournalName:
					nj = append(nj, s.Seconds)
					continue
				}
				pay = append(pay, s.Seconds)
				resources += s.Resources
				payCPU = append(payCPU, s.CPUSeconds)
				sbCPU = append(sbCPU, s.SandboxCPUSeconds)
				if s.Delta != nil {
					conns = append(conns, float64(s.Delta.Connections))
					for route, c := range s.Delta.Requests {
						reqs[route] += c
					}
				}
			}
			if len(pay) == 0 || len(flo) == 0 {
				continue
			}
			r := row{N: n, Op: op, Runs: len(pay), Payments: median(pay), Floor: median(flo), Connections: median(conns)}
			r.Ratio = r.Payments / r.Floor
			r.PaymentsCPU, r.FloorCPU, r.SandboxCPU = median(payCPU), median(floCPU), median(sbCPU)
			if r.FloorCPU > 0 {
				r.CPURatio = r.PaymentsCPU / r.FloorCPU
			}
			if len(rf) > 0 {
				r.RequestFloor, r.RequestFloorCPU, r.RequestFloorSandboxCPU = median(rf), median(rfCPU), median(rfSB)
				r.RatioToRequestFloor, r.RequestFloorRatio = r.Payments/r.RequestFloor, r.RequestFloor/r.Floor
				if r.RequestFloorCPU > 0 && r.FloorCPU > 0 {
					r.CPURatioToRequestFloor, r.RequestFloorCPURatio = r.PaymentsCPU/r.RequestFloorCPU, r.RequestFloorCPU/r.FloorCPU
				}
			}
			if len(nj) > 0 {
				r.NoJournal = median(nj)
			}
			r.Paired = pairedRatios(byRep)
			r.PerResource = perResource(reqs, resources)
			for _, v := range r.PerResource {
				r.Requests += v
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// latencyRows builds the latency table from the samples: for each latency,
// the median apply and request count against the bound built on the
// floor's median apply at the same N.
func latencyRows(samples []sample, n int, latencies []int64, parallelism int) []latencyRow {
	floor := median(floorApplies(samples, n))
	var rows []latencyRow
	for _, ms := range latencies {
		var secs, reqs []float64
		for _, s := range samples {
			if s.Provider == paymentsLocal && s.N == n && s.Op == opApply && s.LatencyMS == ms && s.Delta != nil {
				secs = append(secs, s.Seconds)
				reqs = append(reqs, float64(s.Delta.Total))
			}
		}
		if len(secs) == 0 {
			continue
		}
		r := latencyRow{N: n, LatencyMS: ms, FloorApply: floor, Requests: int64(median(reqs)), Apply: median(secs)}
		r.Bound = latencyBound(floor, r.Requests, time.Duration(ms)*time.Millisecond, parallelism)
		r.Ratio = r.Apply / r.Bound
		rows = append(rows, r)
	}
	return rows
}

// check is one acceptance criterion.
type check struct {
	Name  string
	Value float64
	Limit float64
	// Measured is false when the run did not cover the criterion.
	Measured bool
}

func (c check) Pass() bool { return c.Measured && c.Value <= c.Limit }

func (c check) Verdict() string {
	switch {
	case !c.Measured:
		return "n/a"
	case c.Pass():
		return "PASS"
	}
	return "FAIL"
}

// The performance thresholds: the provider against the floor at N, and
// against the request floor when it was timed.
const (
	maxApplyRatio = 1.05
	// maxJournalRatio is what the create journal may add to an apply.
	maxJournalRatio     = 1.02
	maxPlanRatio        = 1.05
	maxRequestsPerRes   = 1.0
	maxLatencyRatio     = 1.3
	latencyCheckedMS    = 50
	connectionsPerSlots = 2 // connections per apply at most this many times the parallelism
)

// checks evaluates the thresholds at N = n.
func checks(rows []row, lrows []latencyRow, n, parallelism int) []check {
	find := func(op string) (row, bool) {
		i := slices.IndexFunc(rows, func(r row) bool { return r.N == n && r.Op == op })
		if i < 0 {
			return row{}, false
		}
		return rows[i], true
	}
	apply, haveApply := find(opApply)
	plan, havePlan := find(opPlan)
	at := fmt.Sprintf(" at N=%d", n)
	cs := []check{
		{"apply time ÷ floor (paired)" + at, apply.Paired.Ratio, maxApplyRatio, haveApply},
		{"refresh-plan time ÷ floor (paired)" + at, plan.Paired.Ratio, maxPlanRatio, havePlan},
		{"requests per resource, create (apply)" + at, apply.Requests, maxRequestsPerRes, haveApply},
		{"requests per resource, refresh (plan)" + at, plan.Requests, maxRequestsPerRes, havePlan},
		{fmt.Sprintf("connections per apply%s (≤ %d × parallelism)", at, connectionsPerSlots), apply.Connections,
			float64(connectionsPerSlots * parallelism), haveApply},
	}
	if apply.RequestFloor > 0 || plan.RequestFloor > 0 {
		cs = append(cs,
			check{"apply time ÷ request floor (paired)" + at, apply.Paired.RatioToRequestFloor, maxApplyRatio, haveApply && apply.RequestFloor > 0},
			check{"refresh-plan time ÷ request floor (paired)" + at, plan.Paired.RatioToRequestFloor, maxPlanRatio, havePlan && plan.RequestFloor > 0})
	}
	if apply.NoJournal > 0 {
		cs = append(cs, check{"apply time with the create journal ÷ without (paired)" + at, apply.Paired.RatioToNoJournal, maxJournalRatio, haveApply})
	}
	lc := check{Name: fmt.Sprintf("apply at %d ms latency ÷ bound", latencyCheckedMS), Limit: maxLatencyRatio}
	if i := slices.IndexFunc(lrows, func(r latencyRow) bool { return r.LatencyMS == latencyCheckedMS }); i >= 0 {
		lc.Name += fmt.Sprintf(" at N=%d", lrows[i].N)
		lc.Value, lc.Measured = lrows[i].Ratio, true
	}
	return append(cs, lc)
}

// routesText renders requests per resource by route, e.g.
// "POST /v1/customers 0.50, POST /v1/customers/:id/sources 0.50".
func routesText(m map[string]float64, sep string) string {
	var parts []string
	for _, route := range sortedRoutes(m) {
		parts = append(parts, fmt.Sprintf("%s %.2f", route, m[route]))
	}
	return strings.Join(parts, sep)
}

func writeTables(w io.Writer, rows []row, lrows []latencyRow, rlRows []rateLimitRun, floors []floorPacedRun, cs []check, parallelism int) {
	fmt.Fprintln(w, "\nTime against the floor (median seconds; requests per resource from the sandbox's stats):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "N\toperation\truns\tpayments s\tfloor s\tratio\tpaired\tCPU s payments\tfloor\tratio\tpaired\tsandbox\treq/resource\tconnections\tby route (per resource)")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.2f\t%.2f\t%.3f\t%.3f\t%.2f\t%.2f\t%.3f\t%.3f\t%.2f\t%.2f\t%.0f\t%s\n",
			r.N, r.Op, r.Runs, r.Payments, r.Floor, r.Ratio, r.Paired.Ratio, r.PaymentsCPU, r.FloorCPU, r.CPURatio, r.Paired.CPURatio,
			r.SandboxCPU, r.Requests, r.Connections, routesText(r.PerResource, ", "))
	}
	tw.Flush()
	if slices.ContainsFunc(rows, func(r row) bool { return r.RequestFloor > 0 }) {
		fmt.Fprintln(w, "\nAgainst the request floor (the floor plus one plain request per resource; its sandbox CPU apart):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "N\toperation\trequest floor s\tCPU s\tsandbox\tpayments ÷ it\tpaired\tCPU\tpaired\tit ÷ floor\tpaired\tCPU\tpaired")
		for _, r := range rows {
			if r.RequestFloor == 0 {
				continue
			}
			p := r.Paired
			fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", r.N, r.Op, r.RequestFloor, r.RequestFloorCPU,
				r.RequestFloorSandboxCPU, r.RatioToRequestFloor, p.RatioToRequestFloor, r.CPURatioToRequestFloor, p.CPURatioToRequestFloor,
				r.RequestFloorRatio, p.RequestFloorRatio, r.RequestFloorCPURatio, p.RequestFloorCPURatio)
		}
		tw.Flush()
	}
	if len(lrows) > 0 {
		fmt.Fprintf(w, "\nApply with sandbox latency, against the bound floor + requests × latency ÷ %d:\n", parallelism)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "N\tlatency ms\tfloor apply s\trequests\tbound s\tapply s\tapply ÷ bound")
		for _, r := range lrows {
			fmt.Fprintf(tw, "%d\t%d\t%.2f\t%d\t%.2f\t%.2f\t%.3f\n", r.N, r.LatencyMS, r.FloorApply, r.Requests, r.Bound, r.Apply, r.Ratio)
		}
		tw.Flush()
	}
	writeRateLimitTable(w, rlRows, floors)
	fmt.Fprintln(w, "\nAcceptance:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range cs {
		v := "-"
		if c.Measured {
			v = strconv.FormatFloat(c.Value, 'f', 3, 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t(limit %g)\n", c.Verdict(), c.Name, v, c.Limit)
	}
	tw.Flush()
}

func writeCSV(path string, header []string, records [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write(header)
	_ = w.WriteAll(records) // WriteAll flushes and reports the first error
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func ff(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func writeCSVs(dir string, rows []row, lrows []latencyRow, samples []sample) error {
	var recs [][]string
	for _, r := range rows {
		recs = append(recs, []string{strconv.Itoa(r.N), r.Op, strconv.Itoa(r.Runs), ff(r.Payments), ff(r.Floor), ff(r.Ratio),
			ff(r.PaymentsCPU), ff(r.FloorCPU), ff(r.CPURatio), ff(r.SandboxCPU),
			ff(r.Requests), ff(r.Connections), routesText(r.PerResource, "; "),
			ff(r.RequestFloor), ff(r.RequestFloorCPU), ff(r.RequestFloorSandboxCPU), ff(r.RatioToRequestFloor), ff(r.RequestFloorRatio),
			ff(r.Paired.Ratio), ff(r.Paired.CPURatio), ff(r.Paired.RatioToRequestFloor), ff(r.Paired.RequestFloorRatio)})
	}
	if err := writeCSV(filepath.Join(dir, "bench.csv"), []string{"n", "operation", "runs", "payments_seconds", "floor_seconds",
		"ratio", "payments_cpu_seconds", "floor_cpu_seconds", "cpu_ratio", "sandbox_cpu_seconds",
		"requests_per_resource", "connections", "requests_per_resource_by_route",
		"request_floor_seconds", "request_floor_cpu_seconds", "request_floor_sandbox_cpu_seconds",
		"ratio_to_request_floor", "request_floor_ratio",
		"paired_ratio", "paired_cpu_ratio", "paired_ratio_to_request_floor", "paired_request_floor_ratio"}, recs); err != nil {
		return err
	}
	recs = nil
	for _, r := range lrows {
		recs = append(recs, []string{strconv.Itoa(r.N), strconv.FormatInt(r.LatencyMS, 10), ff(r.FloorApply),
			strconv.FormatInt(r.Requests, 10), ff(r.Bound), ff(r.Apply), ff(r.Ratio)})
	}
	if err := writeCSV(filepath.Join(dir, "latency.csv"), []string{"n", "latency_ms", "floor_apply_seconds", "requests",
		"bound_seconds", "apply_seconds", "ratio"}, recs); err != nil {
		return err
	}
	recs = nil
	for _, s := range samples {
		reqs, conns := "", ""
		if s.Delta != nil {
			reqs, conns = strconv.FormatInt(s.Delta.Total, 10), strconv.FormatInt(s.Delta.Connections, 10)
		}
		recs = append(recs, []string{strconv.Itoa(s.N), s.Op, s.Provider, strconv.Itoa(s.Rep + 1),
			strconv.FormatInt(s.LatencyMS, 10), ff(s.Seconds), ff(s.CPUSeconds), ff(s.SandboxCPUSeconds), reqs, conns})
	}
	return writeCSV(filepath.Join(dir, "samples.csv"), []string{"n", "operation", "provider", "run", "latency_ms",
		"seconds", "cpu_seconds", "sandbox_cpu_seconds", "requests", "connections"}, recs)
}

// report prints the tables and writes the CSV files and the plot; failed
// tells whether a measured threshold was missed.
func (b *bench) report() (failed bool, err error) {
	rows := aggregate(b.samples, b.o.ns)
	lrows := latencyRows(b.samples, b.o.latencyN, b.o.latencies, b.o.parallelism)
	rlRows := rateLimitMedians(b.rateLimitRuns)
	cs := append(checks(rows, lrows, b.o.checkN, b.o.parallelism), rateLimitChecks(rlRows)...)
	writeTables(os.Stdout, rows, lrows, rlRows, b.floorPacedRuns, cs, b.o.parallelism)
	if err := writeCSVs(b.o.outDir, rows, lrows, b.samples); err != nil {
		return false, err
	}
	if err := writeFloorPacedCSV(b.o.outDir, b.floorPacedRuns); err != nil {
		return false, err
	}
	if err := writeRateLimitCSV(b.o.outDir, b.rateLimitRuns); err != nil {
		return false, err
	}
	if len(rlRows) > 0 {
		p := filepath.Join(b.o.outDir, "ratelimit.png")
		if err := writeRateLimitPlot(p, rlRows); err != nil {
			return false, err
		}
		fmt.Printf("\nWrote %s, %s and %s.\n", filepath.Join(b.o.outDir, "ratelimit.csv"), filepath.Join(b.o.outDir, "ratelimit-floor.csv"), p)
	}
	plotPath := filepath.Join(b.o.outDir, "bench.png")
	if err := writePlot(plotPath, rows); err != nil {
		return false, err
	}
	fmt.Printf("\nWrote %s, %s, %s and %s.\n", filepath.Join(b.o.outDir, "bench.csv"), filepath.Join(b.o.outDir, "latency.csv"),
		filepath.Join(b.o.outDir, "samples.csv"), plotPath)
	for _, c := range cs {
		failed = failed || (c.Measured && !c.Pass())
	}
	return failed, nil
}
