// Package parentwatch ends the plugin process when the process that
// started it (Terraform) is gone. Terraform stops its plugins when it
// ends, but not when it is killed: a plugin left running would go on with
// the operations in flight, unseen, and hold the working directory's
// create journal. Standard library and golang.org/x/sys only.
package parentwatch

import (
	"os"
	"time"
)

// Interval is how often the parent is checked where it must be polled.
const Interval = 500 * time.Millisecond

// Start watches the parent process and calls gone, once, when it has
// ended. It returns at once; where the parent cannot be watched it does
// nothing and returns false.
func Start(gone func()) bool {
	return watch(os.Getppid(), gone)
}
