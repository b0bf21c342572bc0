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

// TestClock is a clock of its own for the customers on it. Name is ""
// when null.
type TestClock struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	Name       string `json:"name"`
	FrozenTime string `json:"frozen_time"`
	Status     string `json:"status"`
	CreatedAt  string `json:"created_at"`
	Livemode   bool   `json:"livemode"`
}

// TestClockList is one page of test clocks.
type TestClockList = List[TestClock]
