package wire

// Test clocks: a frozen time of its own for the customers put on it, moved
// forward by hand, so that a month of renewals runs in a request. Every
// fact here is [assumed], modelled on Stripe's test clocks.

// TestClockIDPrefix starts a test clock's id. [assumed]
const TestClockIDPrefix = "clock_"

// Paths of test clocks. [assumed]
const (
	PathTestClocks       = APIVersionPrefix + "/test_helpers/test_clocks"
	PathTestClock        = PathTestClocks + "/{id}"
	PathTestClockAdvance = PathTestClock + "/advance"
)

// Parameters of test clocks. [assumed]
const (
	// ParamFrozenTime is a clock's time, RFC 3339.
	ParamFrozenTime = "frozen_time"
	// ParamTestClock puts a customer on a clock at its creation.
	ParamTestClock = "test_clock"
)

// Test clock statuses. [assumed]
const (
	TestClockStatusReady     = "ready"
	TestClockStatusAdvancing = "advancing"
)

// TestClockAdvancePeriods is how many periods of the shortest subscription
// on a clock one advance may cross. [assumed]
const TestClockAdvancePeriods = 2

// Event types of test clocks. [assumed]
const (
	EventTestClockCreated   = "test_helpers.test_clock.created"
	EventTestClockAdvancing = "test_helpers.test_clock.advancing"
	EventTestClockReady     = "test_helpers.test_clock.ready"
	EventTestClockDeleted   = "test_helpers.test_clock.deleted"
)

// TestClockStopInterrupted is the code of an advance that stopped
// between two of its commits: the sandbox stopped, or its data file
// failed, after writing part of it. An advance stopped for want of room
// has the limit's error code instead (ErrorCodeAccountLimitExceeded,
// ErrorCodeSandboxLimitExceeded). [own decision]
const TestClockStopInterrupted = "advance_interrupted"

// TestClock is a clock of its own for the customers on it. Name is ""
// when null.
type TestClock struct {
	ID            string                 `json:"id"`
	Object        string                 `json:"object"`
	Name          string                 `json:"name"`
	FrozenTime    string                 `json:"frozen_time"`
	Status        string                 `json:"status"`
	StatusDetails TestClockStatusDetails `json:"status_details"`
	CreatedAt     string                 `json:"created_at"`
	Livemode      bool                   `json:"livemode"`
}

// TestClockStatusDetails says more of a clock's status: Stopped is set
// when its last advance stopped short of its target. [own decision]
type TestClockStatusDetails struct {
	Stopped *TestClockStopped `json:"stopped,omitempty"`
}

// TestClockStopped is where and why an advance stopped short: the clock
// is at its frozen_time, every step due by then done but for some due at
// that very moment, which the next advance does first. [own decision]
type TestClockStopped struct {
	// TargetFrozenTime is the time the advance asked for.
	TargetFrozenTime string `json:"target_frozen_time"`
	// Code is an error code of the limit in the way, or
	// TestClockStopInterrupted.
	Code    string `json:"code"`
	Message string `json:"message"`
}

// TestClockList is one page of test clocks.
type TestClockList = List[TestClock]
