package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/journal"
)

// options are the command's flags.
type options struct {
	ns            []int
	repeats       []int
	latencies     []int64
	latencyN      int
	latencyRepeat int
	plans         int
	parallelism   int
	checkN        int
	strict        bool
	// requestFloor adds the request floor to the timed runs.
	requestFloor bool
	// journalOff adds the payments provider with its create journal off.
	journalOff bool
	// journalRounds, when set, runs the journal phase alone: that many
	// rounds of apply at journalN with the journal on, off and off again.
	journalRounds int
	journalN      int
	// seed draws the journal phase's order and its bootstrap.
	seed uint64
	// warmup runs each provider's apply and destroy once, untimed, before
	// the first timed run.
	warmup    bool
	outDir    string
	binDir    string
	build     bool
	terraform string
	tfLog     string
	// mix is what each customer of the timed configurations brings.
	mix mix

	// rateLimits, rateLimitN and rateLimitRepeat drive the rate-limit phase.
	rateLimits      []int64
	rateLimitN      int
	rateLimitRepeat int
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	ns := fs.String("n", "100,500,1000", "comma-separated numbers of customers (each with a card, so 2N resources; 5N with -mix subscriptions)")
	mixFlag := fs.String("mix", string(mixCards), "what each customer brings: cards (a card) or subscriptions (a card, a product, its monthly price and a subscription to it)")
	repeats := fs.String("repeat", "3,3,1", "repetitions per N: one value for all, or one per -n value; the median is reported")
	lat := fs.String("latency", "20,50", "comma-separated sandbox latencies in ms for the latency table; empty skips it")
	fs.IntVar(&o.latencyN, "latency-n", 500, "N for the latency table")
	fs.IntVar(&o.plans, "plans", 3, "refresh plans per repetition (a plan changes nothing, so repeating it is cheap)")
	fs.IntVar(&o.latencyRepeat, "latency-repeat", 2, "repetitions per latency")
	rl := fs.String("ratelimit", "10,25", "comma-separated sandbox rate limits (requests per second) for the rate-limit table; empty skips it")
	fs.IntVar(&o.rateLimitN, "ratelimit-n", 80, "N for the rate-limit table")
	fs.IntVar(&o.rateLimitRepeat, "ratelimit-repeat", 2, "repetitions per rate limit and mode")
	fs.IntVar(&o.parallelism, "parallelism", 10, "terraform -parallelism (10 is Terraform's default)")
	fs.IntVar(&o.checkN, "check-n", 500, "N at which the acceptance thresholds are checked")
	fs.BoolVar(&o.strict, "strict", false, "exit 1 when a threshold is missed")
	fs.BoolVar(&o.journalOff, "journal-off", true, "also time the payments provider with its create journal off ("+journal.EnvDisable+"=off), to measure what the journal costs")
	fs.IntVar(&o.journalRounds, "journal-rounds", 0, "run only the journal phase: this many rounds, each applying N=-journal-n with the journal on, off and off again in a seeded random order, reporting the paired ratios with 95 % intervals and the A/A control")
	fs.IntVar(&o.journalN, "journal-n", 50, "N for the journal phase")
	fs.Uint64Var(&o.seed, "seed", 0, "seed of the journal phase's order and bootstrap (0: drawn at random, and printed)")
	fs.BoolVar(&o.requestFloor, "request-floor", true, "also time the request floor: the floor plus one plain request per resource to the sandbox, the least a provider that makes one request per resource can cost here")
	fs.BoolVar(&o.warmup, "warmup", true, "apply and destroy once with each provider, untimed, before the timed runs, so that no provider pays for a cold start")
	fs.StringVar(&o.outDir, "out", "", "directory for the CSV files, the plot, the working directories and the logs (default: .bench in the repository's root)")
	fs.StringVar(&o.binDir, "bin", "", "directory of the provider, sandbox and floor binaries (default: bin in the repository's root)")
	fs.BoolVar(&o.build, "build", true, "build the provider and the sandbox into -bin first (the floor provider is always built)")
	fs.StringVar(&o.terraform, "terraform", "", "the Terraform CLI, or OpenTofu (default: $TF_ACC_TERRAFORM_PATH, else terraform on PATH)")
	fs.StringVar(&o.tfLog, "tf-log", "", "TF_LOG level for the timed runs, written beside each run's log (slows them: for diagnosis only)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.mix = mix(*mixFlag)
	if !slices.Contains(mixes, o.mix) {
		return o, fmt.Errorf("-mix %q: want one of %v", *mixFlag, mixes)
	}
	var err error
	if o.ns, err = parseInts(*ns); err != nil || len(o.ns) == 0 {
		return o, fmt.Errorf("-n %q: want comma-separated positive integers such as 100,500,1000", *ns)
	}
	if o.repeats, err = parseInts(*repeats); err != nil || (len(o.repeats) != 1 && len(o.repeats) != len(o.ns)) {
		return o, fmt.Errorf("-repeat %q: want one positive integer, or one per -n value (%d)", *repeats, len(o.ns))
	}
	if len(o.repeats) == 1 {
		for range o.ns[1:] {
			o.repeats = append(o.repeats, o.repeats[0])
		}
	}
	ls, err := parseInts(*lat)
	if err != nil {
		return o, fmt.Errorf("-latency %q: want comma-separated milliseconds such as 20,50", *lat)
	}
	for _, l := range ls {
		o.latencies = append(o.latencies, int64(l))
	}
	rls, err := parseInts(*rl)
	if err != nil {
		return o, fmt.Errorf("-ratelimit %q: want comma-separated requests per second such as 10,25", *rl)
	}
	for _, l := range rls {
		o.rateLimits = append(o.rateLimits, int64(l))
	}
	if o.journalRounds < 0 || o.journalN < 1 {
		return o, errors.New("-journal-rounds must be at least 0 and -journal-n at least 1")
	}
	if o.seed == 0 {
		o.seed = rand.Uint64()
	}
	if o.rateLimitN < 1 || o.rateLimitRepeat < 1 {
		return o, errors.New("-ratelimit-n and -ratelimit-repeat must be at least 1")
	}
	if o.parallelism < 1 || o.latencyN < 1 || o.latencyRepeat < 1 || o.plans < 1 {
		return o, errors.New("-parallelism, -latency-n, -latency-repeat and -plans must be at least 1")
	}
	return o, nil
}

// parseInts parses a comma-separated list of positive integers; "" is none.
func parseInts(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}
