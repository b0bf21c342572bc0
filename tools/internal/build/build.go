// Package build finds the repository the tools run in and builds its
// programs, so that a tool can be run from anywhere inside it.
package build

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ModulePath is the provider's module, at the repository's root.
const ModulePath = "github.com/paymentsdev/terraform-provider-payments"

// Root returns the repository's root: the nearest directory at or above
// the working directory whose go.mod declares ModulePath.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if declares(filepath.Join(dir, "go.mod"), ModulePath) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the terraform-provider-payments repository: no go.mod declaring " + ModulePath + " at or above the working directory")
		}
		dir = parent
	}
}

// declares reports whether the go.mod at path declares module.
func declares(path, module string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`) == module
		}
	}
	return false
}

// Program builds the main package pkg (such as "." or "./cmd/bench") of
// the module in moduleDir into out, with go build -trimpath; its messages
// go to standard error.
func Program(ctx context.Context, moduleDir, pkg, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = moduleDir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s in %s: %w", pkg, moduleDir, err)
	}
	return nil
}
