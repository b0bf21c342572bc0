package wire

import "time"

// MaxTimeUnix is 9999-12-31T23:59:59Z, the latest time the API writes:
// the last second an RFC 3339 timestamp, whose year has four digits, can
// spell. The service never writes a later time; a request that would
// make it (a test clock's time, a trial's or a period's end, a retry of
// an unpaid invoice) is refused with 400 parameter_invalid naming the
// parameter that asked for it. [assumed]
const MaxTimeUnix = 253_402_300_799

// MinTimeUnix is 1970-01-01T00:00:00Z, the earliest time a request may
// send, as Unix seconds (0) or RFC 3339 alike; MaxTimeUnix is the latest.
// A test clock's frozen_time is bounded closer (TestClockMinYear).
// [own decision]
const MinTimeUnix = 0

// MaxTime is MaxTimeUnix as a time, in UTC.
var MaxTime = time.Unix(MaxTimeUnix, 0).UTC()

// TestClockMinYear and TestClockMaxYear bound the years of a test
// clock's frozen_time, in UTC, whether it is sent as Unix seconds or RFC
// 3339; the latest is MaxTime. [assumed]
const (
	TestClockMinYear = 1971
	TestClockMaxYear = 9999
)

// TestClockMinUnix is the start of TestClockMinYear,
// 1971-01-01T00:00:00Z, as Unix seconds.
const TestClockMinUnix = 31_536_000
