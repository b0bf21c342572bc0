package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClockParams are the fields of a test clock's create: its time to
// start from and an optional name.
type TestClockParams struct {
	FrozenTime time.Time
	Name       string
}

func (p *TestClockParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	if !p.FrozenTime.IsZero() {
		v.Set(wire.ParamFrozenTime, p.FrozenTime.UTC().Format(time.RFC3339))
	}
	setNonEmpty(v, wire.ParamName, p.Name)
	return v
}

// CreateTestClock creates a test clock at p.FrozenTime; customers are put
// on it at their creation (CustomerParams.TestClock).
func (c *Client) CreateTestClock(ctx context.Context, p *TestClockParams) (*TestClock, error) {
	var out TestClock
	return &out, c.call(ctx, http.MethodPost, wire.PathTestClocks, nil, p.form(), &out)
}

// GetTestClock retrieves a test clock. One that does not exist for this
// account gives an error for which IsNotFound is true.
func (c *Client) GetTestClock(ctx context.Context, id string) (*TestClock, error) {
	var out TestClock
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathTestClock, id), nil, nil, &out)
}

// AdvanceTestClock moves a test clock forward to to; every renewal,
// retry and expiry of its customers' subscriptions due in between has run
// when it returns, the clock ready. A time not after the clock's, or more
// than wire.TestClockAdvancePeriods periods of its shortest subscription
// ahead, gives an error naming wire.ParamFrozenTime.
func (c *Client) AdvanceTestClock(ctx context.Context, id string, to time.Time) (*TestClock, error) {
	var out TestClock
	v := url.Values{wire.ParamFrozenTime: {to.UTC().Format(time.RFC3339)}}
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathTestClockAdvance, id), nil, v, &out)
}

// DeleteTestClock deletes a test clock and the customers on it; their
// subscriptions end, canceled.
func (c *Client) DeleteTestClock(ctx context.Context, id string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, expand(wire.PathTestClock, id), nil, nil, &out)
}

// ListTestClocks returns one page of test clocks, newest first.
func (c *Client) ListTestClocks(ctx context.Context, p *ListParams) (*TestClockList, error) {
	return listPage(ctx, c, wire.PathTestClocks, p.query(url.Values{}), "a test clock", func(k *TestClock) bool { return k.Livemode })
}

// AllTestClocks iterates over every test clock, newest first, following
// the pages; p.Limit is the page size. Iteration stops at the first
// error, which is yielded with a nil clock.
func (c *Client) AllTestClocks(ctx context.Context, p *ListParams) iter.Seq2[*TestClock, error] {
	page := valueOf(p)
	return allPages(&page, func() (*TestClockList, error) { return c.ListTestClocks(ctx, &page) },
		func(k *TestClock) string { return k.ID })
}
