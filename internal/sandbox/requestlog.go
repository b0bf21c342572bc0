package sandbox

import (
	"context"
	"net/http"
	"time"

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
	keep, e := reqlog.StatusClass(class)
	if e != nil {
		return errResponse(e)
	}
	lines := c.a.reqlog.NewestFirst(keep)
	return answerList(wire.PathSandboxRequests, false, len(lines), func(b []byte, i int) []byte {
		return lines[i].AppendJSON(b)
	}, listing.NoLock)
}
