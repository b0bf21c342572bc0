package provider

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
)

// The kill tests kill the CLI with SIGKILL while creates are in flight
// (a cancelled CI job, the OOM killer), then apply again in the same
// working directory: the create journal must leave every configured
// object made once, in state, with an empty plan after.

// killConfig has every kind of object the provider creates; the customers
// and payments are counted copies of one configuration each.
const killConfig = `
resource "payments_test_clock" "c" {
  name        = "Kill test"
  frozen_time = "2026-01-01T00:00:00Z"
}

resource "payments_customer" "clocked" {
  name       = "Clocked"
  test_clock = payments_test_clock.c.id
}

resource "payments_customer" "same" {
  count = 3
  name  = "Same"
}

resource "payments_customer" "subscriber" {
  name = "Subscriber"
}

resource "payments_customer_source" "card" {
  customer = payments_customer.subscriber.id
  token    = "tok_visa"
}

resource "payments_payment" "same" {
  count    = 3
  amount   = 1000
  currency = "USD"
  source   = "tok_visa"
  capture  = true
}

resource "payments_webhook_endpoint" "w" {
  url            = "http://127.0.0.1:4242/webhooks"
  enabled_events = ["payment.approved"]
}

resource "payments_product" "p" {
  name = "Kill test plan"
}

resource "payments_price" "monthly" {
  product     = payments_product.p.id
  currency    = "USD"
  unit_amount = 900
  interval    = "month"
}

resource "payments_subscription" "s" {
  customer          = payments_customer.subscriber.id
  default_source    = payments_customer_source.card.id
  items             = [{ price = payments_price.monthly.id }]
  trial_period_days = 7
}
`

// killWant is what killConfig makes, by kind.
var killWant = map[string]int{
	"customers": 5, "sources": 1, "payments": 3, "webhook endpoints": 1,
	"products": 1, "prices": 1, "subscriptions": 1, "test clocks": 1,
}

// killLatency keeps each request at the sandbox long enough for creates
// to be in flight when the CLI is killed.
const killLatency = 300 * time.Millisecond

// TestAccProvider_Kill_ApplyAgainMakesNoDuplicate kills the CLI after the
// sandbox received the first POST, a few and most of them, applies again
// in the same working directory, and counts every kind of object.
func TestAccProvider_Kill_ApplyAgainMakesNoDuplicate(t *testing.T) {
	skipUnlessAcc(t)
	if runtime.GOOS == "windows" {
		t.Skip("kills the CLI with SIGKILL and reads /proc")
	}
	t.Parallel()
	providerDir := sharedProviderBinary(t)
	// After the n-th POST has reached the sandbox.
	for _, posts := range []int64{1, 5, 9} {
		t.Run(fmt.Sprintf("after %d posts", posts), func(t *testing.T) {
			t.Parallel()
			acct := newTestAccAccount(t)
			tf := newTFCLI(t, providerDir)
			tf.writeConfig(cliRequiredProviders + acct.ProviderConfig() + killConfig)
			sb := sandboxclient.New(acct.Client)
			setLatency(t, sb, killLatency)

			killed := killApplyAfterPosts(t, tf, sb, posts)
			setLatency(t, sb, 0)
			if killed {
				out := tf.mustRun("apply", "-auto-approve", "-parallelism=10")
				t.Logf("apply after the kill: %d adoption(s)", strings.Count(out, "Adopted Object From An Interrupted Run"))
			}
			checkKillOutcome(t, tf, acct.Client, sb)
		})
	}
}

// killApplyAfterPosts starts an apply, kills the CLI once the sandbox has
// received posts POSTs, and waits for the provider's processes to end on
// their own. It reports false when the apply ended before.
func killApplyAfterPosts(t *testing.T, tf *tfCLI, sb *sandboxclient.Client, posts int64) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := tf.start(ctx, "apply", "-auto-approve", "-parallelism=10")
	done := make(chan struct{})
	go func() { _, _ = cmd.Wait(); close(done) }()
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case <-done:
			t.Logf("the apply ended before %d POSTs:\n%s", posts, cmd.Output())
			return false
		default:
		}
		if postCount(t, sb) >= posts {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sandbox never received %d POSTs:\n%s", posts, cmd.Output())
		}
		time.Sleep(20 * time.Millisecond)
	}
	plugins := childProcesses(cmd.Pid())
	if err := cmd.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done
	t.Logf("killed the CLI after %d POSTs; %d plugin process(es) were running", posts, len(plugins))
	waitGone(t, plugins, 10*time.Second)
	return true
}

