package sandbox

import (
	"crypto/sha256"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// param is one decoded form field. A bracketed name such as metadata[plan]
// has base "metadata" and sub "plan".
type param struct {
	name, value string
	base, sub   string
	bracketed   bool
	// array is a name ending in [] (enabled_events[]=a), which may repeat.
	array bool
	// indexed is a field of a list's entry, as in items[0][price]: base
	// "items", index 0, sub "price".
	indexed bool
	index   int
}

// form is a request's parameters: the query string, plus the body of a POST.
type form []param

// parseForm decodes application/x-www-form-urlencoded text into dst. It is
// stricter than url.ParseQuery on purpose: a field given twice, a name with
// unbalanced or nested brackets, or text that is not UTF-8 is an error
// naming the field, because a lenient server hides client bugs.
func parseForm(dst form, raw string) (form, *apiError) {
	for raw != "" {
		var seg string
		seg, raw, _ = strings.Cut(raw, "&")
		if seg == "" {
			continue
		}
		k, v, _ := strings.Cut(seg, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			return dst, invalid(clip(k), "The form field name %q is not valid percent-encoding; send application/x-www-form-urlencoded text.", clip(k))
		}
		value, err := url.QueryUnescape(v)
		if err != nil {
			return dst, invalid(name, "The value of %s is not valid percent-encoding; send application/x-www-form-urlencoded text.", clip(name))
		}
		if name == "" {
			return dst, invalid("", "A form field has an empty name; send name=value pairs.")
		}
		if !utf8.ValidString(name) {
			return dst, invalid("", "A form field name is not valid UTF-8; send UTF-8 text.")
		}
		if !utf8.ValidString(value) {
			return dst, invalid(name, "The value of %s is not valid UTF-8; send UTF-8 text.", clip(name))
		}
		p := param{name: name, value: value}
		if base, ok := strings.CutSuffix(name, "[]"); ok && base != "" && !strings.ContainsAny(base, "[]") {
			p.base, p.array = base, true
		} else if i := strings.IndexByte(name, '['); i >= 0 {
			sub, ok := strings.CutSuffix(name[i+1:], "]")
			if idx, key, found := strings.Cut(sub, "]["); ok && found && i > 0 {
				n, err := strconv.Atoi(idx)
				if err != nil || n < 0 || n > maxFormIndex || strconv.Itoa(n) != idx || key == "" || strings.ContainsAny(key, "[]") {
					return dst, invalid(name, "The field name %s is malformed; name a list's entry by its index and field, as in items[0][price].", clip(name))
				}
				p.base, p.sub, p.index, p.indexed = name[:i], key, n, true
				dst = append(dst, p)
				continue
			}
			if !ok || i == 0 || sub == "" || strings.ContainsAny(sub, "[]") {
				return dst, invalid(name, "The field name %s is malformed; use one key in brackets, as in metadata[plan]=gold.", clip(name))
			}
			p.base, p.sub, p.bracketed = name[:i], sub, true
		} else if strings.IndexByte(name, ']') >= 0 {
			return dst, invalid(name, "The field name %s is malformed; use one key in brackets, as in metadata[plan]=gold.", clip(name))
		}
		dst = append(dst, p)
	}
	// Sorting by name finds duplicates in O(n log n) whatever the body
	// holds, and gives the canonical order the idempotency fingerprint needs.
	slices.SortStableFunc(dst, func(a, b param) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(dst); i++ {
		if dst[i].name == dst[i-1].name && !dst[i].array {
			return dst, invalid(dst[i].name, "The parameter %s is given more than once; send it once.", clip(dst[i].name))
		}
	}
	return dst, nil
}

// clip bounds text from a request quoted back in an error message or its
// param: anything that looks like a key masked (wire.MaskKeys), then at
// most wire.ErrorEchoMaxLength characters and "…". It cuts between
// characters, so that the message stays valid UTF-8.
func clip(s string) string { return wire.Clip(wire.MaskKeys(s), wire.ErrorEchoMaxLength) }

// get returns the value of the field named name.
func (f form) get(name string) (string, bool) {
	for i := range f {
		if f[i].name == name {
			return f[i].value, true
		}
	}
	return "", false
}

// maxFormIndex bounds the index of a list's entry (items[N][price]), so
// that a request cannot make a handler allocate for a huge index.
const maxFormIndex = 999

// check rejects any field not in allowed. An entry "metadata[*]" admits
// every bracketed key of metadata; "created[gte]" admits that one name;
// "items[#][price]" admits the price of every entry of items.
func (f form) check(allowed ...string) *apiError {
next:
	for i := range f {
		p := &f[i]
		for _, a := range allowed {
			if a == p.name {
				continue next
			}
			if p.indexed && len(a) == len(p.base)+len(p.sub)+5 && strings.HasPrefix(a, p.base) && strings.HasSuffix(a, "[#]["+p.sub+"]") {
				continue next
			}
			if p.bracketed && len(a) == len(p.base)+3 && strings.HasPrefix(a, p.base) && strings.HasSuffix(a, "[*]") {
				continue next
			}
		}
		if p.array {
			// An array where none is taken: as malformed as before arrays.
			return invalid(p.name, "The field name %s is malformed; use one key in brackets, as in metadata[plan]=gold.", clip(p.name))
		}
		return unknownParam(p.name)
	}
	return nil
}

// all returns the values of the repeated field name[] in the order sent.
func (f form) all(name string) (vals []string, found bool) {
	for i := range f {
		if f[i].name == name {
			vals, found = append(vals, f[i].value), true
		}
	}
	return vals, found
}

// fingerprint identifies method, path and parameters for idempotency. The
// form is sorted by name, so the order the client sent them in is moot.
func fingerprint(method, path string, f form) [32]byte {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write([]byte(path))
	for _, p := range f {
		h.Write([]byte{0})
		h.Write([]byte(p.name))
		h.Write([]byte{'='})
		h.Write([]byte(p.value))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// rawFingerprint identifies a request whose parameters could not be
// decoded, or were over the size limit (body is then nil and tooLarge set).
func rawFingerprint(method, path, query string, body []byte, tooLarge bool) [32]byte {
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
