package delivery

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Each account's attempts are also counted by the UTC day they were made
// on the engine's clock (real time, whatever time an event carries), for
// the account's summary: one record per day in BucketDays, written with
// the attempt's own records. Days more than keepDays before the newest
// are dropped as new ones come, since no summary reaches back so far.

// BucketDays holds an account's attempts counted by day.
const BucketDays = "delivery_days"

// keepDays is how many days back from the newest the book keeps: a
// summary spans at most 366 days ending at the latest of real time and
// the account's test clocks, never before today.
const keepDays = 366

// DayTally is one day's attempts: those that delivered the event and
// those that did not. A delivery not queued (attempt 0) is no attempt.
type DayTally struct {
	Day       int64 // days since 1970-01-01
	Succeeded int64
	Failed    int64
}

type dayRecord struct {
	Date      string `json:"date"`
	Succeeded int64  `json:"succeeded,omitempty"`
	Failed    int64  `json:"failed,omitempty"`
}

// dayTallyBytes is what a day costs its account: its struct and map entry.
var dayTallyBytes = int64(reflect.TypeFor[DayTally]().Size()) + allocOverhead + (8+8+1)*8/5

// countDay counts attempt at in its day, and writes the day; mu is held.
func (e *Engine) countDay(w *writes, bk *Book, at *Attempt) {
	if at.N == 0 {
		return
	}
	day := wire.SummaryDayOf(at.At)
	t := bk.days[day]
	if t == nil {
		if bk.days == nil {
			bk.days = make(map[int64]*DayTally)
		}
		t = &DayTally{Day: day}
		bk.days[day] = t
		bk.add(dayTallyBytes)
		for old := range bk.days {
			if old < day-keepDays {
				delete(bk.days, old)
				bk.add(-dayTallyBytes)
				e.putDay(w, &DayTally{Day: old}, true)
			}
		}
	}
	if at.Err == "" {
		t.Succeeded++
	} else {
		t.Failed++
	}
	e.putDay(w, t, false)
}

func (e *Engine) putDay(w *writes, t *DayTally, del bool) {
	if !e.host.Stored() {
		return
	}
	x := Write{Bucket: BucketDays, Key: wire.SummaryDate(t.Day)}
	if !del {
		x.Value = e.marshal(dayRecord{Date: x.Key, Succeeded: t.Succeeded, Failed: t.Failed})
	}
	*w = append(*w, x)
}

// Days are the account's days from from to until, inclusive, that had
// attempts, oldest first.
func (bk *Book) Days(from, until int64) []DayTally {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	var out []DayTally
	if until-from < int64(len(bk.days)) {
		for d := from; d <= until; d++ {
			if t := bk.days[d]; t != nil {
				out = append(out, *t)
			}
		}
		return out
	}
	for d, t := range bk.days {
		if d >= from && d <= until {
			out = append(out, *t)
		}
	}
	slices.SortFunc(out, func(x, y DayTally) int { return cmp.Compare(x.Day, y.Day) })
	return out
}

// loadDays reads the days' records; an account stored before they were
// kept has none, and its days are counted from its delivery log, which
// holds the last maxLog attempts only. Those are written by the first
// flush (Engine.Start). mu is held.
func (bk *Book) loadDays(recs [][]byte) error {
	for _, raw := range recs {
		var rec dayRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a delivery day record from the data file: %w", err)
		}
		t, err := time.Parse(time.DateOnly, rec.Date)
		if err != nil {
			return fmt.Errorf("data file: delivery day %q is malformed", rec.Date)
		}
		if bk.days == nil {
			bk.days = make(map[int64]*DayTally)
		}
		day := wire.SummaryDayOf(t.Unix())
		bk.days[day] = &DayTally{Day: day, Succeeded: rec.Succeeded, Failed: rec.Failed}
	}
	if len(recs) > 0 {
		return nil
	}
	for _, at := range bk.attempts {
		if at.N == 0 {
			continue
		}
		if bk.days == nil {
			bk.days = make(map[int64]*DayTally)
		}
		day := wire.SummaryDayOf(at.At)
		t := bk.days[day]
		if t == nil {
			t = &DayTally{Day: day}
			bk.days[day] = t
		}
		if at.Err == "" {
			t.Succeeded++
		} else {
			t.Failed++
		}
	}
	for _, t := range bk.days {
		x := Write{Bucket: BucketDays, Key: wire.SummaryDate(t.Day)}
		x.Value, _ = json.Marshal(dayRecord{Date: x.Key, Succeeded: t.Succeeded, Failed: t.Failed})
		bk.writes = append(bk.writes, x)
	}
	return nil
}