func postCount(t *testing.T, sb *sandboxclient.Client) int64 {
	t.Helper()
	st, err := sb.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for route, c := range st.Requests.ByRoute {
		if strings.HasPrefix(route, "POST ") {
			n += c
		}
	}
	return n
}

func setLatency(t *testing.T, sb *sandboxclient.Client, d time.Duration) {
	t.Helper()
	ms := d.Milliseconds()
	if _, err := sb.SetFaults(context.Background(), sandboxclient.FaultsParams{LatencyMS: &ms}); err != nil {
		t.Fatalf("setting the sandbox's latency: %v", err)
	}
}

// checkKillOutcome checks that the plan is empty, that the service holds
// each configured object once, and that each is in state.
func checkKillOutcome(t *testing.T, tf *tfCLI, c *client.Client, sb *sandboxclient.Client) {
	t.Helper()
	if out, code := tf.run("plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the apply is not empty (exit %d):\n%s", code, out)
	}
	ctx := context.Background()
	st, err := sb.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{
		"customers":         int(st.Customers),
		"sources":           int(st.Sources),
		"payments":          count(t, c.AllPayments(ctx, nil)),
		"webhook endpoints": countList(t, func() (int, error) { l, err := c.ListWebhookEndpoints(ctx, nil); return lenOr(l, err) }),
		"products":          count(t, c.AllProducts(ctx, nil)),
		"prices":            count(t, c.AllPrices(ctx, nil)),
		"subscriptions":     count(t, c.AllSubscriptions(ctx, nil)),
		"test clocks":       count(t, c.AllTestClocks(ctx, nil)),
	}
	for kind, want := range killWant {
		if got[kind] != want {
			t.Errorf("the service holds %d %s, want %d (a create was made twice)", got[kind], kind, want)
		}
	}
	ids := map[string]bool{}
	n := 0
	for _, r := range tf.state() {
		if r.ID() == "" {
			continue
		}
		n++
		if ids[r.ID()] {
			t.Errorf("two resources in state hold %s", r.ID())
		}
		ids[r.ID()] = true
	}
	total := 0
	for _, w := range killWant {
		total += w
	}
	if n != total {
		t.Errorf("state holds %d objects, want %d", n, total)
	}
}

