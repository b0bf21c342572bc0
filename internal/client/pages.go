package client

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// listPage gets one page of the list at path. It refuses a page that would
// mislead its callers: a null entry, which would crash every caller that
// reads the page (noun names what an entry should be: "a customer"), or an object of the
// other mode than the key's (livemode tells an entry's; nil for entries,
// such as an invoice's lines, that carry no livemode).
func listPage[T any](ctx context.Context, c *Client, path string, query url.Values, noun string,
	livemode func(*T) bool) (*wire.List[T], error) {
	var out wire.List[T]
	if err := c.call(ctx, http.MethodGet, path, query, nil, &out); err != nil {
		return nil, err
	}
	for i, o := range out.Data {
		if o == nil {
			return nil, fmt.Errorf("GET %s: decoding answer: entry %d of the list is null, not %s", path, i, noun)
		}
		if livemode != nil && livemode(o) != c.livemode {
			return nil, &LivemodeMismatchError{Path: path, KeyLivemode: c.livemode}
		}
	}
	return &out, nil
}

// valueOf is *p, or the zero value when p is nil: a caller's parameters,
// copied so that paging does not change them.
func valueOf[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// allPages iterates over every object of a list, newest first, following
// its pages: next fetches the page that p (the caller's copy of the list's
// parameters) names, and id tells an object's id, where the next page
// starts. Iteration stops at the first error, which is yielded with a nil
// object.
func allPages[T any](p *ListParams, next func() (*wire.List[T], error), id func(*T) string) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		p.EndingBefore = ""
		for {
			list, err := next()
			if err != nil {
				yield(nil, err)
				return
			}
			for _, o := range list.Data {
				if !yield(o, nil) {
					return
				}
			}
			if !list.HasMore || len(list.Data) == 0 {
				return
			}
			p.StartingAfter = id(list.Data[len(list.Data)-1])
		}
	}
}
