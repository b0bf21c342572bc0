// Package form reads the sandbox's API input: the form-encoded
// parameters of a request (Parse, and a Form's Get, All and Check), the
// fingerprint an Idempotency-Key remembers, and the checks of single
// values every handler shares (an e-mail address, a label, an amount, a
// currency, a boolean, a time: ParseTime, and a list's created filters:
// CreatedRange) and the change of an object's metadata
// (ApplyMetadata). Each refusal is an apierr.Error naming the field and
// the fix. It knows nothing of the handlers.
package form

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Param is one decoded form field. A bracketed name such as metadata[plan]
// has base "metadata" and sub "plan"; so has a list's entry named by its
// index, enabled_events[0] (base "enabled_events", sub "0"), which only
// the list's parameter tells from a map's key (Check, All).
type Param struct {
	Name, Value string
	Base, Sub   string
	Bracketed   bool
	// Array is a list's entry without its index (enabled_events[]=a),
	// which may repeat; Index is its place among them, in the order sent.
	Array bool
	// Indexed is a field of a list's entry, as in items[0][price]: base
	// "items", index 0, sub "price".
	Indexed bool
	Index   int
}

// Form is a request's parameters: the query string, plus the body of a POST.
type Form []Param

// Parse decodes application/x-www-form-urlencoded text into dst. It is
// stricter than url.ParseQuery on purpose: a field given twice, a name with
// unbalanced or nested brackets, or text that is not UTF-8 is an error
// naming the field, because a lenient server hides client bugs.
func Parse(dst Form, raw string) (Form, *apierr.Error) {
	for raw != "" {
		var seg string
		seg, raw, _ = strings.Cut(raw, "&")
		if seg == "" {
			continue
		}
		k, v, _ := strings.Cut(seg, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			return dst, apierr.Invalid(apierr.Clip(k), "The form field name %q is not valid percent-encoding; send application/x-www-form-urlencoded text.", apierr.Clip(k))
		}
		value, err := url.QueryUnescape(v)
		if err != nil {
			return dst, apierr.Invalid(name, "The value of %s is not valid percent-encoding; send application/x-www-form-urlencoded text.", apierr.Clip(name))
		}
		if name == "" {
			return dst, apierr.Invalid("", "A form field has an empty name; send name=value pairs.")
		}
		if !utf8.ValidString(name) {
			return dst, apierr.Invalid("", "A form field name is not valid UTF-8; send UTF-8 text.")
		}
		if !utf8.ValidString(value) {
			return dst, apierr.Invalid(name, "The value of %s is not valid UTF-8; send UTF-8 text.", apierr.Clip(name))
		}
		p := Param{Name: name, Value: value}
		if base, ok := strings.CutSuffix(name, "[]"); ok && base != "" && !strings.ContainsAny(base, "[]") {
			p.Base, p.Array = base, true
		} else if i := strings.IndexByte(name, '['); i >= 0 {
			sub, ok := strings.CutSuffix(name[i+1:], "]")
			if idx, key, found := strings.Cut(sub, "]["); ok && found && i > 0 {
				n, ok := parseIndex(idx)
				if !ok || key == "" || strings.ContainsAny(key, "[]") {
					return dst, apierr.Invalid(name, "The field name %s is malformed; name a list's entry by its index and field, as in items[0][price].", apierr.Clip(name))
				}
				p.Base, p.Sub, p.Index, p.Indexed = name[:i], key, n, true
				dst = append(dst, p)
				continue
			}
			if !ok || i == 0 || sub == "" || strings.ContainsAny(sub, "[]") {
				return dst, apierr.Invalid(name, "The field name %s is malformed; use one key in brackets, as in metadata[plan]=gold.", apierr.Clip(name))
			}
			p.Base, p.Sub, p.Bracketed = name[:i], sub, true
		} else if strings.IndexByte(name, ']') >= 0 {
			return dst, apierr.Invalid(name, "The field name %s is malformed; use one key in brackets, as in metadata[plan]=gold.", apierr.Clip(name))
		}
		dst = append(dst, p)
	}
	// Sorting by name finds duplicates in O(n log n) whatever the body
	// holds, and gives the canonical order the idempotency fingerprint needs.
	// The sort is stable: a list's entries without an index keep the
	// order sent, which numbers them.
	slices.SortStableFunc(dst, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	for i := range dst {
		if i > 0 && dst[i].Name == dst[i-1].Name {
			if !dst[i].Array {
				return dst, apierr.Invalid(dst[i].Name, "The parameter %s is given more than once; send it once.", apierr.Clip(dst[i].Name))
			}
			dst[i].Index = dst[i-1].Index + 1
		} else if dst[i].Array {
			dst[i].Index = 0
		}
	}
	return dst, nil
}

// parseIndex reads the index of a list's entry, the one way for both
// kinds of list (enabled_events[2], items[2][price]): decimal digits
// without a sign or a leading zero, at most MaxIndex.
func parseIndex(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && n <= MaxIndex && strconv.Itoa(n) == s
}

// Get returns the value of the field named name.
func (f Form) Get(name string) (string, bool) {
	for i := range f {
		if f[i].Name == name {
			return f[i].Value, true
		}
	}
	return "", false
}

// MaxIndex bounds the index of a list's entry (items[N][price],
// enabled_events[N]), so that a request cannot make a handler allocate
// for a huge index.
const MaxIndex = 999

// Check rejects any field not in allowed. An entry "metadata[*]" admits
// every bracketed key of metadata; "created[gte]" admits that one name;
// "items[#][price]" admits the price of every entry of items;
// "enabled_events[]" admits the list enabled_events in either form (All),
// and refuses it when malformed.
func (f Form) Check(allowed ...string) *apierr.Error {
next:
	for i := range f {
		p := &f[i]
		for _, a := range allowed {
			if a == p.Name {
				continue next
			}
			if p.Indexed && len(a) == len(p.Base)+len(p.Sub)+5 && strings.HasPrefix(a, p.Base) && strings.HasSuffix(a, "[#]["+p.Sub+"]") {
				continue next
			}
			if p.Bracketed && len(a) == len(p.Base)+3 && strings.HasPrefix(a, p.Base) && strings.HasSuffix(a, "[*]") {
				continue next
			}
			if p.Bracketed && len(a) == len(p.Base)+2 && strings.HasPrefix(a, p.Base) && strings.HasSuffix(a, "[]") {
				continue next // a list's entry by its index, checked by All below
			}
		}
		if p.Name == wire.ParamExpand || p.Base == wire.ParamExpand {
			return notExpanded(p.Value)
		}
		if p.Array {
			// An array where none is taken: as malformed as before arrays.
			return apierr.Invalid(p.Name, "The field name %s is malformed; use one key in brackets, as in metadata[plan]=gold.", apierr.Clip(p.Name))
		}
		return apierr.UnknownParam(p.Name)
	}
	for _, a := range allowed {
		if strings.HasSuffix(a, "[]") {
			if _, _, e := f.All(a); e != nil {
				return e
			}
		}
	}
	return nil
}

// notExpanded refuses Stripe's expand[], sent by its libraries when asked
// for a referenced object in place of its id: parameter_unknown, as any
// parameter no endpoint takes, with a message saying that expansion is
// not served and what to do instead.
func notExpanded(field string) *apierr.Error {
	e := apierr.UnknownParam(wire.ParamExpand)
	e.Message = fmt.Sprintf("expand is not served: answers refer to other objects by their ids, never in place (expand asked for %s). Remove expand and retrieve the object by its id.",
		strconv.Quote(apierr.Clip(field)))
	return e
}

// All returns the entries of the list name ("enabled_events[]"), sent
// either as name[]=v, in the order sent, or as name[0]=v, name[1]=v… by
// index (as Stripe's libraries send lists): the indexes from 0 without a
// gap, each once (Parse refuses a repeat). A malformed index, a gap, or
// both forms in one request is refused naming the list.
func (f Form) All(name string) (vals []string, found bool, e *apierr.Error) {
	base := strings.TrimSuffix(name, "[]")
	type entry struct {
		n int
		v string
	}
	var indexed []entry
	for i := range f {
		p := &f[i]
		switch {
		case p.Base != base:
		case p.Array:
			vals = append(vals, p.Value)
		case p.Bracketed:
			n, ok := parseIndex(p.Sub)
			if !ok {
				return nil, true, apierr.Invalid(base, "The field name %s is malformed; name a list's entries %s[0], %s[1]… (at most %d), or send each as %s[].",
					apierr.Clip(p.Name), base, base, MaxIndex, base)
			}
			indexed = append(indexed, entry{n, p.Value})
		}
	}
	switch {
	case len(vals) > 0 && len(indexed) > 0:
		return nil, true, apierr.Invalid(base, "%s is sent both as %s[] and as %s[0], %s[1]…; send its entries in one form only.", base, base, base, base)
	case len(indexed) == 0:
		return vals, len(vals) > 0, nil
	}
	slices.SortFunc(indexed, func(a, b entry) int { return a.n - b.n })
	vals = make([]string, len(indexed))
	for i, en := range indexed {
		if en.n != i {
			return nil, true, apierr.Invalid(base, "%s has %s[%d] but no %s[%d]; number its entries 0, 1, 2… without gaps.", base, base, en.n, base, i)
		}
		vals[i] = en.v
	}
	return vals, true, nil
}

// Fingerprint identifies method, path and parameters for idempotency. The
// form is sorted by name, so the order the client sent them in is moot;
// so is the form of a list: x[]=a&x[]=b is x[0]=a&x[1]=b, one request
// whichever way a client sends it.
func Fingerprint(method, path string, f Form) [32]byte {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write([]byte(path))
	for _, p := range canonical(f) {
		h.Write([]byte{0})
		h.Write([]byte(p.Name))
		h.Write([]byte{'='})
		h.Write([]byte(p.Value))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// canonical is f with each list entry sent without its index named by it
// (x[] the second time is x[1]), sorted again by name; f itself when it
// has none.
func canonical(f Form) Form {
	if !slices.ContainsFunc(f, func(p Param) bool { return p.Array }) {
		return f
	}
	c := slices.Clone(f)
	for i := range c {
		if c[i].Array {
			c[i].Name = c[i].Base + "[" + strconv.Itoa(c[i].Index) + "]"
		}
	}
	slices.SortFunc(c, func(a, b Param) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Value, b.Value))
	})
	return c
}

// RawFingerprint identifies a request whose parameters could not be
// decoded, or were over the size limit (body is then nil and tooLarge set).
func RawFingerprint(method, path, query string, body []byte, tooLarge bool) [32]byte {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{1})
	h.Write([]byte(path))
	h.Write([]byte{1})
	h.Write([]byte(query))
	h.Write([]byte{1})
	if tooLarge {
		h.Write([]byte("body over the limit"))
	} else {
		h.Write(body)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
