package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
)

// The interrupt tests stop an operation while its request is at the
// service, as Terraform does on Ctrl-C (it cancels the context of every
// operation in flight), and check that every object the service made is
// in the state the operation returns, or in Terraform's state: none is
// orphaned.

// interruptLatency keeps each /v1 request at the sandbox long enough for
// the test to interrupt it there.
const interruptLatency = 1500 * time.Millisecond

// recoveryMessage is the client's log entry when it finishes a POST whose
// context ended after it was sent.
const recoveryMessage = "recovering its outcome with the same idempotency key"

// TestAccProvider_Interrupt_CreateCancelledInFlight calls Create of each
// resource with a context cancelled while the create request is at the
// service.
func TestAccProvider_Interrupt_CreateCancelledInFlight(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	t.Parallel()

	t.Run("customer", func(t *testing.T) {
		t.Parallel()
		env := newInterruptEnv(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		env.cancelWhenAtService(ctx, "POST /v1/customers", cancel)

		r := NewCustomerResource()
		state := env.create(ctx, r, map[string]tftypes.Value{
			"email": tftypes.NewValue(tftypes.String, "interrupted@example.com"),
		})

		id := state.attr("id")
		if id == "" {
			t.Fatalf("Create returned no id after the interrupt; diagnostics: %v", state.diags)
		}
		if state.hasError {
			t.Errorf("Create of customer %s reported an error although the customer was made: %v", id, state.diags)
		}
		cus, err := env.api.GetCustomer(context.Background(), id)
		if err != nil {
			t.Fatalf("the customer %s returned by the interrupted Create is not at the service: %v", id, err)
		}
		if cus.Email != "interrupted@example.com" {
			t.Errorf("customer %s has email %q, want the planned one", id, cus.Email)
		}
		env.checkCounts(1, 0)
		env.checkRecovered()
	})

	t.Run("source made default", func(t *testing.T) {
		t.Parallel()
		env := newInterruptEnv(t)
		cus := env.customer()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		env.cancelWhenAtService(ctx, "POST /v1/customers/:id/sources", cancel)

		// default = true takes a second write after the source is stored;
		// the interrupt lands during the first, so the second cannot run.
		r := NewCustomerSourceResource()
		state := env.create(ctx, r, map[string]tftypes.Value{
			"customer": tftypes.NewValue(tftypes.String, cus),
			"token":    tftypes.NewValue(tftypes.String, sandbox.TokenMastercard),
			"default":  tftypes.NewValue(tftypes.Bool, true),
		})

		id := state.attr("id")
		if id == "" {
			t.Fatalf("Create returned no id after the interrupt, so the stored source would be orphaned; diagnostics: %v", state.diags)
		}
		if _, err := env.api.GetSource(context.Background(), cus, id); err != nil {
			t.Fatalf("the source %s returned by the interrupted Create is not at the service: %v", id, err)
		}
		if !state.hasError {
			t.Errorf("Create of source %s reported no error although it could not make the source the default", id)
		}
		if got := state.attr("default"); got != "false" {
			t.Errorf("state has default = %s for source %s, want false: it was not made the default", got, id)
		}
		env.checkCounts(1, 1)
		env.checkRecovered()
	})

	t.Run("cancelled before the request", func(t *testing.T) {
		t.Parallel()
		env := newInterruptEnv(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()

		state := env.create(ctx, NewCustomerResource(), map[string]tftypes.Value{
			"email": tftypes.NewValue(tftypes.String, "never@example.com"),
		})
		if !state.hasError {
			t.Errorf("Create with a cancelled context reported no error")
		}
		if !state.null {
			t.Errorf("Create with a cancelled context returned a state: %v", state.raw)
		}
		env.checkCounts(0, 0)
	})
}

// interruptEnv is a fresh account with the sandbox's latency on, and a
// client whose log the test reads.
type interruptEnv struct {
	t    *testing.T
	acct *testAccAccount
	api  *client.Client

	mu   sync.Mutex
	logs []string
}

func newInterruptEnv(t *testing.T) *interruptEnv {
	t.Helper()
	e := &interruptEnv{t: t, acct: newTestAccAccount(t)}
	api, err := client.New(client.Config{
		BaseURL: e.acct.URL, SecretKey: e.acct.Key, UserAgent: "terraform-provider-payments-tests",
		Log: func(_ context.Context, msg string, _ map[string]any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.logs = append(e.logs, msg)
		},
	})
	if err != nil {
		t.Fatalf("creating the client: %v", err)
	}
	e.api = api
	latency := interruptLatency.Milliseconds()
	if _, err := sandboxclient.New(api).SetFaults(context.Background(), sandboxclient.FaultsParams{LatencyMS: &latency}); err != nil {
		t.Fatalf("setting the sandbox's latency: %v", err)
	}
	return e
}

// customer makes a customer through the account's test client.
func (e *interruptEnv) customer() string {
	e.t.Helper()
	cus, err := e.acct.Client.CreateCustomer(context.Background(), &client.CustomerParams{})
	if err != nil {
		e.t.Fatalf("creating a customer: %v", err)
	}
	return cus.ID
}

// cancelWhenAtService calls cancel once the sandbox has received one more
// request on route than it had when this was called: the request is then
// held in the sandbox's latency, in flight.
func (e *interruptEnv) cancelWhenAtService(ctx context.Context, route string, cancel context.CancelFunc) {
	e.t.Helper()
	count := func() int64 {
		st, err := sandboxclient.New(e.acct.Client).Stats(context.Background())
		if err != nil {
			return -1
		}
		return st.Requests.ByRoute[route]
	}
	before := count()
	go func() {
		for ctx.Err() == nil {
			if count() > before {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
}

// createResult is what a resource's Create returned.
type createResult struct {
	raw      tftypes.Value
	null     bool
	hasError bool
	diags    string
	values   map[string]tftypes.Value
}

func (r *createResult) attr(name string) string {
	v, ok := r.values[name]
	if !ok || !v.IsKnown() || v.IsNull() {
		return ""
	}
	var s string
	if v.Type().Is(tftypes.String) {
		_ = v.As(&s)
		return s
	}
	if v.Type().Is(tftypes.Bool) {
		var b bool
		_ = v.As(&b)
		return fmt.Sprint(b)
	}
	return v.String()
}

// create runs r's Create, as Terraform's apply would, with the given
// configured attributes; other attributes are unknown when computed and
// null otherwise.
func (e *interruptEnv) create(ctx context.Context, r resource.Resource, set map[string]tftypes.Value) *createResult {
	e.t.Helper()
	var sresp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &sresp)
	if sresp.Diagnostics.HasError() {
		e.t.Fatalf("schema: %v", sresp.Diagnostics)
	}
	s := sresp.Schema
	if rc, ok := r.(resource.ResourceWithConfigure); ok {
		var cresp resource.ConfigureResponse
		rc.Configure(context.Background(), resource.ConfigureRequest{ProviderData: &providerData{client: e.api}}, &cresp)
		if cresp.Diagnostics.HasError() {
			e.t.Fatalf("configure: %v", cresp.Diagnostics)
		}
	}
	typ := s.Type().TerraformType(context.Background()).(tftypes.Object)
	config, plan := map[string]tftypes.Value{}, map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := set[name]; ok {
			config[name], plan[name] = v, v
			continue
		}
		config[name] = tftypes.NewValue(at, nil)
		plan[name] = tftypes.NewValue(at, nil)
		if a, ok := s.Attributes[name]; ok && a.IsComputed() {
			plan[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		}
	}
	req := resource.CreateRequest{
		Config: tfsdk.Config{Schema: s, Raw: tftypes.NewValue(typ, config)},
		Plan:   tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(typ, plan)},
	}
	resp := &resource.CreateResponse{State: tfsdk.State{Schema: s, Raw: tftypes.NewValue(typ, nil)}}
	r.Create(ctx, req, resp)

	out := &createResult{raw: resp.State.Raw, null: resp.State.Raw.IsNull(), hasError: resp.Diagnostics.HasError()}
	for _, d := range resp.Diagnostics {
		out.diags += fmt.Sprintf("[%s: %s] ", d.Summary(), d.Detail())
	}
	if !out.null {
		if err := resp.State.Raw.As(&out.values); err != nil {
			e.t.Fatalf("decoding the returned state: %v", err)
		}
	}
	return out
}

// checkCounts checks how many customers and sources the account holds.
func (e *interruptEnv) checkCounts(customers, sources int64) {
	e.t.Helper()
	st, err := sandboxclient.New(e.acct.Client).Stats(context.Background())
	if err != nil {
		e.t.Fatalf("reading stats: %v", err)
	}
	if st.Customers != customers || st.Sources != sources {
		e.t.Errorf("the service holds %d customers and %d sources, want %d and %d", st.Customers, st.Sources, customers, sources)
	}
}

// checkRecovered checks that the client logged the recovery of a POST
// interrupted after it was sent, so that the test exercised that path and
// not a context that ended after the answer came.
func (e *interruptEnv) checkRecovered() {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, m := range e.logs {
		if strings.Contains(m, recoveryMessage) {
			return
		}
	}
	e.t.Errorf("the client never recovered an interrupted POST; the interrupt came too late to test it. Log: %q", e.logs)
}

// TestAccProvider_Interrupt_SIGINT sends SIGINT to `terraform apply` (the
// Ctrl-C a user types) while creates are at the service, then compares
// Terraform's state with the service: every object made is in state, none
// orphaned. A second apply then converges, the plan is empty, and destroy
// leaves nothing.
func TestAccProvider_Interrupt_SIGINT(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	testAccPreCheck(t)
	t.Parallel()
	acct := newTestAccAccount(t)
	ctx := context.Background()
	const n = 8

	logPath := filepath.Join(t.TempDir(), "terraform.log")
	tf := newTFCLI(t, providerBinary(t), "TF_LOG_PROVIDER=DEBUG", "TF_LOG_PATH="+logPath)
	tf.writeConfig(fmt.Sprintf(`
terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}
%s
resource "payments_customer" "c" {
  count = %[2]d
  email = "sigint-${count.index}@example.com"
}

resource "payments_customer_source" "s" {
  count    = %[2]d
  customer = payments_customer.c[count.index].id
  token    = %[3]q
}
`, acct.ProviderConfig(), n, sandbox.TokenVisa))

	latency := interruptLatency.Milliseconds()
	if _, err := sandboxclient.New(acct.Client).SetFaults(ctx, sandboxclient.FaultsParams{LatencyMS: &latency}); err != nil {
		t.Fatalf("setting the sandbox's latency: %v", err)
	}

	runCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := tf.start(runCtx, "apply", "-auto-approve", "-no-color")
	done := make(chan error, 1)
	go func() {
		_, err := cmd.Wait()
		done <- err
	}()

	// Interrupt once a customer create is at the service, held there by
	// the latency: the creates then in flight must still land in state.
	interrupted := false
	for !interrupted {
		select {
		case err := <-done:
			t.Fatalf("terraform apply ended (%v) before it could be interrupted:\n%s", err, cmd.Output())
		case <-time.After(10 * time.Millisecond):
		}
		st, err := sandboxclient.New(acct.Client).Stats(ctx)
		if err != nil {
			t.Fatalf("reading stats: %v", err)
		}
		if st.Requests.ByRoute["POST /v1/customers"] > 0 {
			if err := cmd.Interrupt(); err != nil {
				t.Fatalf("sending SIGINT: %v", err)
			}
			interrupted = true
		}
	}
	err := <-done
	out := cmd.Output()
	tf.record([]string{"apply (interrupted)"}, out)
	var exit *tfcli.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the interrupted apply ended with %v; want the error exit of an interrupted run:\n%s", err, out)
	}
	if !strings.Contains(out, "Interrupt received") {
		t.Errorf("terraform's output does not show that it received the interrupt:\n%s", out)
	}

	// Compare with the latency off, so that the checks are quick.
	var zero int64
	if _, err := sandboxclient.New(acct.Client).SetFaults(ctx, sandboxclient.FaultsParams{LatencyMS: &zero}); err != nil {
		t.Fatalf("clearing the sandbox's latency: %v", err)
	}
	inState := map[string]int{}
	for _, r := range tf.state() {
		id, _ := r.Values["id"].(string)
		inState[r.Type]++
		var err error
		switch r.Type {
		case "payments_customer":
			_, err = acct.Client.GetCustomer(ctx, id)
		case "payments_customer_source":
			cus, _ := r.Values["customer"].(string)
			_, err = acct.Client.GetSource(ctx, cus, id)
		}
		if err != nil {
			t.Errorf("%s %s is in state but not at the service: %v", r.Address, id, err)
		}
	}
	st, err := sandboxclient.New(acct.Client).Stats(ctx)
	if err != nil {
		t.Fatalf("reading stats: %v", err)
	}
	if st.Customers != int64(inState["payments_customer"]) || st.Sources != int64(inState["payments_customer_source"]) {
		t.Fatalf("after the interrupt the service holds %d customers and %d sources, state %d and %d: objects were orphaned",
			st.Customers, st.Sources, inState["payments_customer"], inState["payments_customer_source"])
	}
	if inState["payments_customer"] == 0 {
		t.Fatalf("no customer reached state, although one was at the service when the interrupt came")
	}
	if inState["payments_customer"]+inState["payments_customer_source"] == 2*n {
		t.Logf("every resource was created before the interrupt took effect; the interrupt was late")
	}
	if log := readFileIfExists(t, logPath); !strings.Contains(log, recoveryMessage) {
		t.Errorf("the provider's log does not show a create finished after the interrupt (%q); the interrupt did not reach a request in flight", recoveryMessage)
	}
	t.Logf("interrupted: %d customers and %d sources in state and at the service", inState["payments_customer"], inState["payments_customer_source"])

	// The next apply converges: exactly n of each, an empty plan, and a
	// clean destroy.
	tf.mustRun("apply", "-auto-approve", "-no-color")
	if st, err = sandboxclient.New(acct.Client).Stats(ctx); err != nil {
		t.Fatalf("reading stats: %v", err)
	}
	if st.Customers != n || st.Sources != n {
		t.Errorf("after the second apply the service holds %d customers and %d sources, want %d of each", st.Customers, st.Sources, n)
	}
	if out, code := tf.run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("plan after the second apply: exit %d, want 0 (no changes):\n%s", code, out)
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color")
	if st, err = sandboxclient.New(acct.Client).Stats(ctx); err != nil {
		t.Fatalf("reading stats: %v", err)
	}
	if st.Customers != 0 || st.Sources != 0 {
		t.Errorf("after destroy the service holds %d customers and %d sources, want none", st.Customers, st.Sources)
	}
}
