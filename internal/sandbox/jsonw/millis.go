package jsonw

import (
	"strconv"
	"time"
)

// Millis writes a duration in milliseconds, to the microsecond: 1.5 for
// 1500µs, 0 for less than a microsecond.
func Millis(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', -1, 64)
}
