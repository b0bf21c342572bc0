package metrics

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestServeHealth_Answers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"healthy", nil, http.StatusOK, `{"status":"ok"}`},
		{"failed", errors.New(`disk "full"`), http.StatusServiceUnavailable, `{"status":"unavailable","reason":"disk \"full\""}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			ServeHealth(w, tc.err)
			if w.Code != tc.status || w.Body.String() != tc.body {
				t.Errorf("got %d %s, want %d %s", w.Code, w.Body, tc.status, tc.body)
			}
			if w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("headers %v", w.Header())
			}
		})
	}
}
