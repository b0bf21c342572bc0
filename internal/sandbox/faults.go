package sandbox

import (
	"context"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/faults"
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
		return d.RateLimited(), false
	}
	if d.Latency > 0 {
		sleep(ctx, d.Latency)
	}
	if d.Fail {
		a.faultErrors.Add(1)
		return d.Failure(method), false
	}
	return nil, d.Drop
}

func (c *call) getFaults() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	f := c.a.faults.Settings(c.s.faultSeed)
	return ok(f.AppendJSON(nil))
}

// setFaults changes the named settings and leaves the others.
func (c *call) setFaults() response {
	if e := c.f.Check(wire.ParamErrorRate, wire.ParamDropRate, wire.ParamLatencyMS, wire.ParamRateLimit, wire.ParamSeed); e != nil {
		return errResponse(e)
	}
	var refused *apierr.Error
	f := c.a.faults.Update(c.s.faultSeed, func(f *faults.Settings) (int64, bool) {
		seed, e := faults.Parse(c.f, f)
		if e != nil {
			refused = e
			return 0, false
		}
		return seed, true
	})
	if refused != nil {
		return errResponse(refused)
	}
	return ok(f.AppendJSON(nil))
}

// sleep waits d or until the client goes away.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
