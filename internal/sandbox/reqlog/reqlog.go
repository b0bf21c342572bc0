// Package reqlog is the sandbox's request log: each account's last
// wire.RequestLogSize requests, for GET /_sandbox/requests and the
// dashboard. A Line holds the method, the path (anything in it that looks
// like a key masked), the answer's status and error code, the duration and
// the Idempotency-Key: never a header besides that one, never a body (card
// tokens travel in bodies). A Recorder wraps the answer's writer to make
// the Line; a Log keeps the lines in a ring with its own lock; a Line
// writes itself as the API's request object (AppendJSON), and StatusClass
// reads the list's filter. It knows nothing of accounts or of the
// sandbox's handlers: the caller says which requests are logged and what
// a line costs in the account's bytes.
package reqlog

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// maxLoggedPath bounds a logged path, in characters: the longest route's
// path is under 100, and a 1 MB bogus one must not be kept a thousand times.
const maxLoggedPath = 256

// Line is one logged request.
type Line struct {
	ID       string
	At       time.Time
	Method   string
	Path     string
	Status   int // 0 when no answer was sent (a drop, a client gone)
	Duration time.Duration
	IdemKey  string
	Replayed bool
	Code     string
}

// LineBytes is a line's slot in the ring, before its strings.
var LineBytes = int64(reflect.TypeFor[Line]().Size())

// Sizer is what a line costs in its account's bytes.
type Sizer func(*Line) int64

// Log is a ring of an account's latest requests, with its own lock:
// logging never waits for the account's. The zero Log is empty.
type Log struct {
	mu   sync.Mutex
	buf  []Line
	next int // where the next line goes once buf is full
	// bytes is what the lines cost, part of the account's.
	bytes int64
}

// Size is what the lines cost, as counted by Add.
func (l *Log) Size() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes
}

// Add logs e, counting its cost in the log's and in total. Without room
// (the sandbox at its total limit) the ring stops growing and e replaces
// the oldest line instead: reads are never refused, so the log must not
// grow past the limit.
func (l *Log) Add(e Line, room bool, total *atomic.Int64, size Sizer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delta := l.put(e, room, size)
	l.bytes += delta
	total.Add(delta)
}

// put places e in the ring and returns how many bytes the log grew by.
func (l *Log) put(e Line, room bool, size Sizer) int64 {
	if len(l.buf) == 0 || (room && len(l.buf) < wire.RequestLogSize) {
		// After the newest line: at the end, or just before the oldest
		// once the ring has turned without room, so that the order
		// NewestFirst reads stays.
		if l.next == 0 {
			l.buf = append(l.buf, e)
		} else {
			l.buf = slices.Insert(l.buf, l.next, e)
			l.next++
		}
		return size(&e)
	}
	old := &l.buf[l.next]
	delta := size(&e) - size(old)
	*old = e
	l.next = (l.next + 1) % len(l.buf)
	return delta
}

// NewestFirst returns the lines that keep accepts, newest first.
func (l *Log) NewestFirst(keep func(*Line) bool) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Line, 0, min(len(l.buf), 64))
	for i := range l.buf {
		e := &l.buf[(l.next-1-i+2*len(l.buf))%len(l.buf)]
		if keep(e) {
			out = append(out, *e)
		}
	}
	return out
}

// Recount returns the running count of Size and the lines' cost counted
// afresh with size, and how many lines the log keeps: tests compare them.
func (l *Log) Recount(size Sizer) (running, recounted int64, lines int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.buf {
		recounted += size(&l.buf[i])
	}
	return l.bytes, recounted, len(l.buf)
}

// Recorder records what a handler answers, for the log.
type Recorder struct {
	http.ResponseWriter
	r       *http.Request
	start   time.Time
	at      time.Time
	status  int
	errBody []byte
}

// NewRecorder wraps w for r, which started at start (for its duration)
// and is logged as at at (the clock the sandbox shows).
func NewRecorder(w http.ResponseWriter, r *http.Request, start, at time.Time) *Recorder {
	return &Recorder{ResponseWriter: w, r: r, start: start, at: at}
}

// WriteHeader records the status and sends it.
func (w *Recorder) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Write keeps the start of an error's body, for its code, and sends b.
func (w *Recorder) Write(b []byte) (int, error) {
	if w.status >= 400 && len(w.errBody) < 4096 {
		w.errBody = append(w.errBody, b...)
	}
	return w.ResponseWriter.Write(b)
}

// Line is the request as answered so far; it is called once the handler
// is done, also when it panicked to drop the connection.
func (w *Recorder) Line() Line {
	e := Line{
		// Clones: the request's strings share memory with its whole
		// request line and headers, which a line must not keep alive.
		ID: w.Header().Get(wire.HeaderRequestID), At: w.at, Method: strings.Clone(w.r.Method),
		Path: strings.Clone(wire.Clip(wire.MaskKeys(w.r.URL.Path), maxLoggedPath)), Status: w.status, Duration: time.Since(w.start),
		IdemKey:  wire.MaskKeys(w.r.Header.Get(wire.HeaderIdempotencyKey)),
		Replayed: w.Header().Get(wire.HeaderIdempotentReplayed) == "true",
	}
	if len(e.IdemKey) > wire.IdempotencyKeyMaxLength {
		e.IdemKey = e.IdemKey[:wire.IdempotencyKeyMaxLength]
	}
	e.IdemKey = strings.Clone(e.IdemKey)
	if len(w.errBody) > 0 {
		var eb wire.ErrorBody
		if json.Unmarshal(w.errBody, &eb) == nil && eb.Error != nil {
			e.Code = eb.Error.Code
		}
	}
	return e
}
