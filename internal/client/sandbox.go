package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// The sandbox-only controls. A real service has none of them and the
// provider never calls them; tests, the demo and the benchmarks do. [assumed]
const (
	pathSandbox       = "/_sandbox"
	pathSandboxReset  = pathSandbox + "/reset"
	pathSandboxStats  = pathSandbox + "/stats"
	pathSandboxFaults = pathSandbox + "/faults"
)

func sandboxPaymentPath(id, action string) string {
	return pathSandbox + "/payments/" + pathID(id) + "/" + action
}

// SandboxCompletePayment finishes a pending payment with outcome approved,
// authorized or declined ("" means approved).
func (c *Client) SandboxCompletePayment(ctx context.Context, id, outcome string) (*Payment, error) {
	v := url.Values{}
	setNonEmpty(v, "outcome", outcome)
	var out Payment
	return &out, c.call(ctx, http.MethodPost, sandboxPaymentPath(id, "complete"), nil, v, &out)
}

// SandboxDisputePayment opens a dispute on an approved or partially refunded payment.
func (c *Client) SandboxDisputePayment(ctx context.Context, id string) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, sandboxPaymentPath(id, "dispute"), nil, url.Values{}, &out)
}

// SandboxReset deletes every object and idempotency key of the account.
func (c *Client) SandboxReset(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, pathSandboxReset, nil, url.Values{}, nil)
}

// SandboxStats reads the account's counters.
func (c *Client) SandboxStats(ctx context.Context) (*Stats, error) {
	var out Stats
	return &out, c.call(ctx, http.MethodGet, pathSandboxStats, nil, nil, &out)
}

// SandboxFaults reads the account's fault settings.
func (c *Client) SandboxFaults(ctx context.Context) (*Faults, error) {
	var out Faults
	return &out, c.call(ctx, http.MethodGet, pathSandboxFaults, nil, nil, &out)
}

// SandboxSetFaults changes the fault settings p names and leaves the others.
func (c *Client) SandboxSetFaults(ctx context.Context, p FaultsParams) (*Faults, error) {
	v := url.Values{}
	if p.ErrorRate != nil {
		v.Set("error_rate", strconv.FormatFloat(*p.ErrorRate, 'f', -1, 64))
	}
	if p.DropRate != nil {
		v.Set("drop_rate", strconv.FormatFloat(*p.DropRate, 'f', -1, 64))
	}
	if p.LatencyMS != nil {
		v.Set("latency_ms", strconv.FormatInt(*p.LatencyMS, 10))
	}
	if p.RateLimit != nil {
		v.Set("rate_limit", strconv.FormatInt(*p.RateLimit, 10))
	}
	var out Faults
	return &out, c.call(ctx, http.MethodPost, pathSandboxFaults, nil, v, &out)
}
