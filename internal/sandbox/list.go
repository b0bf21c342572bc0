package sandbox

import (
	"cmp"
	"io"
	"net/http"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Every list the API serves pages the same way, through this file: its
// filters are its own, but limit, starting_after and ending_before are
// parsed by parseListParams, the page cut by listOf.page and the
// envelope written, and streamed when long, by answerList. A new list
// declares a listOf and calls serve.

// listParamNames are the paging parameters every list takes besides its
// filters.
var listParamNames = []string{wire.ParamLimit, wire.ParamStartingAfter, wire.ParamEndingBefore}

// checkList rejects any parameter that is neither one of the list's
// filters nor a paging parameter.
func (c *call) checkList(filters ...string) *apierr.Error {
	return c.f.Check(append(filters, listParamNames...)...)
}

// listParams are a list request's paging parameters, validated.
type listParams struct {
	limit         int
	startingAfter string // an object id, or ""
	endingBefore  string // an object id, or ""
}

// parseListParams reads limit, starting_after and ending_before. Limit is
// an integer from wire.ListLimitMin to wire.ListLimitMax in plain decimal
// digits, as Stripe takes it: a sign, a leading zero, blanks or an
// exponent are refused rather than read, since a client sending them has
// a bug that a lenient server would hide. An empty value is the default,
// as an empty filter filters nothing.
func parseListParams(f form.Form) (listParams, *apierr.Error) {
	p := listParams{limit: wire.ListLimitDefault}
	if v, _ := f.Get(wire.ParamLimit); v != "" {
		n, ok := parseLimit(v)
		if !ok {
			return p, apierr.Invalid(wire.ParamLimit, "limit %q is not valid; use a whole number from %d to %d, written in digits only (no sign, leading zero or blank).",
				apierr.Clip(v), wire.ListLimitMin, wire.ListLimitMax)
		}
		p.limit = n
	}
	p.startingAfter, _ = f.Get(wire.ParamStartingAfter)
	p.endingBefore, _ = f.Get(wire.ParamEndingBefore)
	if p.startingAfter != "" && p.endingBefore != "" {
		return p, apierr.Invalid(wire.ParamEndingBefore, "Send %s or %s, not both.", wire.ParamStartingAfter, wire.ParamEndingBefore)
	}
	return p, nil
}

// parseLimit reads a limit written as [1-9][0-9]* and within the bounds.
func parseLimit(v string) (int, bool) {
	if v == "" || len(v) > len("100") || v[0] == '0' {
		return 0, false
	}
	n := 0
	for i := range len(v) {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		n = n*10 + int(v[i]-'0')
	}
	return n, n >= wire.ListLimitMin && n <= wire.ListLimitMax
}

// listOf is one list the API serves: its objects in creation order, each
// with a sequence number that only grows.
type listOf[T any] struct {
	url  string // the envelope's url, the list's path
	noun string // what the list holds, for errors: "payment"
	seq  func(T) uint64
	// find is the object with that id, if the account has it; a cursor
	// must name one.
	find func(id string) (T, bool)
	// every is every object of the list's kind, oldest first, read again
	// under the account's lock for each part of a long answer.
	every func() []T
	write func(b []byte, x T) []byte
}

// serve answers a list request: the page of all (oldest first) that the
// request's paging parameters name, newest first, keeping only the objects
// match accepts (nil accepts all). The caller has checked the parameter
// names and parsed its filters.
func (l *listOf[T]) serve(c *call, all []T, match func(T) bool) response {
	p, e := parseListParams(c.f)
	if e != nil {
		return errResponse(e)
	}
	page, hasMore, e := l.page(p, all, match)
	if e != nil {
		return errResponse(e)
	}
	// The page is kept as sequence numbers, not objects: a client that
	// reads slowly must not keep deleted objects alive.
	seqs := make([]uint64, len(page))
	for i, x := range page {
		seqs[i] = l.seq(x)
	}
	a := c.a
	return answerList(l.url, hasMore, len(seqs), func(b []byte, i int) []byte {
		every := l.every()
		j, found := slices.BinarySearchFunc(every, seqs[i], func(x T, s uint64) int { return cmp.Compare(l.seq(x), s) })
		if !found || (match != nil && !match(every[j])) {
			return b // deleted or changed since the request arrived
		}
		return l.write(b, every[j])
	}, func() func() { a.mu.RLock(); return a.mu.RUnlock })
}

// listPartBytes is how much of a list answer is written at a time. Only
// the first part is written under the request's lock; the rest, if any,
// is streamed, the lock taken again for each part and released while it
// is sent, so that a client that reads slowly holds one part of the
// sandbox's memory, not the whole answer (a page of 100 large events is
// 15 MB), and never holds the account's lock.
const listPartBytes = 32 << 10

// answerList answers a list of n objects, put(b, i) appending the i-th
// (or nothing, when it is gone). The first part is written now; the rest
// streams, each part between lock() and the function lock returns.
func answerList(url string, hasMore bool, n int, put func(b []byte, i int) []byte, lock func() (unlock func())) response {
	written, i := 0, 0
	part := func(b []byte) []byte {
		for ; i < n && len(b) < listPartBytes; i++ {
			at := len(b)
			if written > 0 {
				b = append(b, ',')
			}
			if nb := put(b, i); len(nb) > len(b) {
				b, written = nb, written+1
			} else {
				b = b[:at] // gone: no comma either
			}
		}
		if i == n {
			b = append(b, `],"has_more":`...)
			b = appendBool(b, hasMore)
			b = append(b, `,"url":`...)
			b = appendString(b, url)
			b = append(b, '}')
		}
		return b
	}
	b := make([]byte, 0, min(listPartBytes, 64+512*n))
	b = part(append(b, `{"object":"list","data":[`...))
	if i == n {
		return ok(b)
	}
	return response{status: http.StatusOK, body: b, rest: func(w io.Writer) error {
		buf := make([]byte, 0, listPartBytes)
		for i < n {
			unlock := lock()
			buf = part(buf[:0])
			unlock()
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}}
}

// page cuts the page p names out of all.
func (l *listOf[T]) page(p listParams, all []T, match func(T) bool) ([]T, bool, *apierr.Error) {
	cursor := func(name, id string) (uint64, *apierr.Error) {
		if x, ok := l.find(id); ok {
			return l.seq(x), nil
		}
		return 0, apierr.MissingRef(name, "%s %q is not a %s of this account; use the id of one from a previous page.", name, apierr.Clip(id), l.noun)
	}
	if match == nil {
		match = func(T) bool { return true }
	}
	// after is the position of the first object with a seq above s.
	after := func(s uint64) int {
		i, _ := slices.BinarySearchFunc(all, s+1, func(x T, s uint64) int { return cmp.Compare(l.seq(x), s) })
		return i
	}
	limit := p.limit
	page := make([]T, 0, min(limit+1, len(all)+1))
	if p.endingBefore != "" {
		s, e := cursor(wire.ParamEndingBefore, p.endingBefore)
		if e != nil {
			return nil, false, e
		}
		// The limit objects right after the cursor in creation order, that
		// is right before it in the list; shown newest first.
		for i := after(s); i < len(all) && len(page) <= limit; i++ {
			if match(all[i]) {
				page = append(page, all[i])
			}
		}
		slices.Reverse(page[:min(limit, len(page))])
	} else {
		end := len(all)
		if p.startingAfter != "" {
			s, e := cursor(wire.ParamStartingAfter, p.startingAfter)
			if e != nil {
				return nil, false, e
			}
			end = after(s - 1)
		}
		for i := end - 1; i >= 0 && len(page) <= limit; i-- {
			if match(all[i]) {
				page = append(page, all[i])
			}
		}
	}
	return page[:min(limit, len(page))], len(page) > limit, nil
}

// noLock is answerList's lock for a list of copies, which needs none.
func noLock() func() { return func() {} }
