package faults

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// RateLimited is the 429 of a Limited decision, its Retry-After the
// whole seconds until the next request would be admitted (at least 1).
func (d Decision) RateLimited() *apierr.Error {
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
	}
}

// Failure is the server error of a Fail decision for a request of
// method: only a POST carries an Idempotency-Key, so only its advice
// names one; a GET or DELETE is simply retried.
func (d Decision) Failure(method string) *apierr.Error {
	advice := "Retry it."
	if method == http.MethodPost {
		advice = "Retry it with the same " + wire.HeaderIdempotencyKey + "."
	}
	return apierr.ServerError(d.Status, "Injected fault (error_rate): the request did nothing. %s", advice)
}

// Parse reads the settings POST /_sandbox/faults names into s, leaving
// the others: an empty value turns one off. seed is the seed to restart
// the decisions from (0 for a random one), or -1 to keep them going.
func Parse(f form.Form, s *Settings) (seed int64, e *apierr.Error) {
	seed = -1
	rate := func(name string, dst *float64) *apierr.Error {
		v, ok := f.Get(name)
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
		v, ok := f.Get(name)
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
		rate(wire.ParamErrorRate, &s.ErrorRate),
		rate(wire.ParamDropRate, &s.DropRate),
		count(wire.ParamLatencyMS, MaxLatencyMS, &s.LatencyMS),
		count(wire.ParamRateLimit, MaxRateLimit, &s.RateLimit),
		parseSeed(f, &seed),
	} {
		if e != nil {
			return 0, e
		}
	}
	return seed, nil
}

// parseSeed reads seed: 1 to wire.FaultSeedMax restarts the decisions
// from it, 0 or empty from a random seed; absent leaves dst.
func parseSeed(f form.Form, dst *int64) *apierr.Error {
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

// AppendJSON writes the settings as the faults object of the API.
func (s *Settings) AppendJSON(b []byte) []byte {
	b = append(b, `{"object":"faults","error_rate":`...)
	b = jsonw.Float(b, s.ErrorRate)
	b = append(b, `,"drop_rate":`...)
	b = jsonw.Float(b, s.DropRate)
	b = append(b, `,"latency_ms":`...)
	b = jsonw.Int(b, s.LatencyMS)
	b = append(b, `,"rate_limit":`...)
	b = jsonw.Int(b, s.RateLimit)
	b = append(b, `,"seed":`...)
	b = jsonw.Int(b, s.Seed)
	return append(b, '}')
}
