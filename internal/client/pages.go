package client

import (
	"fmt"
	"iter"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// checkPage refuses a page of a list that would mislead its callers: a null
// entry, which would crash every caller that reads the page, or an object of
// the other mode than the key's (livemode tells an entry's).
func checkPage[T any](c *Client, path, noun string, data []*T, livemode func(*T) bool) error {
	for i, o := range data {
		if o == nil {
			return fmt.Errorf("GET %s: decoding answer: entry %d of the list is null, not a %s", path, i, noun)
		}
		if livemode(o) != c.livemode {
			return &LivemodeMismatchError{Path: path, KeyLivemode: c.livemode}
		}
	}
	return nil
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
