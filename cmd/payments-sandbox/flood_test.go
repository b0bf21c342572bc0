package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// floodMemoryBound is what the defaults promise (-h of -max-total-bytes):
// a flood never takes the process past this resident size.
const floodMemoryBound = 512 << 20

// TestFlood_DefaultLimitsBoundMemory floods the real program, started with
// its default flags, the way a shared CI sandbox can be flooded: thousands
// of keys each sending a request with 28 KB of metadata, thousands more
// such requests to keys that have accounts (1,500 of them to one key),
// then 5,000 new keys. Every request must be answered, with 200 or a
// documented 403 refusal, and the peak resident size (VmHWM) must stay
// under 512 MiB.
func TestFlood_DefaultLimitsBoundMemory(t *testing.T) {
	sb, log := startDefaults(t)
	f := newFlood(t, sb.URL)
	big := bigMetadata()
	t.Logf("each large request's body is %d bytes", len(big.Encode()))

	keys := make([]string, 2000)
	for i := range keys {
		keys[i] = sandboxtest.NewKey(t)
	}
	// 1. Each of 2,000 keys creates a customer with 28 KB of metadata:
	// past -max-accounts the new keys are refused.
	f.run(len(keys), func(i int) (string, url.Values, string) {
		return keys[i], big, fmt.Sprintf("create-%d", i)
	})
	// 2. 1,500 more to one key, past -max-account-bytes, then 3,000 to
	// keys that have accounts, past -max-total-bytes.
	f.run(4500, func(i int) (string, url.Values, string) {
		k := keys[0]
		if i >= 1500 {
			k = keys[i%997]
		}
		return k, big, fmt.Sprintf("more-%d", i)
	})
	// 3. 5,000 new keys.
	f.run(5000, func(int) (string, url.Values, string) {
		return sandboxtest.NewKey(t), url.Values{"name": {"Flood"}}, ""
	})

	peak := peakResident(t, sb.Pid())
	t.Logf("answers: %v; peak resident size %.1f MiB", f.counts, float64(peak)/(1<<20))
	for _, want := range []string{"200", "403 " + wire.ErrorCodeAccountLimitExceeded, "403 " + wire.ErrorCodeSandboxLimitExceeded} {
		if f.counts[want] == 0 {
			t.Errorf("no answer %s: the flood did not reach every limit (%v)", want, f.counts)
		}
	}
	if peak >= floodMemoryBound {
		t.Errorf("peak resident size %d bytes, over the %d the defaults promise; log:\n%s", peak, floodMemoryBound, log)
	}
}

// startDefaults starts the real program with its default flags and
// environment, for a flood whose peak resident size is then read.
func startDefaults(t *testing.T) (*sandboxtest.Process, *sandboxtest.Buffer) {
	t.Helper()
	bin := binary(t)
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: the peak resident size cannot be read")
	}
	// The defaults under test, not the environment's.
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	log := &sandboxtest.Buffer{}
	sb, err := sandboxtest.StartProcess(t.Context(), bin, sandboxtest.ProcessOptions{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sb.Stop(); err != nil {
			t.Errorf("stopping the sandbox: %v", err)
		}
	})
	return sb, log
}

// bigMetadata is 50 keys of 40 characters with values of 500: the most
// metadata a customer may have, about 28 KB form-encoded.
func bigMetadata() url.Values {
	v := url.Values{}
	for i := range wire.MetadataMaxKeys {
		key := fmt.Sprintf("%02d", i) + strings.Repeat("k", wire.MetadataKeyMaxLength-2)
		v.Set("metadata["+key+"]", strings.Repeat(string(rune('a'+i%26)), wire.MetadataValueMaxLength))
	}
	return v
}

// flood sends requests with a few workers, as a CI fleet's clients on a
// two-core machine would, and counts the answers by status and code.
type flood struct {
	t      *testing.T
	url    string
	hc     *http.Client
	mu     sync.Mutex
	counts map[string]int
}

const floodWorkers = 4

func newFlood(t *testing.T, base string) *flood {
	tr := &http.Transport{MaxIdleConnsPerHost: floodWorkers}
	t.Cleanup(tr.CloseIdleConnections)
	return &flood{t: t, url: base, hc: &http.Client{Transport: tr}, counts: map[string]int{}}
}

// run sends n POST /v1/customers, the i-th with the key, form and
// Idempotency-Key (none when "") that req returns.
func (f *flood) run(n int, req func(i int) (key string, form url.Values, idem string)) {
	f.t.Helper()
	next := make(chan int)
	var wg sync.WaitGroup
	var failed sync.Once
	for range floodWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				key, form, idem := req(i)
				if err := f.send(key, form, idem); err != nil {
					failed.Do(func() { f.t.Errorf("request %d: %v", i, err) })
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if f.t.Failed() {
		f.t.FailNow()
	}
}

func (f *flood) send(key string, form url.Values, idem string) error {
	r, err := http.NewRequest(http.MethodPost, f.url+wire.PathCustomers, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	r.SetBasicAuth(key, "")
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if idem != "" {
		r.Header.Set(wire.HeaderIdempotencyKey, idem)
	}
	resp, err := f.hc.Do(r)
	if err != nil {
		return fmt.Errorf("no answer: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("reading the answer: %w", err)
	}
	outcome := strconv.Itoa(resp.StatusCode)
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusForbidden:
		var eb wire.ErrorBody
		if err := json.Unmarshal(body, &eb); err != nil || eb.Error == nil ||
			(eb.Error.Code != wire.ErrorCodeAccountLimitExceeded && eb.Error.Code != wire.ErrorCodeSandboxLimitExceeded) {
			return fmt.Errorf("403 that is not a documented refusal: %.300s", body)
		}
		outcome += " " + eb.Error.Code
	default:
		return fmt.Errorf("HTTP %d, neither 200 nor a documented refusal: %.300s", resp.StatusCode, body)
	}
	f.mu.Lock()
	f.counts[outcome]++
	f.mu.Unlock()
	return nil
}

// peakResident reads a process's peak resident set size (VmHWM).
func peakResident(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("/proc/%d/status has no VmHWM", pid)
	return 0
}
