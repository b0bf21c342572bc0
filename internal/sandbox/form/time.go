package form

import (
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ParseTime reads a time a request sends, in either form the API takes:
// Unix seconds in plain decimal digits (1769860800, as Stripe's libraries
// send times) or RFC 3339 with any offset (2026-01-31T12:00:00Z, the
// service's own form). Either must fall within [lo, hi], Unix seconds,
// and the refusal names param, both forms and the bounds. A fraction of
// a second is kept in the time returned, for the callers that round it.
func ParseTime(param, v string, lo, hi int64) (time.Time, *apierr.Error) {
	t, ok := parseTime(v)
	if !ok {
		return time.Time{}, apierr.Invalid(param, "%s %q is not a time; send Unix seconds, as in %d, or RFC 3339, as in %s, from %s to %s.",
			param, apierr.Clip(v), exampleTime.Unix(), exampleTime.Format(time.RFC3339), rfc(lo), rfc(hi))
	}
	// An RFC 3339 time's four-digit year in another offset can still
	// fall outside, as 9999-12-31T23:00:00-02:00 does: the bounds are UTC's.
	if s := t.Unix(); s < lo || s > hi || s == hi && t.Nanosecond() > 0 {
		return time.Time{}, apierr.Invalid(param, "%s %q is %s in UTC; send a time from %s to %s (Unix seconds %d to %d).",
			param, apierr.Clip(v), t.UTC().Format(time.RFC3339), rfc(lo), rfc(hi), lo, hi)
	}
	return t, nil
}

// exampleTime is the time the refusals show in both forms.
var exampleTime = time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)

// parseTime reads v as Unix seconds (digits only, no sign, no leading
// zero, as a list's limit) or as RFC 3339; the two never overlap, since
// an RFC 3339 time always holds a dash.
func parseTime(v string) (time.Time, bool) {
	if v != "" && v[0] >= '0' && v[0] <= '9' && len(v) <= 12 {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			if strconv.FormatInt(n, 10) != v {
				return time.Time{}, false
			}
			return time.Unix(n, 0).UTC(), true
		}
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	return t, err == nil
}

// rfc writes Unix time t as RFC 3339 UTC, for messages.
func rfc(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }

// Created filters are a list's range of creation times, in either form
// ParseTime reads, as Stripe's lists take them: created[gte], [gt],
// [lte] and [lt], each optional.
var Created = []string{wire.ParamCreatedGTE, wire.ParamCreatedGT, wire.ParamCreatedLTE, wire.ParamCreatedLT}

// CreatedRange reads a list's created filters (Created) as the first and
// last second kept, both inclusive: objects' times have whole seconds,
// so a bound with a fraction rounds inwards, and gt and lt exclude their
// second. Absent or empty bounds leave the range open; two bounds of one
// side keep the narrower.
func CreatedRange(f Form) (from, to int64, e *apierr.Error) {
	from, to = -1<<63, 1<<63-1
	for _, name := range Created {
		v, _ := f.Get(name)
		if v == "" {
			continue
		}
		t, e := ParseTime(name, v, wire.MinTimeUnix, wire.MaxTimeUnix)
		if e != nil {
			return 0, 0, e
		}
		s, frac := t.Unix(), t.Nanosecond() > 0
		switch name {
		case wire.ParamCreatedGTE:
			if frac {
				s++
			}
			from = max(from, s)
		case wire.ParamCreatedGT:
			from = max(from, s+1)
		case wire.ParamCreatedLTE:
			to = min(to, s)
		case wire.ParamCreatedLT:
			if !frac {
				s--
			}
			to = min(to, s)
		}
	}
	return from, to, nil
}
