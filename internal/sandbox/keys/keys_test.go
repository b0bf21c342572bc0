package keys_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/keys"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestPublishable_DerivedOneWay: the key is the HMAC the fleet's balancer
// computes, a sandbox publishable key, and never holds the secret key.
func TestPublishable_DerivedOneWay(t *testing.T) {
	t.Parallel()
	const secret = "sk_sandbox_publishabletest1234"
	hash := sha256.Sum256([]byte(secret))
	m := hmac.New(sha256.New, hash[:])
	m.Write([]byte("payments-sandbox publishable key"))
	want := wire.PublicKeySandboxPrefix + hex.EncodeToString(m.Sum(nil)[:16])
	got := keys.Publishable(hash)
	if got != want {
		t.Errorf("Publishable = %q, want %q", got, want)
	}
	if wire.ClassifyKey(got) != wire.KeyPublicSandbox {
		t.Errorf("%q is not a sandbox publishable key", got)
	}
	if strings.Contains(got, "publishabletest") || strings.Contains(got, hex.EncodeToString(hash[:8])) {
		t.Errorf("%q shows the secret key or its hash", got)
	}
	if other := keys.Publishable(sha256.Sum256([]byte(secret + "x"))); other == got {
		t.Error("two accounts share a publishable key")
	}
}

func TestNewSet_AdmitsAndRefuses(t *testing.T) {
	t.Parallel()
	a, b := "sk_sandbox_keysetfirst12345", "sk_sandbox_keysetsecond1234"
	for _, tc := range []struct {
		name    string
		list    []string
		wantErr string // a part of the error; "" for none
	}{
		{"two keys", []string{a, b}, ""},
		{"empty", nil, "empty key set would admit every key"},
		{"a live key", []string{a, "sk_live_keysetlive123456789"}, "key number 2 is not a sandbox secret key"},
		{"a publishable key", []string{keys.Publishable(sha256.Sum256([]byte(a)))}, "key number 1 is not a sandbox secret key"},
		{"too short", []string{"sk_sandbox_x"}, "key number 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			set, err := keys.NewSet(tc.list)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
				}
				for _, k := range tc.list {
					if len(k) > 0 && strings.Contains(err.Error(), k) {
						t.Errorf("the error %q quotes a key", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range tc.list {
				if !set.Admits(k) {
					t.Errorf("the set refuses its key %s…", k[:12])
				}
				hash := sha256.Sum256([]byte(k))
				if got, ok := set.Account(keys.Publishable(hash)); !ok || got != hash {
					t.Errorf("the publishable key of %s… names no account, or another", k[:12])
				}
			}
			if set.Admits("sk_sandbox_notinthesetatall1") || set.Admits("") {
				t.Error("the set admits a key it was not given")
			}
			if _, ok := set.Account(keys.Publishable(sha256.Sum256([]byte("sk_sandbox_notinthesetatall1")))); ok {
				t.Error("the set names an account for a key it was not given")
			}
		})
	}
}
