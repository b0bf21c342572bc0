package sandbox_test

import (
	"path/filepath"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestBilling_DunningEndControl: an account chooses the status dunning
// ends in over the sandbox's -dunning-end, goes back to it with an empty
// value, is refused anything else naming the parameter, and keeps its
// choice through a reset and a restart; another account keeps the
// sandbox's.
func TestBilling_DunningEndControl(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data.db")
	key := sandboxtest.NewKey(t)
	start := func() (*env, func()) {
		return openEnv(t, path, key, sandboxtest.WithOptions(sandbox.Options{DunningEnd: wire.SubscriptionStatusPastDue}))
	}
	e, stop := start()
	get := func(e *env) wire.SandboxBilling {
		var b wire.SandboxBilling
		e.get(wire.PathSandboxBilling, nil).ok(&b)
		return b
	}
	if b := get(e); b.Object != "sandbox_billing" || b.DunningEnd != wire.SubscriptionStatusPastDue || b.DunningEndDefault != wire.SubscriptionStatusPastDue {
		t.Fatalf("before any choice: %+v", b)
	}
	for _, tc := range []struct {
		name, form string
		status     int    // 0 for 200
		code       string // the refusal's code
		param      string // the refused parameter
		want       string
	}{
		{"unpaid", "dunning_end=unpaid", 0, "", "", wire.SubscriptionStatusUnpaid},
		{"canceled", "dunning_end=canceled", 0, "", "", wire.SubscriptionStatusCanceled},
		{"nothing named changes nothing", "", 0, "", "", wire.SubscriptionStatusCanceled},
		{"empty: the sandbox's default", "dunning_end=", 0, "", "", wire.SubscriptionStatusPastDue},
		{"past_due", "dunning_end=past_due", 0, "", "", wire.SubscriptionStatusPastDue},
		{"not a dunning end", "dunning_end=active", 400, wire.ErrorCodeParameterInvalid, wire.ParamDunningEnd, wire.SubscriptionStatusPastDue},
		{"another case", "dunning_end=Unpaid", 400, wire.ErrorCodeParameterInvalid, wire.ParamDunningEnd, wire.SubscriptionStatusPastDue},
		{"an unknown parameter", "retry_days=3", 400, wire.ErrorCodeParameterUnknown, "retry_days", wire.SubscriptionStatusPastDue},
		{"unpaid at last", "dunning_end=unpaid", 0, "", "", wire.SubscriptionStatusUnpaid},
	} {
		r := e.doRaw("POST", wire.PathSandboxBilling, tc.form)
		if tc.status != 0 {
			r.fails(tc.status, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		} else {
			var b wire.SandboxBilling
			r.ok(&b)
			if b.DunningEnd != tc.want {
				t.Errorf("%s: answered %+v, want dunning_end %s", tc.name, b, tc.want)
			}
		}
		if b := get(e); b.DunningEnd != tc.want {
			t.Errorf("%s: then GET says %+v, want dunning_end %s", tc.name, b, tc.want)
		}
	}
	if b := get(e.other()); b.DunningEnd != wire.SubscriptionStatusPastDue {
		t.Errorf("another account's dunning_end is %s, want the sandbox's past_due", b.DunningEnd)
	}
	e.post(wire.PathSandboxReset, nil).ok(nil)
	if b := get(e); b.DunningEnd != wire.SubscriptionStatusUnpaid {
		t.Errorf("after a reset: %+v, want unpaid kept", b)
	}
	stop()
	e, stop = start()
	if b := get(e); b.DunningEnd != wire.SubscriptionStatusUnpaid {
		t.Errorf("after a reset and a restart: %+v, want unpaid kept", b)
	}
	e.post(wire.PathSandboxBilling, vals(wire.ParamDunningEnd, "")).ok(nil)
	stop()
	e, stop = start()
	defer stop()
	if b := get(e); b.DunningEnd != wire.SubscriptionStatusPastDue {
		t.Errorf("after going back to the default and a restart: %+v, want past_due", b)
	}
}
