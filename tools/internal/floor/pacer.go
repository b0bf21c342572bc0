package floor

import (
	"context"
	"os"
	"strconv"
	"sync"
	"time"
)

// EnvRateLimit names the variable that makes the floor's creates keep to
// a rate limit as the sandbox counts it: at most that many in any one
// second. Its creates then go as a perfect client's requests would, sent
// the moment the window allows and answered at once, so the floor's apply
// is the least time any provider on this framework can take under the
// limit: the rate-limit phase of the benchmark reads its provider's time
// against it.
const EnvRateLimit = "FLOOR_RATE_LIMIT"

// pacer holds creates to at most limit in any one second.
type pacer struct {
	limit int
	mu    sync.Mutex
	// sent are the times the creates went, in order; only the last limit
	// matter.
	sent []time.Time
}

// newPacerFromEnv returns the pacer EnvRateLimit asks for, or nil.
func newPacerFromEnv() *pacer {
	n, err := strconv.Atoi(os.Getenv(EnvRateLimit))
	if err != nil || n <= 0 {
		return nil
	}
	return &pacer{limit: n}
}

// reserve takes the next create's place in the window when asked at now
// and returns when it may go: now, or one second after the create limit
// places before it.
func (p *pacer) reserve(now time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	at := now
	if len(p.sent) >= p.limit {
		if earliest := p.sent[len(p.sent)-p.limit].Add(time.Second); earliest.After(at) {
			at = earliest
		}
		p.sent = p.sent[len(p.sent)-p.limit+1:]
	}
	p.sent = append(p.sent, at)
	return at
}

// wait blocks until a create may go; a nil pacer never waits.
func (p *pacer) wait(ctx context.Context) error {
	if p == nil {
		return nil
	}
	d := time.Until(p.reserve(time.Now()))
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
