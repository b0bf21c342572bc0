package dashboard

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

type testClocksData struct {
	Clocks []*wire.TestClock
	// Start is the new clock form's frozen time: now, to the second.
	Start   string
	NameMax int
	Pager   pager
}

// testClocks lists the account's test clocks (GET
// /v1/test_helpers/test_clocks), with a form that creates one.
func (d *Dashboard) testClocks(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r)
	var l wire.TestClockList
	if err := d.get(r.Context(), ss, wire.PathTestClocks, q, &l); err != nil {
		d.fail(w, r, ss, "test-clocks", err)
		return
	}
	first, last := ids(l.Data, func(k *wire.TestClock) string { return k.ID })
	d.render(w, r, ss, http.StatusOK, "test_clocks.html", &view{Title: "Test clocks", Nav: "test-clocks", Live: true, Data: testClocksData{
		Clocks: l.Data, Start: d.now().UTC().Truncate(time.Second).Format(time.RFC3339), NameMax: wire.NameMaxLength,
		Pager: pagerFor("/test-clocks", r, q, first, last, l.HasMore),
	}})
}

// createTestClock is the new clock form: POST /v1/test_helpers/test_clocks.
func (d *Dashboard) createTestClock(w http.ResponseWriter, r *http.Request, ss *session) {
	form := url.Values{wire.ParamFrozenTime: {strings.TrimSpace(r.PostFormValue(wire.ParamFrozenTime))}}
	if name := strings.TrimSpace(r.PostFormValue(wire.ParamName)); name != "" {
		form.Set(wire.ParamName, name)
	}
	var k wire.TestClock
	if err := d.post(r.Context(), ss, wire.PathTestClocks, form, &k); err != nil {
		d.done(w, r, ss, "/test-clocks", err, "")
		return
	}
	d.done(w, r, ss, "/test-clocks/"+url.PathEscape(k.ID), nil,
		fmt.Sprintf("Test clock %s created at %s. Put customers on it with test_clock=%s when you create them.", k.ID, k.FrozenTime, k.ID))
}

type testClockData struct {
	K *wire.TestClock
	// Next is the advance form's frozen time: a month after the clock's,
	// or wire.MaxTime when that is sooner.
	Next string
	// Periods is how many periods of its shortest subscription one
	// advance may cross.
	Periods int
}

// testClock shows one test clock and the form that advances it.
func (d *Dashboard) testClock(w http.ResponseWriter, r *http.Request, ss *session) {
	var k wire.TestClock
	if err := d.get(r.Context(), ss, expand(wire.PathTestClock, r.PathValue("id")), nil, &k); err != nil {
		d.fail(w, r, ss, "test-clocks", err)
		return
	}
	data := testClockData{K: &k, Periods: wire.TestClockAdvancePeriods}
	if t, err := time.Parse(time.RFC3339Nano, k.FrozenTime); err == nil {
		// Never past the latest time the API accepts.
		next := min(t.AddDate(0, 1, 0).Unix(), wire.MaxTimeUnix)
		data.Next = time.Unix(next, 0).UTC().Format(time.RFC3339)
	}
	d.render(w, r, ss, http.StatusOK, "test_clock.html", &view{Title: "Test clock " + k.ID, Nav: "test-clocks", Live: true, Data: data})
}

// advanceTestClock is the advance form: POST
// /v1/test_helpers/test_clocks/{id}/advance, which runs every renewal,
// retry and trial end due on the way before it answers.
func (d *Dashboard) advanceTestClock(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	where := "/test-clocks/" + url.PathEscape(id)
	var before, after wire.TestClock
	err := d.get(r.Context(), ss, expand(wire.PathTestClock, id), nil, &before)
	if err == nil {
		to := strings.TrimSpace(r.PostFormValue(wire.ParamFrozenTime))
		err = d.post(r.Context(), ss, expand(wire.PathTestClockAdvance, id), url.Values{wire.ParamFrozenTime: {to}}, &after)
	}
	msg := fmt.Sprintf("Test clock %s advanced %s, to %s; it is %s.",
		after.ID, formatSpan(before.FrozenTime, after.FrozenTime), after.FrozenTime, after.Status)
	if st := after.StatusDetails.Stopped; err == nil && st != nil {
		msg = fmt.Sprintf("Test clock %s advanced %s, to %s, and stopped short of %s: %s",
			after.ID, formatSpan(before.FrozenTime, after.FrozenTime), after.FrozenTime, st.TargetFrozenTime, st.Message)
	}
	d.done(w, r, ss, where, err, msg)
}
