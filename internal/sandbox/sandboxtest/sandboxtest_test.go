package sandboxtest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestStart_InProcess(t *testing.T) {
	sb := sandboxtest.Start(t)
	k1, k2 := sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	if k1 == k2 || wire.ClassifyKey(k1) != wire.KeySecretSandbox {
		t.Fatalf("keys %q %q", k1, k2)
	}
	if strings.HasSuffix(sb.URL, "/") || sb.Server == nil || sb.HTTP == nil {
		t.Fatalf("sandbox = %+v", sb)
	}
	get := func(key string) wire.Stats {
		r, _ := http.NewRequest(http.MethodGet, sb.URL+"/_sandbox/stats", nil)
		r.SetBasicAuth(key, "")
		// A fresh connection each time, to see ConnState wired in.
		r.Close = true
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var s wire.Stats
		if err := json.NewDecoder(resp.Body).Decode(&s); err != nil || resp.StatusCode != 200 {
			t.Fatalf("stats: %d %v", resp.StatusCode, err)
		}
		return s
	}
	first := get(k1)
	if second := get(k2); second.Connections <= first.Connections || first.Connections < 1 {
		t.Errorf("connections %d then %d: ConnState is not wired", first.Connections, second.Connections)
	}
}
