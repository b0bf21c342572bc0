package sandbox_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestSetKeys_Replace: each replacement of the key set takes effect for
// the next request: added keys are admitted, removed keys refused.
func TestSetKeys_Replace(t *testing.T) {
	t.Parallel()
	a, b, c := sandboxtest.NewKey(t), sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(a))
	for _, step := range []struct {
		name     string
		set      []string
		admitted []string
		refused  []string
	}{
		{"as started", nil, []string{a}, []string{b, c}},
		{"add b", []string{a, b}, []string{a, b}, []string{c}},
		{"swap to c", []string{c}, []string{c}, []string{a, b}},
		{"duplicates", []string{b, b, c}, []string{b, c}, []string{a}},
	} {
		if step.set != nil {
			if err := sb.Server.SetKeys(step.set); err != nil {
				t.Fatalf("%s: SetKeys: %v", step.name, err)
			}
		}
		for _, k := range step.admitted {
			envOn(t, sb, k).get("/_sandbox/stats", nil).ok(nil)
		}
		for _, k := range step.refused {
			envOn(t, sb, k).get("/_sandbox/stats", nil).fails(401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey, "")
		}
	}
}

// TestSetKeys_Refused: a bad set changes nothing, and its error never
// quotes a key.
func TestSetKeys_Refused(t *testing.T) {
	t.Parallel()
	a := sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(a))
	for _, tc := range []struct {
		name string
		keys []string
		want string
	}{
		{"empty", []string{}, "empty key set"},
		{"nil", nil, "empty key set"},
		{"live key", []string{a, "sk_live_secretsecret1"}, "key number 2"},
		{"public key", []string{"pk_sandbox_secretsecret1"}, "key number 1"},
		{"too short", []string{wire.SecretKeySandboxPrefix + "secret"}, "key number 1"},
	} {
		err := sb.Server.SetKeys(tc.keys)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one naming %q", tc.name, err, tc.want)
		}
		for _, k := range tc.keys {
			if err != nil && strings.Contains(err.Error(), k) {
				t.Errorf("%s: the error quotes a key: %v", tc.name, err)
			}
		}
		envOn(t, sb, a).get("/_sandbox/stats", nil).ok(nil)
	}
}

// TestSetKeys_Concurrent: replacing the set while requests authenticate
// is safe (run with -race).
func TestSetKeys_Concurrent(t *testing.T) {
	t.Parallel()
	a, b := sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(a))
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 200 {
			set := []string{a}
			if i%2 == 0 {
				set = append(set, b)
			}
			if err := sb.Server.SetKeys(set); err != nil {
				t.Error(err)
				return
			}
		}
	})
	e := envOn(t, sb, a)
	for range 50 {
		e.get("/_sandbox/stats", nil).ok(nil)
	}
	wg.Wait()
}
