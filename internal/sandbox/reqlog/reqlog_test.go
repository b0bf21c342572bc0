package reqlog_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/reqlog"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// size charges a line its slot and its path's length, enough to see the
// counts move.
func size(e *reqlog.Line) int64 { return reqlog.LineBytes + int64(len(e.Path)) }

func paths(lines []reqlog.Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Path + " ")
	}
	return strings.TrimSpace(b.String())
}

// TestLog_Ring: lines come back newest first; the ring keeps the last
// wire.RequestLogSize with room, and stops growing without, replacing the
// oldest; the running count always equals a recount and the total.
func TestLog_Ring(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		withRoom  int // lines added with room first
		without   int // then lines added without room
		wantLines int
		wantFirst string // the newest line's path
	}{
		{"empty", 0, 0, 0, ""},
		{"a few", 3, 0, 3, "/2"},
		{"full and turned", wire.RequestLogSize + 5, 0, wire.RequestLogSize, fmt.Sprintf("/%d", wire.RequestLogSize+4)},
		{"no room from the start", 0, 4, 1, "/3"},
		{"no room after some", 3, 2, 3, "/4"},
		{"room again after none", 2, 3, 2, "/4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var l reqlog.Log
			var total atomic.Int64
			n := 0
			for range tc.withRoom {
				l.Add(reqlog.Line{Path: fmt.Sprintf("/%d", n)}, true, &total, size)
				n++
			}
			for range tc.without {
				l.Add(reqlog.Line{Path: fmt.Sprintf("/%d", n)}, false, &total, size)
				n++
			}
			got := l.NewestFirst(func(*reqlog.Line) bool { return true })
			if len(got) != tc.wantLines {
				t.Fatalf("%d lines, want %d", len(got), tc.wantLines)
			}
			if len(got) > 0 && got[0].Path != tc.wantFirst {
				t.Errorf("newest %q, want %q (all: %s)", got[0].Path, tc.wantFirst, paths(got))
			}
			for i := 1; i < len(got); i++ {
				var a, b int
				fmt.Sscanf(got[i-1].Path, "/%d", &a)
				fmt.Sscanf(got[i].Path, "/%d", &b)
				if a <= b {
					t.Fatalf("not newest first: %s", paths(got))
				}
			}
			running, recounted, lines := l.Recount(size)
			if running != recounted || running != l.Size() || running != total.Load() || lines != tc.wantLines {
				t.Errorf("running %d, recounted %d, Size %d, total %d, lines %d", running, recounted, l.Size(), total.Load(), lines)
			}
		})
	}
}

func TestLog_NewestFirstFilters(t *testing.T) {
	t.Parallel()
	var l reqlog.Log
	var total atomic.Int64
	for i, st := range []int{200, 404, 201, 500, 402} {
		l.Add(reqlog.Line{Path: fmt.Sprintf("/%d", i), Status: st}, true, &total, size)
	}
	got := l.NewestFirst(func(e *reqlog.Line) bool { return e.Status >= 400 && e.Status < 500 })
	if paths(got) != "/4 /1" {
		t.Errorf("4xx lines %q, want \"/4 /1\"", paths(got))
	}
}

// TestRecorder_Line: the line says what was answered, with keys masked,
// the path clipped, the key's length bounded and the error's code read.
func TestRecorder_Line(t *testing.T) {
	t.Parallel()
	const key = "sk_sandbox_recorderkey1234"
	long := strings.Repeat("k", wire.IdempotencyKeyMaxLength+20)
	for _, tc := range []struct {
		name           string
		path, idem     string
		replayed       bool
		status         int
		body           string
		want           reqlog.Line
		wantPathAtMost int
	}{
		{"ok", "/v1/customers", "k-1", false, 200, `{"id":"cus_1"}`,
			reqlog.Line{Method: "POST", Path: "/v1/customers", Status: 200, IdemKey: "k-1"}, 0},
		{"replayed", "/v1/customers", "k-1", true, 200, `{}`,
			reqlog.Line{Method: "POST", Path: "/v1/customers", Status: 200, IdemKey: "k-1", Replayed: true}, 0},
		{"error code", "/v1/payments/pay_x", "", false, 404, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such payment."}}`,
			reqlog.Line{Method: "POST", Path: "/v1/payments/pay_x", Status: 404, Code: "resource_missing"}, 0},
		{"key in path and idempotency key", "/v1/x/" + key, "retry-" + key, false, 404, `not json`,
			reqlog.Line{Method: "POST", Path: "/v1/x/" + wire.RedactedKey, Status: 404, IdemKey: "retry-" + wire.RedactedKey}, 0},
		{"long idempotency key", "/v1/customers", long, false, 200, `{}`,
			reqlog.Line{Method: "POST", Path: "/v1/customers", Status: 200, IdemKey: long[:wire.IdempotencyKeyMaxLength]}, 0},
		{"long path", "/" + strings.Repeat("p", 5000), "", false, 404, `{}`,
			reqlog.Line{Method: "POST", Status: 404}, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, tc.path, nil)
			if tc.idem != "" {
				r.Header.Set(wire.HeaderIdempotencyKey, tc.idem)
			}
			at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			rec := httptest.NewRecorder()
			w := reqlog.NewRecorder(rec, r, time.Now(), at)
			w.Header().Set(wire.HeaderRequestID, "req_1")
			if tc.replayed {
				w.Header().Set(wire.HeaderIdempotentReplayed, "true")
			}
			w.WriteHeader(tc.status)
			if _, err := w.Write([]byte(tc.body)); err != nil {
				t.Fatal(err)
			}
			got := w.Line()
			if rec.Body.String() != tc.body || rec.Code != tc.status {
				t.Errorf("the answer was changed: %d %q", rec.Code, rec.Body)
			}
			if got.ID != "req_1" || !got.At.Equal(at) || got.Duration < 0 {
				t.Errorf("id %q, at %v, duration %v", got.ID, got.At, got.Duration)
			}
			if tc.wantPathAtMost > 0 {
				if n := len([]rune(got.Path)); n > tc.wantPathAtMost+1 || !strings.HasSuffix(got.Path, "…") {
					t.Errorf("path of %d characters, want %d and an ellipsis", n, tc.wantPathAtMost)
				}
				got.Path = ""
			}
			got.ID, got.At, got.Duration = "", time.Time{}, 0
			if got != tc.want {
				t.Errorf("line %+v, want %+v", got, tc.want)
			}
		})
	}
}
