package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The guide's receivers must accept exactly what the sandbox signs
// (wire.Sign) and refuse the rest. The Python one is run too when python3
// is installed.

const secret = "whsec_GuideSecretGuideSecretGuideSecr"

func TestVerify_AcceptsWhatTheSandboxSigns(t *testing.T) {
	body := []byte(`{"id":"evt_1","object":"event","type":"payment.approved"}`)
	now := time.Now()
	for _, tc := range []struct {
		name   string
		header string
		body   []byte
		ok     bool
	}{
		{"signed now", wire.Sign(secret, now, body), body, true},
		{"other secret", wire.Sign("whsec_other", now, body), body, false},
		{"body changed", wire.Sign(secret, now, body), []byte(`{}`), false},
		{"too old", wire.Sign(secret, now.Add(-wire.SignatureTolerance-time.Minute), body), body, false},
		{"malformed", "v1=00", body, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := verify(tc.header, secret, tc.body, now); (err == nil) != tc.ok {
				t.Errorf("Go verify = %v, want ok %v", err, tc.ok)
			}
			if _, err := exec.LookPath("python3"); err != nil {
				return
			}
			py := exec.Command("python3", "-c", `import sys; sys.path.insert(0, sys.argv[1]); import receiver
try:
    receiver.verify(sys.argv[2], sys.argv[3], sys.argv[4].encode(), float(sys.argv[5]))
except ValueError as e:
    print(e); sys.exit(3)`, filepath.Join("..") /* receiver.py */, tc.header, secret, string(tc.body), strconv.FormatInt(now.Unix(), 10))
			out, err := py.CombinedOutput()
			var exit *exec.ExitError
			switch {
			case err == nil && !tc.ok:
				t.Errorf("Python verify accepted it")
			case err != nil && (tc.ok || !errors.As(err, &exit) || exit.ExitCode() != 3):
				t.Errorf("Python verify: %v: %s", err, out)
			}
		})
	}
}
