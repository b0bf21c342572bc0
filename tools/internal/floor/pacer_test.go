package floor

import (
	"testing"
	"time"
)

func TestPacer_Reserve(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	tests := []struct {
		name  string
		limit int
		asks  []time.Time // when each create asks, in order
		want  []time.Time // when each may go
	}{
		{"under the limit all go at once", 3, []time.Time{ms(0), ms(0), ms(10)}, []time.Time{ms(0), ms(0), ms(10)}},
		{"the fourth waits for the first's second", 3, []time.Time{ms(0), ms(5), ms(10), ms(20)}, []time.Time{ms(0), ms(5), ms(10), ms(1000)}},
		{"a burst is spread one window apart", 2,
			[]time.Time{ms(0), ms(0), ms(0), ms(0), ms(0), ms(0)},
			[]time.Time{ms(0), ms(0), ms(1000), ms(1000), ms(2000), ms(2000)}},
		{"a late ask goes when it asks", 2, []time.Time{ms(0), ms(100), ms(1500)}, []time.Time{ms(0), ms(100), ms(1500)}},
		{"limit one", 1, []time.Time{ms(0), ms(0), ms(1200)}, []time.Time{ms(0), ms(1000), ms(2000)}},
		{"160 at 25 a second span six seconds", 25, repeat(ms(0), 160), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &pacer{limit: tt.limit}
			var got []time.Time
			for _, ask := range tt.asks {
				got = append(got, p.reserve(ask))
			}
			if tt.want == nil {
				// The window's least span: request k+limit a second after k.
				if span := got[len(got)-1].Sub(got[0]); span != 6*time.Second {
					t.Errorf("span %v, want 6s", span)
				}
			} else {
				for i := range tt.want {
					if !got[i].Equal(tt.want[i]) {
						t.Errorf("create %d asked at %v goes at %v, want %v", i+1, tt.asks[i].Sub(t0), got[i].Sub(t0), tt.want[i].Sub(t0))
					}
				}
			}
			// Whatever the asks, no second holds more than limit creates.
			for i := tt.limit; i < len(got); i++ {
				if d := got[i].Sub(got[i-tt.limit]); d < time.Second {
					t.Errorf("creates %d and %d are %v apart, under a second with limit %d", i-tt.limit+1, i+1, d, tt.limit)
				}
			}
		})
	}
}

func repeat(t time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = t
	}
	return out
}

func TestNewPacerFromEnv_Values(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  int // 0 for no pacer
	}{{"", 0}, {"0", 0}, {"-3", 0}, {"x", 0}, {"25", 25}} {
		t.Setenv(EnvRateLimit, tt.value)
		p := newPacerFromEnv()
		switch {
		case tt.want == 0 && p != nil:
			t.Errorf("%s=%q: pacer with limit %d, want none", EnvRateLimit, tt.value, p.limit)
		case tt.want != 0 && (p == nil || p.limit != tt.want):
			t.Errorf("%s=%q: pacer %+v, want limit %d", EnvRateLimit, tt.value, p, tt.want)
		}
	}
}
