package sandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The request log: each account's last wire.RequestLogSize requests, for
// GET /_sandbox/requests and the dashboard. A line holds the method, the
// path (anything in it that looks like a key masked), the answer's status and
// error code, the duration and the Idempotency-Key: never a header
// besides that one, never a body (card tokens travel in bodies).
// Requests that fail authentication have no account and are not logged;
// reading the log is not logged either, so that polling it leaves it as
// it was.

// maxLoggedPath bounds a logged path, in characters: the longest route's
// path is under 100, and a 1 MB bogus one must not be kept a thousand times.
const maxLoggedPath = 256

type loggedRequest struct {
	id       string
	at       time.Time
	method   string
	path     string
	status   int // 0 when no answer was sent (a drop, a client gone)
	duration time.Duration
	idemKey  string
	replayed bool
	code     string
}

// requestLog is a ring of the account's latest requests, with its own
// lock: logging never waits for the account's.
type requestLog struct {
	mu   sync.Mutex
	buf  []loggedRequest
	next int // where the next line goes once buf is full
	// bytes is what the lines hold (bounds.go), part of the account's.
	bytes int64
}

func (l *requestLog) size() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes
}

// lineBytes is a line's slot in the ring; heapBytes adds its strings.
var lineBytes = int64(reflect.TypeFor[loggedRequest]().Size())

func (e *loggedRequest) heapBytes() int64 {
	return lineBytes + strBytes(e.id) + strBytes(e.method) + strBytes(e.path) + strBytes(e.idemKey) + strBytes(e.code)
}

// add logs e, counting its bytes in the log's and the server's total.
// Without room (the sandbox at -max-total-bytes, see bounds.go) the ring
// stops growing and e replaces the oldest line instead: reads are never
// refused, so the log must not grow past the limit.
func (l *requestLog) add(e loggedRequest, room bool, total *atomic.Int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delta := l.put(e, room)
	l.bytes += delta
	total.Add(delta)
}

// put places e in the ring and returns how many bytes the log grew by.
func (l *requestLog) put(e loggedRequest, room bool) int64 {
	if len(l.buf) == 0 || (room && len(l.buf) < wire.RequestLogSize) {
		// After the newest line: at the end, or just before the oldest
		// once the ring has turned without room, so that the order
		// newestFirst reads stays.
		if l.next == 0 {
			l.buf = append(l.buf, e)
		} else {
			l.buf = slices.Insert(l.buf, l.next, e)
			l.next++
		}
		return e.heapBytes()
	}
	old := &l.buf[l.next]
	delta := e.heapBytes() - old.heapBytes()
	*old = e
	l.next = (l.next + 1) % len(l.buf)
	return delta
}

// newestFirst returns the lines that keep accepts, newest first.
func (l *requestLog) newestFirst(keep func(*loggedRequest) bool) []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]loggedRequest, 0, min(len(l.buf), 64))
	for i := range l.buf {
		e := &l.buf[(l.next-1-i+2*len(l.buf))%len(l.buf)]
		if keep(e) {
			out = append(out, *e)
		}
	}
	return out
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

// loggingWriter records what the pipeline answers, for the request log.
type loggingWriter struct {
	http.ResponseWriter
	a *account
	r *http.Request
	// maxTotal is Limits.MaxTotalBytes: the log grows only below it.
	maxTotal int64
	start    time.Time
	at       time.Time
	status   int
	errBody  []byte
}

// logRequest returns w wrapped so that the answer is logged for account a
// when done runs, or nil when the request is not logged.
func (s *Server) logRequest(w http.ResponseWriter, r *http.Request, a *account, start time.Time) *loggingWriter {
	if isInternal(r) || (r.Method == http.MethodGet && r.URL.Path == wire.PathSandboxRequests) {
		return nil
	}
	return &loggingWriter{ResponseWriter: w, a: a, r: r, maxTotal: s.limits.MaxTotalBytes, start: start, at: s.now()}
}

func (w *loggingWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *loggingWriter) Write(b []byte) (int, error) {
	if w.status >= 400 && len(w.errBody) < 4096 {
		w.errBody = append(w.errBody, b...)
	}
	return w.ResponseWriter.Write(b)
}

// done logs the request; it runs deferred, also when the handler panics to
// drop the connection.
func (w *loggingWriter) done() {
	e := loggedRequest{
		// Clones: the request's strings share memory with its whole
		// request line and headers, which a line must not keep alive.
		id: w.Header().Get(wire.HeaderRequestID), at: w.at, method: strings.Clone(w.r.Method),
		path: strings.Clone(wire.Clip(wire.MaskKeys(w.r.URL.Path), maxLoggedPath)), status: w.status, duration: time.Since(w.start),
		idemKey:  wire.MaskKeys(w.r.Header.Get(wire.HeaderIdempotencyKey)),
		replayed: w.Header().Get(wire.HeaderIdempotentReplayed) == "true",
	}
	if len(e.idemKey) > wire.IdempotencyKeyMaxLength {
		e.idemKey = e.idemKey[:wire.IdempotencyKeyMaxLength]
	}
	e.idemKey = strings.Clone(e.idemKey)
	if len(w.errBody) > 0 {
		var eb wire.ErrorBody
		if json.Unmarshal(w.errBody, &eb) == nil && eb.Error != nil {
			e.code = eb.Error.Code
		}
	}
	w.a.reqlog.add(e, w.maxTotal == 0 || w.a.total.Load() < w.maxTotal, w.a.total)
}

func (c *call) listRequests() response {
	if e := c.f.check(wire.ParamStatusClass); e != nil {
		return e.response()
	}
	class, _ := c.f.get(wire.ParamStatusClass)
	lo := 0
	if class != "" {
		if len(class) != 3 || class[0] < '1' || class[0] > '5' || class[1:] != "xx" {
			return invalid(wire.ParamStatusClass, "status_class %q is not a status class; use 2xx, 3xx, 4xx or 5xx (1xx too).", clip(class)).response()
		}
		lo = int(class[0]-'0') * 100
	}
	lines := c.a.reqlog.newestFirst(func(e *loggedRequest) bool {
		return lo == 0 || (e.status >= lo && e.status < lo+100)
	})
	return answerList(wire.PathSandboxRequests, false, len(lines), func(b []byte, i int) []byte {
		return appendLoggedRequest(b, &lines[i])
	}, noLock)
}

func appendLoggedRequest(b []byte, e *loggedRequest) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, e.id)
	b = append(b, `,"object":"request","at":"`...)
	b = e.at.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, `","method":`...)
	b = appendString(b, e.method)
	b = append(b, `,"path":`...)
	b = appendString(b, e.path)
	b = append(b, `,"status":`...)
	b = appendInt(b, int64(e.status))
	b = append(b, `,"duration_ms":`...)
	b = appendMillis(b, e.duration)
	b = append(b, `,"idempotency_key":`...)
	b = appendOptString(b, e.idemKey)
	b = append(b, `,"replayed":`...)
	b = appendBool(b, e.replayed)
	b = append(b, `,"error_code":`...)
	b = appendOptString(b, e.code)
	return append(b, '}')
}

// appendMillis writes a duration in milliseconds, to the microsecond.
func appendMillis(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', -1, 64)
}
