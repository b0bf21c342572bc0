package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/paymentsdev/terraform-provider-payments/internal/journal"
)

// The journal phase (-journal-rounds) answers one question: what the
// create journal adds to an apply, at a resolution this machine allows.
// Each round applies the same configuration three times, in an order
// drawn from the seed: with the journal on, with it off, and with it off
// again. The second off is the A/A control: off again ÷ off is what the
// noise alone makes of a ratio in the same run, beside on ÷ off. Each
// apply starts from nothing (the account reset and the state removed,
// untimed), so every one creates the same 2N objects.
const (
	armOn       = "journal-on"
	armOff      = "journal-off"
	armOffAgain = "journal-off-again"
)

// journalRatios are one ratio's run-by-run values and what they give.
type journalRatios struct {
	Name string
	// Ratios are the round-by-round ratios, wall or CPU.
	Ratios []float64
	// Median and its 95 % bootstrap interval.
	Median, Lo, Hi float64
	// MinRatio is the ratio of the two arms' fastest runs: noise on a
	// shared machine only ever adds time, so the minima are the least
	// disturbed runs.
	MinRatio float64
}

// timeJournal runs the journal phase at N = -journal-n.
func (b *bench) timeJournal(ctx context.Context, rng *rand.Rand) error {
	n := b.o.journalN
	arms := make([]target, 3)
	for i, name := range []string{armOn, armOff, armOffAgain} {
		arms[i] = b.payments
		arms[i].name = name
		if name != armOn {
			arms[i].env = append(slices.Clone(b.payments.env), journal.EnvDisable+"=off")
		}
		if err := writeConfig(b.dir(arms[i], n), arms[i].spec, n, b.o.mix); err != nil {
			return err
		}
	}
	fmt.Printf("journal phase: %d rounds of %s, %s and %s at N=%d, each round in an order drawn from seed %d\n",
		b.o.journalRounds, armOn, armOff, armOffAgain, n, b.o.seed)
	if b.o.warmup {
		for _, t := range arms {
			if err := b.run(ctx, t, n, opApply, 0, 0, false); err != nil {
				return fmt.Errorf("warm-up: %w", err)
			}
			if err := b.forget(ctx, t, n); err != nil {
				return err
			}
		}
	}
	for round := range b.o.journalRounds {
		for _, i := range rng.Perm(len(arms)) {
			if err := b.measure(ctx, arms[i], n, opApply, round, 0); err != nil {
				return err
			}
			if err := b.forget(ctx, arms[i], n); err != nil {
				return err
			}
		}
	}
	return nil
}

// journalResults pairs the phase's samples round by round: on ÷ off and
// off again ÷ off, by wall-clock and by CPU time.
func journalResults(samples []sample, rng *rand.Rand) []journalRatios {
	by := map[string]map[int]sample{}
	for _, s := range samples {
		if by[s.Provider] == nil {
			by[s.Provider] = map[int]sample{}
		}
		by[s.Provider][s.Rep] = s
	}
	ratio := func(name, a, b string, value func(sample) float64) journalRatios {
		r := journalRatios{Name: name}
		var minA, minB []float64
		for rep, sa := range by[a] {
			sb, ok := by[b][rep]
			if !ok || value(sb) <= 0 {
				continue
			}
			r.Ratios = append(r.Ratios, value(sa)/value(sb))
			minA, minB = append(minA, value(sa)), append(minB, value(sb))
		}
		if len(r.Ratios) == 0 {
			return r
		}
		slices.Sort(r.Ratios) // map order is random; the bootstrap must see one order to replay
		r.Median, r.Lo, r.Hi = medianCI(r.Ratios, rng)
		r.MinRatio = slices.Min(minA) / slices.Min(minB)
		return r
	}
	wall := func(s sample) float64 { return s.Seconds }
	cpu := func(s sample) float64 { return s.CPUSeconds }
	return []journalRatios{
		ratio("apply wall, on ÷ off", armOn, armOff, wall),
		ratio("apply wall, off again ÷ off (A/A)", armOffAgain, armOff, wall),
		ratio("apply CPU, on ÷ off", armOn, armOff, cpu),
		ratio("apply CPU, off again ÷ off (A/A)", armOffAgain, armOff, cpu),
	}
}

