package metrics

import (
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
)

// ServeHealth answers GET /healthz: 200 {"status":"ok"} when err is nil,
// else 503 with err's text as the reason. It is never cached.
func ServeHealth(w http.ResponseWriter, err error) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	if err == nil {
		_, _ = w.Write([]byte(`{"status":"ok"}`))
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	b := append([]byte(`{"status":"unavailable","reason":`), jsonw.String(nil, err.Error())...)
	_, _ = w.Write(append(b, '}'))
}
