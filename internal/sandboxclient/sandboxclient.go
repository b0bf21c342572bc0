// Package sandboxclient calls the sandbox-only controls under /_sandbox/
// (complete, dispute, reset, stats, faults, billing, deliveries) through an API client. A real
// service has none of them and the provider never calls them, so they stay
// out of the production client; tests, the demo, the benchmarks and the
// soak test use this package.
package sandboxclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Client calls the sandbox controls of the account of an API client's key.
type Client struct{ c *client.Client }

// New returns a Client that sends its calls through c, with c's key,
// retries and error decoding.
func New(c *client.Client) *Client { return &Client{c: c} }

// FaultsParams change the sandbox's fault settings; nil fields stay as they are.
type FaultsParams struct {
	ErrorRate *float64
	DropRate  *float64
	LatencyMS *int64
	RateLimit *int64
	// Seed restarts the fault decisions from a seed (1 to
	// wire.FaultSeedMax), or from a random one when 0.
	Seed *int64
}

// CompletePayment finishes a pending payment with outcome approved,
// authorized or declined ("" means approved).
func (s *Client) CompletePayment(ctx context.Context, id, outcome string) (*wire.Payment, error) {
	v := url.Values{}
	if outcome != "" {
		v.Set(wire.ParamOutcome, outcome)
	}
	var out wire.Payment
	return &out, s.c.Call(ctx, http.MethodPost, wire.PathSandboxPaymentComplete, []string{id}, v, &out)
}

// DisputePayment opens a dispute on an approved or partially refunded payment.
func (s *Client) DisputePayment(ctx context.Context, id string) (*wire.Payment, error) {
	var out wire.Payment
	return &out, s.c.Call(ctx, http.MethodPost, wire.PathSandboxPaymentDispute, []string{id}, nil, &out)
}

// Reset deletes every object and idempotency key of the account.
func (s *Client) Reset(ctx context.Context) error {
	return s.c.Call(ctx, http.MethodPost, wire.PathSandboxReset, nil, nil, nil)
}

// Stats reads the account's counters.
func (s *Client) Stats(ctx context.Context) (*wire.Stats, error) {
	var out wire.Stats
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxStats, nil, nil, &out)
}

// Summary reads the account at a glance, over its last days days (0 for
// the sandbox's default).
func (s *Client) Summary(ctx context.Context, days int) (*wire.Summary, error) {
	v := url.Values{}
	if days != 0 {
		v.Set(wire.ParamSummaryDays, strconv.Itoa(days))
	}
	var out wire.Summary
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxSummary, nil, v, &out)
}

// Account reads the account's publishable key.
func (s *Client) Account(ctx context.Context) (*wire.SandboxAccount, error) {
	var out wire.SandboxAccount
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxAccount, nil, nil, &out)
}

// Faults reads the account's fault settings.
func (s *Client) Faults(ctx context.Context) (*wire.Faults, error) {
	var out wire.Faults
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxFaults, nil, nil, &out)
}

// SetFaults changes the fault settings p names and leaves the others.
func (s *Client) SetFaults(ctx context.Context, p FaultsParams) (*wire.Faults, error) {
	v := url.Values{}
	if p.ErrorRate != nil {
		v.Set(wire.ParamErrorRate, strconv.FormatFloat(*p.ErrorRate, 'f', -1, 64))
	}
	if p.DropRate != nil {
		v.Set(wire.ParamDropRate, strconv.FormatFloat(*p.DropRate, 'f', -1, 64))
	}
	if p.LatencyMS != nil {
		v.Set(wire.ParamLatencyMS, strconv.FormatInt(*p.LatencyMS, 10))
	}
	if p.RateLimit != nil {
		v.Set(wire.ParamRateLimit, strconv.FormatInt(*p.RateLimit, 10))
	}
	if p.Seed != nil {
		v.Set(wire.ParamSeed, strconv.FormatInt(*p.Seed, 10))
	}
	var out wire.Faults
	return &out, s.c.Call(ctx, http.MethodPost, wire.PathSandboxFaults, nil, v, &out)
}

// Billing reads the account's billing settings.
func (s *Client) Billing(ctx context.Context) (*wire.SandboxBilling, error) {
	var out wire.SandboxBilling
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxBilling, nil, nil, &out)
}

// SetDunningEnd chooses the status the account's subscriptions end in
// when dunning runs out: one of wire.DunningEnds, or "" for the
// sandbox's default.
func (s *Client) SetDunningEnd(ctx context.Context, status string) (*wire.SandboxBilling, error) {
	var out wire.SandboxBilling
	v := url.Values{wire.ParamDunningEnd: {status}}
	return &out, s.c.Call(ctx, http.MethodPost, wire.PathSandboxBilling, nil, v, &out)
}

// Delivery is one delivery attempt, as the sandbox records it.
type Delivery = wire.Delivery

// DeliveryList is every delivery attempt of an account, newest first.
type DeliveryList = wire.List[wire.Delivery]

// Deliveries lists the account's webhook delivery attempts, newest first,
// optionally only those of one event or one endpoint ("" for all).
func (s *Client) Deliveries(ctx context.Context, event, endpoint string) (*DeliveryList, error) {
	v := url.Values{}
	if event != "" {
		v.Set(wire.ParamEvent, event)
	}
	if endpoint != "" {
		v.Set(wire.ParamEndpoint, endpoint)
	}
	var out DeliveryList
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxDeliveries, nil, v, &out)
}

// RequestList is the account's recent requests, newest first.
type RequestList = wire.List[wire.LoggedRequest]

// Requests lists the account's recent requests, newest first, optionally
// only those answered with a status of one class ("2xx", "4xx"…; "" for
// all).
func (s *Client) Requests(ctx context.Context, statusClass string) (*RequestList, error) {
	v := url.Values{}
	if statusClass != "" {
		v.Set(wire.ParamStatusClass, statusClass)
	}
	var out RequestList
	return &out, s.c.Call(ctx, http.MethodGet, wire.PathSandboxRequests, nil, v, &out)
}

// ResendEvent delivers an event again, to endpoint, or to every enabled
// endpoint subscribed to it when endpoint is "".
func (s *Client) ResendEvent(ctx context.Context, event, endpoint string) (*wire.EventResend, error) {
	v := url.Values{}
	if endpoint != "" {
		v.Set(wire.ParamEndpoint, endpoint)
	}
	var out wire.EventResend
	return &out, s.c.Call(ctx, http.MethodPost, wire.PathSandboxEventResend, []string{event}, v, &out)
}
