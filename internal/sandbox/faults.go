package sandbox

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/faults"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// injectFaults applies the account's faults to one /v1 request, before
// its Idempotency-Key is looked up. It returns the fault answer, if any,
// and whether to drop the connection once the request has acted.
func (s *Server) injectFaults(ctx context.Context, a *account, method string) (*apierr.Error, bool) {
	d := a.faults.Decide(s.now(), s.faultSeed)
	if d.Limited {
		a.faultRateLimited.Add(1)
		s.metrics.Refused(metrics.LimitRateLimit)
		secs := max(1, int(math.Ceil(d.Wait.Seconds())))
		per := " requests per second"
		if d.RateLimit == 1 {
			per = " request per second"
		}
		return &apierr.Error{
			Status: http.StatusTooManyRequests, Type: wire.ErrorTypeRateLimit, Code: wire.ErrorCodeRateLimited,
			Message: "Too many requests: this account is limited to " + strconv.FormatInt(d.RateLimit, 10) + per +
				" (the rate_limit fault). Retry in " + wire.FormatDurationWords(time.Duration(secs)*time.Second) +
				", as the Retry-After header says.",
			RetryAfter: secs,
		}, false
	}
	if d.Latency > 0 {
		sleep(ctx, d.Latency)
	}
	if d.Fail {
		a.faultErrors.Add(1)
		// Only a POST carries an Idempotency-Key; a GET or DELETE is
		// simply retried.
		advice := "Retry it."
		if method == http.MethodPost {
			advice = "Retry it with the same " + wire.HeaderIdempotencyKey + "."
		}
		return apierr.ServerError(d.Status, "Injected fault (error_rate): the request did nothing. %s", advice), false
	}
	return nil, d.Drop
}

func (c *call) getFaults() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	f := c.a.faults.Settings(c.s.faultSeed)
	return ok(appendFaults(nil, &f))
}

// setFaults changes the named settings and leaves the others.
func (c *call) setFaults() response {
	if e := c.f.Check(wire.ParamErrorRate, wire.ParamDropRate, wire.ParamLatencyMS, wire.ParamRateLimit, wire.ParamSeed); e != nil {
		return errResponse(e)
	}
	var refused *apierr.Error
	f := c.a.faults.Update(c.s.faultSeed, func(f *faults.Settings) (int64, bool) {
		seed := int64(-1) // -1: keep the decisions going
		rate := func(name string, dst *float64) *apierr.Error {
			v, ok := c.f.Get(name)
			if !ok {
				return nil
			}
			if v == "" {
				*dst = 0
				return nil
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
				return apierr.Invalid(name, "%s %q is not valid; use a number from 0 to 1, for example 0.25.", name, apierr.Clip(v))
			}
			*dst = x
			return nil
		}
		count := func(name string, limit int64, dst *int64) *apierr.Error {
			v, ok := c.f.Get(name)
			if !ok {
				return nil
			}
			if v == "" {
				*dst = 0
				return nil
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > limit {
				return apierr.Invalid(name, "%s %q is not valid; use a whole number from 0 (off) to %d.", name, apierr.Clip(v), limit)
			}
			*dst = n
			return nil
		}
		for _, e := range []*apierr.Error{
			rate(wire.ParamErrorRate, &f.ErrorRate),
			rate(wire.ParamDropRate, &f.DropRate),
			count(wire.ParamLatencyMS, faults.MaxLatencyMS, &f.LatencyMS),
			count(wire.ParamRateLimit, faults.MaxRateLimit, &f.RateLimit),
			seedParam(c.f, &seed),
		} {
			if e != nil {
				refused = e
				return 0, false
			}
		}
		return seed, true
	})
	if refused != nil {
		return errResponse(refused)
	}
	return ok(appendFaults(nil, &f))
}

// seedParam reads seed: 1 to wire.FaultSeedMax restarts the decisions
// from it, 0 or empty from a random seed; absent leaves dst.
func seedParam(f form.Form, dst *int64) *apierr.Error {
	v, ok := f.Get(wire.ParamSeed)
	if !ok {
		return nil
	}
	if v == "" {
		*dst = 0
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > wire.FaultSeedMax {
		return apierr.Invalid(wire.ParamSeed, "seed %q is not valid; use a whole number from 1 to %d to replay a run, or 0 for a random seed.", apierr.Clip(v), int64(wire.FaultSeedMax))
	}
	*dst = n
	return nil
}

func appendFaults(b []byte, f *faults.Settings) []byte {
	b = append(b, `{"object":"faults","error_rate":`...)
	b = appendFloat(b, f.ErrorRate)
	b = append(b, `,"drop_rate":`...)
	b = appendFloat(b, f.DropRate)
	b = append(b, `,"latency_ms":`...)
	b = appendInt(b, f.LatencyMS)
	b = append(b, `,"rate_limit":`...)
	b = appendInt(b, f.RateLimit)
	b = append(b, `,"seed":`...)
	b = appendInt(b, f.Seed)
	return append(b, '}')
}
