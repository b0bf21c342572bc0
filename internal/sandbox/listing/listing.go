// Package listing is how every list the API serves pages: the paging
// parameters (limit, starting_after, ending_before) and their errors, the
// page a cursor names in a list kept in creation order, and the envelope
// {"object":"list","data":[…],"has_more":…,"url":…}, streamed in parts
// when long. A list's filters are its own; it declares a List and its
// handler calls Serve. It knows nothing of the handlers or the objects.
package listing

import (
	"io"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ParamNames are the paging parameters every list takes besides its
// filters.
var ParamNames = []string{wire.ParamLimit, wire.ParamStartingAfter, wire.ParamEndingBefore}

// Check rejects any parameter of f that is neither one of the list's
// filters nor a paging parameter.
func Check(f form.Form, filters ...string) *apierr.Error {
	return f.Check(append(filters, ParamNames...)...)
}

// Params are a list request's paging parameters, validated.
type Params struct {
	Limit         int
	StartingAfter string // an object id, or ""
	EndingBefore  string // an object id, or ""
}

// ParseParams reads limit, starting_after and ending_before. Limit is
// an integer from wire.ListLimitMin to wire.ListLimitMax in plain decimal
// digits, as Stripe takes it: a sign, a leading zero, blanks or an
// exponent are refused rather than read, since a client sending them has
// a bug that a lenient server would hide. An empty value is the default,
// as an empty filter filters nothing.
func ParseParams(f form.Form) (Params, *apierr.Error) {
	p := Params{Limit: wire.ListLimitDefault}
	if v, _ := f.Get(wire.ParamLimit); v != "" {
		n, ok := parseLimit(v)
		if !ok {
			return p, apierr.Invalid(wire.ParamLimit, "limit %q is not valid; use a whole number from %d to %d, written in digits only (no sign, leading zero or blank).",
				apierr.Clip(v), wire.ListLimitMin, wire.ListLimitMax)
		}
		p.Limit = n
	}
	p.StartingAfter, _ = f.Get(wire.ParamStartingAfter)
	p.EndingBefore, _ = f.Get(wire.ParamEndingBefore)
	if p.StartingAfter != "" && p.EndingBefore != "" {
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

// List is one list the API serves: its objects in creation order, each
// with a sequence number that only grows.
type List[T any] struct {
	URL  string // the envelope's url, the list's path
	Noun string // what the list holds, for errors: "payment"
	Seq  func(T) uint64
	// Find is the object with that id, if the account has it; a cursor
	// must name one.
	Find func(id string) (T, bool)
	// Every is every object of the list's kind, oldest first, read again
	// under the account's lock for each part of a long answer.
	Every func() []T
	Write func(b []byte, x T) []byte
}

// Serve answers a list request of parameters f: the page of all (oldest
// first) that the paging parameters name, newest first, keeping only the
// objects match accepts (nil accepts all). The caller has checked the
// parameter names and parsed its filters. The answer is first and, when
// long, rest (see Answer); lock guards Every for each part of rest.
func (l *List[T]) Serve(f form.Form, all []T, match func(T) bool, lock func() (unlock func())) (first []byte, rest func(io.Writer) error, e *apierr.Error) {
	p, e := ParseParams(f)
	if e != nil {
		return nil, nil, e
	}
	page, hasMore, e := l.Page(p, all, match)
	if e != nil {
		return nil, nil, e
	}
	// The page is kept as sequence numbers, not objects: a client that
	// reads slowly must not keep deleted objects alive.
	seqs := make([]uint64, len(page))
	for i, x := range page {
		seqs[i] = l.Seq(x)
	}
	first, rest = Answer(l.URL, hasMore, len(seqs), func(b []byte, i int) []byte {
		every := l.Every()
		j, found := model.BySeq(every, seqs[i], l.Seq)
		if !found || (match != nil && !match(every[j])) {
			return b // deleted or changed since the request arrived
		}
		return l.Write(b, every[j])
	}, lock)
	return first, rest, nil
}

// PartBytes is how much of a list answer is written at a time. Only
// the first part is written under the request's lock; the rest, if any,
// is streamed, the lock taken again for each part and released while it
// is sent, so that a client that reads slowly holds one part of the
// sandbox's memory, not the whole answer (a page of 100 large events is
// 15 MB), and never holds the account's lock.
const PartBytes = 32 << 10

// Answer writes the envelope of a list of n objects, put(b, i) appending
// the i-th (or nothing, when it is gone). The first part is written now;
// rest, nil when there is none, writes the others, each part between
// lock() and the function lock returns.
func Answer(url string, hasMore bool, n int, put func(b []byte, i int) []byte, lock func() (unlock func())) (first []byte, rest func(io.Writer) error) {
	written, i := 0, 0
	part := func(b []byte) []byte {
		for ; i < n && len(b) < PartBytes; i++ {
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
			b = jsonw.Bool(b, hasMore)
			b = append(b, `,"url":`...)
			b = jsonw.String(b, url)
			b = append(b, '}')
		}
		return b
	}
	b := make([]byte, 0, min(PartBytes, 64+512*n))
	b = part(append(b, `{"object":"list","data":[`...))
	if i == n {
		return b, nil
	}
	return b, func(w io.Writer) error {
		buf := make([]byte, 0, PartBytes)
		for i < n {
			unlock := lock()
			buf = part(buf[:0])
			unlock()
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
}

// Page cuts the page p names out of all, newest first, and says whether
// more match beyond it.
func (l *List[T]) Page(p Params, all []T, match func(T) bool) ([]T, bool, *apierr.Error) {
	cursor := func(name, id string) (uint64, *apierr.Error) {
		if x, ok := l.Find(id); ok {
			return l.Seq(x), nil
		}
		return 0, apierr.MissingRef(name, "%s %q is not a %s of this account; use the id of one from a previous page.", name, apierr.Clip(id), l.Noun)
	}
	if match == nil {
		match = func(T) bool { return true }
	}
	// after is the position of the first object with a seq above s.
	after := func(s uint64) int {
		i, _ := model.BySeq(all, s+1, l.Seq)
		return i
	}
	limit := p.Limit
	page := make([]T, 0, min(limit+1, len(all)+1))
	if p.EndingBefore != "" {
		s, e := cursor(wire.ParamEndingBefore, p.EndingBefore)
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
		if p.StartingAfter != "" {
			s, e := cursor(wire.ParamStartingAfter, p.StartingAfter)
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

// NoLock is Answer's lock for a list of copies, which needs none.
func NoLock() func() { return func() {} }
