package main

import (
	"bytes"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestSelectMixes_Only(t *testing.T) {
	for _, tc := range []struct {
		only string
		want []string
		err  string
	}{
		{only: "", want: []string{"baseline", "errors-20%", "drops-10%", "ratelimit-20/s", "combined", "interrupt"}},
		// The soak's order, whatever the flag's.
		{only: "interrupt, baseline", want: []string{"baseline", "interrupt"}},
		{only: "baseline,basline", err: `no mix "basline"; the mixes are baseline, errors-20%`},
	} {
		got, err := selectMixes(tc.only)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got error %v, want %q", tc.only, err, tc.err)
			}
			continue
		}
		var names []string
		for _, m := range got {
			names = append(names, m.Name)
		}
		if err != nil || strings.Join(names, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: got %v, %v; want %v", tc.only, names, err, tc.want)
		}
	}
}

func TestFaultsString_EveryMix(t *testing.T) {
	for _, m := range mixes {
		got := faultsString(m)
		want := map[string]string{
			"baseline": "none", "errors-20%": "err 0.2", "drops-10%": "drop 0.1", "ratelimit-20/s": "20/s",
			"combined": "err 0.1 drop 0.05 20/s 20ms", "interrupt": "err 0.05 drop 0.05 100ms SIGINT",
		}[m.Name]
		if got != want {
			t.Errorf("%s: got %q, want %q", m.Name, got, want)
		}
	}
}

func TestConfigHCL_Settings(t *testing.T) {
	got := configHCL(config{n: 7, maxRetries: 15}, "http://127.0.0.1:1", "errors-20%")
	for _, want := range []string{
		`source = "paymentsdev/payments"`, `base_url    = "http://127.0.0.1:1"`, "max_retries = 15",
		"count = 7", "count    = 7", `soak_mix   = "errors-20%"`, `token    = "` + sandbox.TokenVisa + `"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("configuration lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "sk_") {
		t.Error("the key must not be in the configuration")
	}
}

func TestPlanSummary_LineOrTail(t *testing.T) {
	if got := planSummary("x\n  Plan: 0 to add, 2 to change, 0 to destroy.\ny\n"); got != "Plan: 0 to add, 2 to change, 0 to destroy." {
		t.Errorf("got %q", got)
	}
	if got := planSummary("no summary\nhere\n"); got != "no summary\nhere" {
		t.Errorf("without a Plan: line, want the tail; got %q", got)
	}
}

func TestPrintTable_Markdown(t *testing.T) {
	good := &result{Mix: mixes[0], Resources: 40, ApplyRuns: 1, Requests: 123, Customers: 20, Sources: 20, PlanEmpty: true, Duration: 9 * time.Second}
	bad := &result{Mix: mixes[5], Resources: 40, ApplyRuns: 3, Orphans: 1, PlanEmpty: true, InterruptAt: 7, InterruptState: 14,
		InterruptOrphans: 1, ApplyErr: "Error: Boom", Injected: wire.StatsFaults{Errors: 5, Drops: 2, RateLimited: 3}}
	if !good.ok() || bad.ok() {
		t.Fatalf("ok: good %v, bad %v", good.ok(), bad.ok())
	}
	var b bytes.Buffer
	printTable(&b, []*result{good, bad})
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[0], "| mix       | faults set ") || !strings.HasPrefix(lines[1], "| --------- | ---") || !strings.HasSuffix(lines[1], ": |") {
		t.Errorf("header:\n%s\n%s", lines[0], lines[1])
	}
	for _, want := range []string{
		"| baseline  | none ", "|      123 |", "|        yes |",
		"| interrupt | err 0.05 drop 0.05 100ms SIGINT |",
		"interrupt: terraform was sent SIGINT when 7 customers existed; when it stopped, state held 14 resource instances and the service 1 objects it did not know",
		"interrupt: apply: Error: Boom",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestCountKeys_EveryOccurrence(t *testing.T) {
	log := []byte("a sk_sandbox_one b sk_sandbox_one c sk_sandbox_two")
	if got := countKeys(log, []string{"sk_sandbox_one", "sk_sandbox_two", "sk_sandbox_three"}); got != 3 {
		t.Errorf("got %d, want 3", got)
	}
}
