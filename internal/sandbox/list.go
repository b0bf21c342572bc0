package sandbox

import (
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
)

// Every list the API serves pages the same way, through package listing:
// its filters are its own, but the paging parameters, the page and the
// envelope are listing's. A new list declares a listing.List and calls
// serveList.

// serveList answers a list request with l (listing.List.Serve), the
// account read-locked again for each part of a long answer.
func serveList[T any](c *call, l *listing.List[T], all []T, match func(T) bool) response {
	a := c.a
	body, rest, e := l.Serve(c.f, all, match, func() func() { a.mu.RLock(); return a.mu.RUnlock })
	if e != nil {
		return errResponse(e)
	}
	return response{status: http.StatusOK, body: body, rest: rest}
}

// answerList answers a list of n objects (listing.Answer).
func answerList(url string, hasMore bool, n int, put func(b []byte, i int) []byte, lock func() (unlock func())) response {
	body, rest := listing.Answer(url, hasMore, n, put, lock)
	return response{status: http.StatusOK, body: body, rest: rest}
}