// journalVerdict says what the run shows of on ÷ off against the limit:
// within it when the whole interval is, over it when the whole interval
// is, and otherwise that the run cannot tell, with the A/A interval's
// half-width as the resolution this machine gave.
func journalVerdict(on, aa journalRatios, limit float64) string {
	switch {
	case len(on.Ratios) == 0:
		return "not measured"
	case on.Hi <= limit:
		return fmt.Sprintf("PASS: the 95 %% interval %.4f–%.4f is within %.2f", on.Lo, on.Hi, limit)
	case on.Lo > limit:
		return fmt.Sprintf("FAIL: the 95 %% interval %.4f–%.4f is above %.2f", on.Lo, on.Hi, limit)
	}
	return fmt.Sprintf("NOT SHOWN: the 95 %% interval %.4f–%.4f straddles %.2f; the same run's A/A interval is %.4f–%.4f (±%.1f %%), the resolution this machine gave; run more rounds or on a quieter machine",
		on.Lo, on.Hi, limit, aa.Lo, aa.Hi, (aa.Hi-aa.Lo)/2*100)
}

// writeJournalReport prints the phase's table and verdicts; failed is
// true only when the journal was shown to cost more than the limit.
func writeJournalReport(w io.Writer, rs []journalRatios, n, rounds int, seed uint64) (failed bool) {
	fmt.Fprintf(w, "\nThe create journal's cost: apply of N=%d, %d rounds, order and bootstrap seed %d (-seed %d replays the order)\n", n, rounds, seed, seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ratio\trounds\tmedian\t95% interval\tmin ÷ min\t5th–95th percentile")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f–%.4f\t%.4f\t%.4f–%.4f\n", r.Name, len(r.Ratios), r.Median, r.Lo, r.Hi, r.MinRatio,
			percentile(r.Ratios, 0.05), percentile(r.Ratios, 0.95))
	}
	tw.Flush()
	for _, pair := range [][2]journalRatios{{rs[0], rs[1]}, {rs[2], rs[3]}} {
		v := journalVerdict(pair[0], pair[1], maxJournalRatio)
		fmt.Fprintf(w, "%s ≤ %.2f: %s\n", pair[0].Name, maxJournalRatio, v)
		failed = failed || strings.HasPrefix(v, "FAIL")
	}
	return failed
}

// journalCSV writes journal.csv: every timed apply of the phase, by round.
func journalCSV(dir string, samples []sample) error {
	var recs [][]string
	for _, s := range samples {
		recs = append(recs, []string{strconv.Itoa(s.Rep + 1), s.Provider, strconv.Itoa(s.N), ff(s.Seconds), ff(s.CPUSeconds), ff(s.SandboxCPUSeconds)})
	}
	return writeCSV(filepath.Join(dir, "journal.csv"), []string{"round", "arm", "n", "seconds", "cpu_seconds", "sandbox_cpu_seconds"}, recs)
}

// journalPhase runs the journal phase alone and reports it.
func (b *bench) journalPhase(ctx context.Context) (failed bool, err error) {
	rng := rand.New(rand.NewPCG(b.o.seed, 0))
	if err := b.timeJournal(ctx, rng); err != nil {
		return false, err
	}
	fmt.Printf("done; %s\n", loadAverage())
	failed = writeJournalReport(os.Stdout, journalResults(b.samples, rng), b.o.journalN, b.o.journalRounds, b.o.seed)
	if err := journalCSV(b.o.outDir, b.samples); err != nil {
		return false, err
	}
	fmt.Printf("\nWrote %s.\n", filepath.Join(b.o.outDir, "journal.csv"))
	return failed, nil
}
