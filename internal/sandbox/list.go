package sandbox

import (
	"cmp"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Every list the API serves pages the same way, through this file: its
// filters are its own, but limit, starting_after and ending_before are
// parsed by parseListParams, the page cut by listPage and the envelope
// written by appendList. A new list declares a listOf and calls serve.

// listParamNames are the paging parameters every list takes besides its
// filters.
var listParamNames = []string{wire.ParamLimit, wire.ParamStartingAfter, wire.ParamEndingBefore}

// checkList rejects any parameter that is neither one of the list's
// filters nor a paging parameter.
func (c *call) checkList(filters ...string) *apiError {
	return c.f.check(append(filters, listParamNames...)...)
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
func parseListParams(f form) (listParams, *apiError) {
	p := listParams{limit: wire.ListLimitDefault}
	if v, _ := f.get(wire.ParamLimit); v != "" {
		n, ok := parseLimit(v)
		if !ok {
			return p, invalid(wire.ParamLimit, "limit %q is not valid; use a whole number from %d to %d, written in digits only (no sign, leading zero or blank).",
				clip(v), wire.ListLimitMin, wire.ListLimitMax)
		}
		p.limit = n
	}
	p.startingAfter, _ = f.get(wire.ParamStartingAfter)
	p.endingBefore, _ = f.get(wire.ParamEndingBefore)
	if p.startingAfter != "" && p.endingBefore != "" {
		return p, invalid(wire.ParamEndingBefore, "Send %s or %s, not both.", wire.ParamStartingAfter, wire.ParamEndingBefore)
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
	find  func(id string) (T, bool)
	write func(b []byte, x T) []byte
}

// serve answers a list request: the page of all (oldest first) that the
// request's paging parameters name, newest first, keeping only the objects
// match accepts (nil accepts all). The caller has checked the parameter
// names and parsed its filters.
func (l *listOf[T]) serve(c *call, all []T, match func(T) bool) response {
	p, e := parseListParams(c.f)
	if e != nil {
		return e.response()
	}
	page, hasMore, e := l.page(p, all, match)
	if e != nil {
		return e.response()
	}
	return ok(appendList(nil, l.url, page, hasMore, l.write))
}

// page cuts the page p names out of all.
func (l *listOf[T]) page(p listParams, all []T, match func(T) bool) ([]T, bool, *apiError) {
	cursor := func(name, id string) (uint64, *apiError) {
		if x, ok := l.find(id); ok {
			return l.seq(x), nil
		}
		return 0, missingRef(name, "%s %q is not a %s of this account; use the id of one from a previous page.", name, clip(id), l.noun)
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

// appendList writes the list envelope around page, each object written by
// write.
func appendList[T any](b []byte, url string, page []T, hasMore bool, write func([]byte, T) []byte) []byte {
	if b == nil {
		b = make([]byte, 0, 64+512*len(page))
	}
	b = append(b, `{"object":"list","data":[`...)
	for i, x := range page {
		if i > 0 {
			b = append(b, ',')
		}
		b = write(b, x)
	}
	b = append(b, `],"has_more":`...)
	b = appendBool(b, hasMore)
	b = append(b, `,"url":`...)
	b = appendString(b, url)
	return append(b, '}')
}
