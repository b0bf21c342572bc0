package wire

import (
	"strconv"
	"strings"
	"time"
)

// FormatDurationWords writes a duration the way people write it in a
// sentence: "30 minutes", "1 hour 30 minutes", "1.5 seconds", "250
// milliseconds". Pages and messages use it for how long something lasts;
// a value the user types into a configuration keeps Go's syntax ("30s").
func FormatDurationWords(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var parts []string
	unit := func(n int64, name string) {
		if n == 1 {
			parts = append(parts, "1 "+name)
		} else if n > 1 {
			parts = append(parts, strconv.FormatInt(n, 10)+" "+name+"s")
		}
	}
	switch {
	case d == 0:
		return "0 seconds"
	case d < time.Millisecond:
		parts = append(parts, d.String())
	case d < time.Second:
		unit(d.Round(time.Millisecond).Milliseconds(), "millisecond")
	case d < time.Minute && d%time.Second != 0:
		// Fractions only where they matter: 1.5 seconds, never 1m0.5s.
		s := strconv.FormatFloat(d.Round(time.Millisecond).Seconds(), 'f', -1, 64)
		parts = append(parts, s+" seconds")
	default:
		d = d.Round(time.Second)
		unit(int64(d/time.Hour), "hour")
		unit(int64(d%time.Hour/time.Minute), "minute")
		unit(int64(d%time.Minute/time.Second), "second")
	}
	s := strings.Join(parts, " ")
	if neg {
		s = "minus " + s
	}
	return s
}
