// Package bytesize reads and writes sizes in bytes as people type them:
// 64MiB, 500MB, 1.5 GiB. The sandbox's byte limits take them, on its
// command line and in its messages.
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// byteUnits are the suffixes Parse accepts, longest first.
var byteUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"B", 1},
}

// Parse reads a size: a whole number of bytes, optionally followed by
// B, KiB, MiB, GiB or TiB (powers of 1024) or KB, MB, GB or TB (powers of
// 1000), as in 64MiB. Units ignore case; a space before them is allowed.
func Parse(v string) (int64, error) {
	num, mult := strings.TrimSpace(v), int64(1)
	for _, u := range byteUnits {
		if len(num) > len(u.suffix) && strings.EqualFold(num[len(num)-len(u.suffix):], u.suffix) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || strings.HasPrefix(num, "+") || (n > 0 && mult > (1<<63-1)/n) {
		return 0, fmt.Errorf("%q is not a size; use a whole number of bytes, optionally with a unit KiB, MiB, GiB (powers of 1024) or KB, MB, GB (powers of 1000), such as 64MiB", v)
	}
	return n * mult, nil
}

// Format writes a size with the largest power-of-1024 unit that keeps
// it at least 1, as in 64 MiB or 1.5 GiB.
func Format(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	f, i := float64(n), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	s := strconv.FormatFloat(f, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " " + units[i]
}