func count[T any](t *testing.T, seq iter.Seq2[T, error]) int {
	t.Helper()
	n := 0
	for _, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

func countList(t *testing.T, f func() (int, error)) int {
	t.Helper()
	n, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func lenOr(l *client.WebhookEndpointList, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return len(l.Data), nil
}

// childProcesses returns the ids of pid's children (Linux's /proc).
func childProcesses(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after
		// its closing parenthesis.
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// waitGone waits until none of pids runs (a zombie counts as gone).
func waitGone(t *testing.T, pids []int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var left []int
		for _, p := range pids {
			b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "stat"))
			if err != nil {
				continue
			}
			s := string(b)
			if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 && f[0] != "Z" {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the provider's processes %v still run %s after the CLI was killed", left, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// killTwoCustomers is a count of two equal customers.
const killTwoCustomers = `
resource "payments_customer" "same" {
  count = 2
  name  = "Same"
}
`

// TestAccProvider_Kill_DeletedObjectIsNotAdopted deletes, between the
// kill and the next apply, every customer the killed run made: the
// journal's orphans then name objects that are gone, and the service
// would still replay their creates' answers. They must be created anew.
func TestAccProvider_Kill_DeletedObjectIsNotAdopted(t *testing.T) {
	skipUnlessAcc(t)
	if runtime.GOOS == "windows" {
		t.Skip("kills the CLI with SIGKILL and reads /proc")
	}
	t.Parallel()
	acct := newTestAccAccount(t)
	tf := newTFCLI(t, sharedProviderBinary(t))
	tf.writeConfig(cliRequiredProviders + acct.ProviderConfig() + killTwoCustomers)
	sb := sandboxclient.New(acct.Client)
	setLatency(t, sb, killLatency)
	if !killApplyAfterPosts(t, tf, sb, 2) {
		t.Fatal("the apply ended before it could be killed")
	}
	setLatency(t, sb, 0)
	if n := journalEntries(t, tf); n == 0 {
		t.Fatal("the killed run left no journal entry: nothing tests the guard")
	}
	// Whatever reached state leaves it, so that every customer made is
	// one the journal alone knows of.
	for _, r := range tf.state() {
		tf.mustRun("state", "rm", r.Address)
	}
	ctx := context.Background()
	// Both creates reached the service; wait for it to have made them.
	for deadline := time.Now().Add(10 * time.Second); count(t, acct.Client.AllCustomers(ctx, nil)) < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the service never made the two customers whose creates it received")
		}
	}
	for cus, err := range acct.Client.AllCustomers(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := acct.Client.DeleteCustomer(ctx, cus.ID); err != nil {
			t.Fatal(err)
		}
	}
	tf.mustRun("apply", "-auto-approve")
	if out, code := tf.run("plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the apply is not empty (exit %d): an adopted object was gone\n%s", code, out)
	}
	if n := count(t, acct.Client.AllCustomers(ctx, nil)); n != 2 {
		t.Errorf("the service holds %d customers, want 2", n)
	}
}

// TestAccProvider_Kill_CleanRunIsNeverAdopted removes a customer from
// state after a run that ended cleanly: the next apply must make a new
// one, as it would without the journal, and adopt nothing.
func TestAccProvider_Kill_CleanRunIsNeverAdopted(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	acct := newTestAccAccount(t)
	tf := newTFCLI(t, sharedProviderBinary(t))
	tf.writeConfig(cliRequiredProviders + acct.ProviderConfig() + killTwoCustomers)
	tf.mustRun("apply", "-auto-approve")
	if n := journalEntries(t, tf); n != 0 {
		t.Errorf("a run that ended cleanly left %d journal entries", n)
	}
	tf.mustRun("state", "rm", "payments_customer.same[1]")
	out := tf.mustRun("apply", "-auto-approve")
	if strings.Contains(out, "Adopted Object") {
		t.Errorf("the apply adopted an object of a run that ended cleanly:\n%s", out)
	}
	if n := count(t, acct.Client.AllCustomers(context.Background(), nil)); n != 3 {
		t.Errorf("the service holds %d customers, want 3 (one removed from state, made again)", n)
	}
}

// journalEntries counts the entries in the working directory's journal
// (the default workspace's) that may be adopted: the lines that begin one
// in the logs of runs that did not end cleanly.
func journalEntries(t *testing.T, tf *tfCLI) int {
	t.Helper()
	names, err := os.ReadDir(filepath.Join(tf.dir, ".terraform", "payments-create-journal", "default"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range names {
		if strings.HasSuffix(e.Name(), ".log") {
			b, err := os.ReadFile(filepath.Join(tf.dir, ".terraform", "payments-create-journal", "default", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"clean":true`) {
				n += strings.Count(string(b), `"type":`)
			}
		}
	}
	return n
}

// TestAccProvider_Kill_UnwritableJournalWarnsOnce makes the journal's
// place a file, so that it cannot be made: creates go on as without the
// journal, and one warning says so.
func TestAccProvider_Kill_UnwritableJournalWarnsOnce(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	acct := newTestAccAccount(t)
	tf := newTFCLI(t, sharedProviderBinary(t))
	tf.writeConfig(cliRequiredProviders + acct.ProviderConfig() + killTwoCustomers)
	if err := os.MkdirAll(filepath.Join(tf.dir, ".terraform"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(tf.dir, ".terraform", "payments-create-journal"), "not a directory\n")
	out := tf.mustRun("apply", "-auto-approve", "-no-color")
	if n := strings.Count(out, "Warning: Create Journal Unavailable"); n != 1 {
		t.Errorf("the apply warned %d times that the journal is unavailable, want once:\n%s", n, out)
	}
	if n := count(t, acct.Client.AllCustomers(context.Background(), nil)); n != 2 {
		t.Errorf("the service holds %d customers, want 2", n)
	}
}
