package sandbox

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/reqlog"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The request log (package reqlog): requests that fail authentication
// have no account and are not logged; reading the log is not logged
// either, so that polling it leaves it as it was.

// lineBytes is what a logged line costs its account (bounds.go).
func lineBytes(e *reqlog.Line) int64 {
	return reqlog.LineBytes + model.StrBytes(e.ID) + model.StrBytes(e.Method) + model.StrBytes(e.Path) + model.StrBytes(e.IdemKey) + model.StrBytes(e.Code)
}

// internalKey marks a request made in-process through Server.Internal.
type internalKey struct{}

// Internal is the handler for in-process callers such as the dashboard:
// the same routes, checks and answers as the Server, but its requests are
// not counted in stats, get no injected faults and stay out of the request
// log, so that a page reading the account does not change what it shows.
func (s *Server) Internal() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), internalKey{}, true)))
	})
}

func isInternal(r *http.Request) bool {
	v, _ := r.Context().Value(internalKey{}).(bool)
	return v
}

// loggingWriter records what the pipeline answers, for account a's log.
type loggingWriter struct {
	*reqlog.Recorder
	a *account
	// maxTotal is Limits.MaxTotalBytes: the log grows only below it.
	maxTotal int64
}

// logRequest returns w wrapped so that the answer is logged for account a
// when done runs, or nil when the request is not logged.
func (s *Server) logRequest(w http.ResponseWriter, r *http.Request, a *account, start time.Time) *loggingWriter {
	if isInternal(r) || (r.Method == http.MethodGet && r.URL.Path == wire.PathSandboxRequests) {
		return nil
	}
	return &loggingWriter{Recorder: reqlog.NewRecorder(w, r, start, s.now()), a: a, maxTotal: s.limits.MaxTotalBytes}
}

// done logs the request; it runs deferred, also when the handler panics to
// drop the connection.
func (w *loggingWriter) done() {
	w.a.reqlog.Add(w.Line(), w.maxTotal == 0 || w.a.total.Load() < w.maxTotal, w.a.total, lineBytes)
}

func (c *call) listRequests() response {
	if e := c.f.Check(wire.ParamStatusClass); e != nil {
		return errResponse(e)
	}
	class, _ := c.f.Get(wire.ParamStatusClass)
	lo := 0
	if class != "" {
		if len(class) != 3 || class[0] < '1' || class[0] > '5' || class[1:] != "xx" {
			return errResponse(apierr.Invalid(wire.ParamStatusClass, "status_class %q is not a status class; use 2xx, 3xx, 4xx or 5xx (1xx too).", apierr.Clip(class)))
		}
		lo = int(class[0]-'0') * 100
	}
	lines := c.a.reqlog.NewestFirst(func(e *reqlog.Line) bool {
		return lo == 0 || (e.Status >= lo && e.Status < lo+100)
	})
	return answerList(wire.PathSandboxRequests, false, len(lines), func(b []byte, i int) []byte {
		return appendLoggedRequest(b, &lines[i])
	}, listing.NoLock)
}

func appendLoggedRequest(b []byte, e *reqlog.Line) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, e.ID)
	b = append(b, `,"object":"request","at":"`...)
	b = e.At.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, `","method":`...)
	b = appendString(b, e.Method)
	b = append(b, `,"path":`...)
	b = appendString(b, e.Path)
	b = append(b, `,"status":`...)
	b = appendInt(b, int64(e.Status))
	b = append(b, `,"duration_ms":`...)
	b = appendMillis(b, e.Duration)
	b = append(b, `,"idempotency_key":`...)
	b = appendOptString(b, e.IdemKey)
	b = append(b, `,"replayed":`...)
	b = appendBool(b, e.Replayed)
	b = append(b, `,"error_code":`...)
	b = appendOptString(b, e.Code)
	return append(b, '}')
}

// appendMillis writes a duration in milliseconds, to the microsecond.
func appendMillis(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', -1, 64)
}
