//go:build !windows

package storage

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStore_RefusesFilesOthersCanReach pre-creates the data file or its
// log as another local user could, in a directory both may write, and
// checks that the store refuses it before writing anything of an account
// there: either file holds every account's data and signing secrets.
func TestStore_RefusesFilesOthersCanReach(t *testing.T) {
	tests := []struct {
		name    string
		file    string // walSuffix for the log, "" for the data file
		mode    os.FileMode
		owner   int // -1: the test's own user
		group   int // -1: the test's own group
		wantErr string
	}{
		{name: "own data file 0600", mode: 0o600, owner: -1, group: -1},
		{name: "own group may write, as fsGroup makes it", mode: 0o660, owner: -1, group: -1},
		{name: "data file readable by others", mode: 0o644, owner: -1, group: -1, wantErr: "accessible to group or others (mode 0644)"},
		{name: "data file writable by all", mode: 0o666, owner: -1, group: -1, wantErr: "run chmod 600"},
		{name: "log readable by another group", file: walSuffix, mode: 0o640, owner: -1, group: 65534, wantErr: "accessible to group or others (mode 0640)"},
		{name: "log made by another user", file: walSuffix, mode: 0o600, owner: 65534, group: -1, wantErr: "belongs to uid 65534"},
		{name: "data file of another user", mode: 0o600, owner: 65534, group: -1, wantErr: "belongs to uid 65534"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if (tc.owner >= 0 || tc.group >= 0) && os.Geteuid() != 0 {
				t.Skip("giving a file to another user takes root")
			}
			path := filepath.Join(t.TempDir(), "sandbox.db")
			planted := path + tc.file
			if err := os.WriteFile(planted, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			// Chmod: the umask does not narrow it as it does WriteFile's.
			if err := os.Chmod(planted, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.owner >= 0 || tc.group >= 0 {
				if err := os.Chown(planted, tc.owner, tc.group); err != nil {
					t.Fatal(err)
				}
			}
			st, err := Open(path)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				st.Close()
				return
			}
			if err == nil {
				st.Close()
				t.Fatalf("Open accepted %s; want an error with %q", planted, tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), planted) {
				t.Errorf("Open: %v; want it to name %s and say %q", err, planted, tc.wantErr)
			}
		})
	}
}

// TestCompact_KeepsOwnerAndMode: a data file compacted by root, for the
// user the sandbox runs as, stays that user's, with its mode, so that
// the sandbox still opens it.
func TestCompact_KeepsOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user takes root")
	}
	path, _ := freedFile(t, t.TempDir(), 1)
	if err := os.Chmod(path, 0o660); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65533); err != nil {
		t.Fatal(err)
	}
	if _, err := Compact(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid != 65534 || st.Gid != 65533 || fi.Mode().Perm() != 0o660 {
		t.Errorf("compacted, the file is %v, mode %04o; want uid 65534, gid 65533, mode 0660", fi.Sys(), fi.Mode().Perm())
	}
}
