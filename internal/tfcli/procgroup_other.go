//go:build !unix

package tfcli

import "os/exec"

// ownProcessGroup does nothing where process groups are not Unix's.
func ownProcessGroup(*exec.Cmd) {}
