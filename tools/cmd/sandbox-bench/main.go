// Command sandbox-bench measures how many creates per second the
// payments-sandbox program answers, in memory and with -data, at several
// numbers of concurrent clients, each with a key (an account) of its own,
// as a CI fleet sharing one sandbox has. Beside them it measures the
// disk's sync rate in the data file's directory: the most durable
// transactions per second the disk allows, which -data's throughput is
// bounded by unless writes share their syncs.
//
// It runs the real binary over loopback. With -baseline it runs a second
// binary the same way, cell after cell with the first, so that a shared
// machine's load falls on both alike. Run it with `make bench-sandbox`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/build"
)

type config struct {
	sandbox  string
	baseline string
	clients  []int
	duration time.Duration
	rounds   int
	dir      string
	log      bool
}

func main() {
	var cfg config
	var clients string
	flag.StringVar(&cfg.sandbox, "sandbox", "", "payments-sandbox binary to measure (default: built from the repository into a temporary directory)")
	flag.StringVar(&cfg.baseline, "baseline", "", "a second payments-sandbox binary, measured the same way in the same run (an older build, say)")
	flag.StringVar(&clients, "clients", "1,8,32", "comma-separated numbers of concurrent clients, each with its own key")
	flag.DurationVar(&cfg.duration, "duration", 5*time.Second, "how long each measurement runs: long enough that -data's checkpoints, which apply its write-ahead log every 3 s or 16 MiB, fall inside it")
	flag.IntVar(&cfg.rounds, "rounds", 3, "measurements per cell; the median is reported")
	flag.StringVar(&cfg.dir, "dir", "", "directory for the data files and the sync test (default: a temporary directory)")
	flag.BoolVar(&cfg.log, "log", false, "show the sandboxes' logs on standard error")
	flag.Parse()
	for f := range strings.SplitSeq(clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "sandbox-bench: -clients %q: %q is not a positive number\n", clients, f)
			os.Exit(2)
		}
		cfg.clients = append(cfg.clients, n)
	}
	if cfg.rounds < 1 || cfg.duration <= 0 {
		fmt.Fprintln(os.Stderr, "sandbox-bench: -rounds and -duration must be positive")
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintf(os.Stderr, "sandbox-bench: %v\n", err)
		os.Exit(1)
	}
}

// binary is one payments-sandbox program under measurement.
type binary struct{ name, path string }

// cell is one measurement's coordinates.
type cell struct {
	bin     string
	durable bool
	clients int
}

func run(cfg config) error {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "sandbox-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if cfg.dir == "" {
		cfg.dir = tmp
	}
	if cfg.sandbox == "" {
		root, err := build.Root()
		if err != nil {
			return err
		}
		cfg.sandbox = filepath.Join(tmp, "payments-sandbox")
		if err := build.Program(ctx, root, "./cmd/payments-sandbox", cfg.sandbox); err != nil {
			return err
		}
	}
	bins := []binary{{"current", cfg.sandbox}}
	if cfg.baseline != "" {
		bins = append(bins, binary{"baseline", cfg.baseline})
	}

	results := make(map[cell][]float64)
	var syncs []float64
	for round := range cfg.rounds {
		rate, err := syncRate(cfg.dir, 2*time.Second)
		if err != nil {
			return fmt.Errorf("measuring the disk's sync rate in %s: %w", cfg.dir, err)
		}
		syncs = append(syncs, rate)
		fmt.Fprintf(os.Stderr, "round %d: the disk syncs %.0f times/s\n", round+1, rate)
		for _, n := range cfg.clients {
			for _, durable := range []bool{false, true} {
				for _, b := range bins {
					c := cell{b.name, durable, n}
					r, err := measure(ctx, b.path, cfg, durable, n)
					if err != nil {
						return fmt.Errorf("%s, %s, %d clients: %w", b.name, storeName(durable), n, err)
					}
					results[c] = append(results[c], r)
					fmt.Fprintf(os.Stderr, "round %d: %-8s %-7s %2d clients: %6.0f creates/s\n", round+1, b.name, storeName(durable), n, r)
				}
			}
		}
	}
	report(os.Stdout, cfg, bins, results, median(syncs))
	return nil
}

