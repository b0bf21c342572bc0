package sandbox

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/idem"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// serve runs the pipeline of the contract: authentication, then injected
// faults, then the Idempotency-Key, then the handler, then the store
// write, and only then the answer.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rt *route) {
	start := time.Now()
	a, aerr := s.authenticate(r, rt.public)
	if aerr != nil {
		s.write(w, r, rt.name, start, errResponse(aerr))
		return
	}
	defer a.inflight.Add(-1)
	if lw := s.logRequest(w, r, a, start); lw != nil {
		w = lw
		defer lw.done()
	}
	if s.storeErr.Load() != nil {
		e := storageUnavailable(nil)
		e.Message = "The sandbox's data file failed in a way that leaves its state uncertain, so it no longer answers; restart it (its log has the details)."
		s.write(w, r, rt.name, start, errResponse(e))
		return
	}

	drop := false
	if rt.v1 && !isInternal(r) {
		a.requests.Add(1)
		a.byRoute[rt.idx].Add(1)
		var fault *apierr.Error
		if fault, drop = s.injectFaults(r.Context(), a, r.Method); fault != nil {
			s.write(w, r, rt.name, start, errResponse(fault))
			return
		}
	}

	f, early, err := form.Read(r)
	if err != nil {
		return // the client is gone
	}
	if early != nil && early.TooLarge {
		s.metrics.Refused(metrics.LimitBodyBytes)
	}

	var rec *idem.Record
	if key := r.Header.Get(wire.HeaderIdempotencyKey); key != "" && rt.v1 && r.Method == http.MethodPost {
		if len(key) > wire.IdempotencyKeyMaxLength {
			s.write(w, r, rt.name, start, errResponse(apierr.Invalid("", "The %s header is %d characters long; use at most %d.",
				wire.HeaderIdempotencyKey, len(key), wire.IdempotencyKeyMaxLength)))
			return
		}
		var fp [32]byte
		if early == nil {
			fp = form.Fingerprint(r.Method, r.URL.Path, f)
		} else {
			fp = early.FP
		}
		var resp *response
		rec, resp = a.idemBegin(key, fp, s.now())
		if resp != nil {
			if drop && resp.replayed {
				a.faultDrops.Add(1)
				panic(http.ErrAbortHandler)
			}
			s.write(w, r, rt.name, start, *resp)
			return
		}
		// Until idemFinish or idemAbort runs, a repeat gets in_use; make
		// sure a panicking handler cannot leave the key stuck in that state.
		defer func() {
			if !rec.Done {
				a.mu.Lock()
				a.idemAbort(rec)
				a.mu.Unlock()
			}
		}()
		if s.afterReserve != nil {
			s.afterReserve()
		}
	}

	resp := s.act(r, rt, a, f, early, rec)
	if drop {
		// The request acted and, with a key, its answer is stored; closing
		// the connection now is the lost answer a client must recover from.
		a.faultDrops.Add(1)
		panic(http.ErrAbortHandler)
	}
	s.write(w, r, rt.name, start, resp)
}

// act runs the handler with the account locked, records the answer under
// the Idempotency-Key, and writes the changes to the store.
func (s *Server) act(r *http.Request, rt *route, a *account, f form.Form, early *form.Refused, rec *idem.Record) response {
	now := s.now()
	c := &call{s: s, a: a, r: r, f: f, now: now, unix: now.Unix(), wall: now}
	if rt.write || rec != nil {
		a.mu.Lock()
		defer a.mu.Unlock()
	} else {
		a.mu.RLock()
		defer a.mu.RUnlock()
	}
	var resp response
	if e := c.canGrowIf(rt.grows); e != nil {
		resp = errResponse(e)
	} else if early != nil {
		resp = errResponse(early.Err)
	} else {
		resp = rt.fn(c)
	}
	if rec != nil {
		c.idemFinish(rec, resp)
	}
	if len(c.ops) > 0 {
		// The account stays locked until the write is on disk: no other
		// request of it sees a change that may yet be rolled back. Other
		// accounts' writes share the log record (see storage.Store.Commit).
		if err := s.store.Commit(a.hash, c.ops); err != nil {
			return errResponse(s.storeFailed(c, err))
		}
	}
	return resp
}

// serveUnknown answers paths and methods outside the contract, after
// authentication, so that no route is discoverable without a key.
func (s *Server) serveUnknown(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	a, aerr := s.authenticate(r, false)
	if aerr != nil {
		s.write(w, r, "unknown", start, errResponse(aerr))
		return
	}
	defer a.inflight.Add(-1)
	if lw := s.logRequest(w, r, a, start); lw != nil {
		w = lw
		defer lw.done()
	}
	// Not resource_missing: a client must never read a mistyped base URL
	// (one ending in /v1, say) as every object being gone.
	s.write(w, r, "unknown", start, errResponse((&apierr.Error{
		Status: http.StatusNotFound, Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeUnrecognizedURL,
		Message: fmt.Sprintf("Unrecognized request URL (%s %s). Check that the base URL is the API root, without /v1; api/openapi.yaml lists the endpoints.", r.Method, apierr.Clip(r.URL.Path)),
	})))
}

func (s *Server) write(w http.ResponseWriter, r *http.Request, route string, start time.Time, resp response) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if resp.rest == nil {
		h.Set("Content-Length", strconv.Itoa(len(resp.body)))
	}
	if resp.retryAfter > 0 {
		h.Set(wire.HeaderRetryAfter, strconv.Itoa(resp.retryAfter))
	}
	if resp.replayed {
		h.Set(wire.HeaderIdempotentReplayed, "true")
	}
	w.WriteHeader(resp.status)
	if _, err := w.Write(resp.body); err == nil && resp.rest != nil {
		_ = resp.rest(w)
	}
	s.metrics.Observe(route, resp.status, time.Since(start))
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		// Paths hold object ids only; keys travel in the Authorization
		// header, which is never logged.
		s.log.LogAttrs(r.Context(), slog.LevelDebug, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("route", route),
			slog.Int("status", resp.status), slog.Bool("replayed", resp.replayed),
			slog.String("request_id", h.Get(wire.HeaderRequestID)), slog.Duration("duration", time.Since(start)))
	}
}