func storeName(durable bool) string {
	if durable {
		return "-data"
	}
	return "memory"
}

// measure starts the binary (on a fresh data file when durable) and runs
// clients concurrent clients creating customers for d.
func measure(ctx context.Context, bin string, cfg config, durable bool, clients int) (float64, error) {
	var args []string
	if durable {
		f, err := os.CreateTemp(cfg.dir, "bench-*.db")
		if err != nil {
			return 0, err
		}
		f.Close()
		os.Remove(f.Name())
		defer os.Remove(f.Name())
		args = append(args, "-data", f.Name())
	}
	opts := sandboxtest.ProcessOptions{Args: args}
	if cfg.log {
		opts.Log = os.Stderr
	}
	p, err := sandboxtest.StartProcess(ctx, bin, opts)
	if err != nil {
		return 0, err
	}
	defer func() { _ = p.Stop() }()

	hc := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients},
	}
	defer hc.CloseIdleConnections()
	keys := make([]string, clients)
	for i := range keys {
		keys[i] = wire.SecretKeySandboxPrefix + "bench" + strconv.FormatInt(time.Now().UnixNano(), 36) + "c" + strconv.Itoa(i)
		// One create first: the account exists and the connection is open
		// before the clock starts.
		if err := create(hc, p.URL, keys[i]); err != nil {
			return 0, err
		}
	}

	var done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(cfg.duration)
	for _, key := range keys {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := create(hc, p.URL, key); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if firstErr != nil {
		return 0, firstErr
	}
	return float64(done.Load()) / elapsed.Seconds(), nil
}

var createBody = url.Values{"email": {"ci@example.com"}, "name": {"Bench Customer"}, "metadata[run]": {"bench"}}.Encode()

// create makes one customer and reads the whole answer.
func create(hc *http.Client, base, key string) error {
	req, err := http.NewRequest(http.MethodPost, base+wire.PathCustomers, strings.NewReader(createBody))
	if err != nil {
		return err
	}
	req.SetBasicAuth(key, "")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("create answered %d: %s", resp.StatusCode, body)
	}
	return nil
}

// syncRate writes and syncs a small file in dir in a loop for d, as a
// database commit does, and returns the syncs per second.
func syncRate(dir string, d time.Duration) (float64, error) {
	f, err := os.CreateTemp(dir, "sync-*.bin")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, 512)
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		buf[0] = byte(n)
		if _, err := f.WriteAt(buf, 0); err != nil {
			return 0, err
		}
		if err := f.Sync(); err != nil {
			return 0, err
		}
		n++
	}
	if n == 0 {
		return 0, errors.New("no sync finished")
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// report prints one row per binary and client count: creates/s in
// memory and with -data, their ratio, and -data's rate per disk sync.
func report(w io.Writer, cfg config, bins []binary, results map[cell][]float64, syncs float64) {
	fmt.Fprintf(w, "Creates/s (median of %d runs of %s each); the disk syncs %.0f times/s in %s.\n\n", cfg.rounds, cfg.duration, syncs, cfg.dir)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "binary\tclients\tmemory\t-data\t-data/memory\t-data per sync\t")
	for _, n := range cfg.clients {
		for _, b := range bins {
			mem, dur := median(results[cell{b.name, false, n}]), median(results[cell{b.name, true, n}])
			fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.2f\t%.2f\t\n", b.name, n, mem, dur, dur/mem, dur/syncs)
		}
	}
	tw.Flush()
	if len(bins) == 2 {
		fmt.Fprintln(w, "\n-data, current over baseline:")
		for _, n := range cfg.clients {
			cur, base := median(results[cell{"current", true, n}]), median(results[cell{"baseline", true, n}])
			fmt.Fprintf(w, "  %2d clients: %.2f×\n", n, cur/base)
		}
	}
}
