//go:build !windows

package storage

import (
	"fmt"
	"os"
	"syscall"
)

// checkPrivate refuses a data file or write-ahead log that another user
// owns, or that others (or a group the sandbox is not in) may access: both hold every account's
// personal data and webhook signing secrets, and a file another local
// user made in a shared directory (before the sandbox first ran, say)
// would give that user all of it. The sandbox makes its files itself,
// mode 0600, so a file that fails this was made or changed by someone
// else.
func checkPrivate(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	// Group permissions are allowed to a group of the sandbox's own, as
	// Kubernetes' fsGroup gives a volume's files (g+rw, at every mount):
	// a container's group is its own.
	open := os.FileMode(0o077)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if int(st.Uid) != os.Geteuid() {
			return fmt.Errorf("%s belongs to uid %d, not to uid %d that payments-sandbox runs as: another user could read it or change it; "+
				"if it is yours, chown %d %[1]s, else choose another path", f.Name(), st.Uid, os.Geteuid(), os.Geteuid())
		}
		if ownGroup(int(st.Gid)) {
			open = 0o007
		}
	}
	if perm := fi.Mode().Perm(); perm&open != 0 {
		return fmt.Errorf("%s is accessible to group or others (mode %04o), and holds every account's data and webhook signing secrets; "+
			"run chmod 600 %[1]s", f.Name(), perm)
	}
	return nil
}

// ownGroup reports whether gid is a group the sandbox runs with.
func ownGroup(gid int) bool {
	if gid == os.Getgid() || gid == os.Getegid() {
		return true
	}
	groups, _ := os.Getgroups()
	for _, g := range groups {
		if g == gid {
			return true
		}
	}
	return false
}

// keepOwner gives the file at path the owner and group of like, the file
// it replaces: a compaction run by root keeps the data file the
// sandbox's user's, whose checkPrivate would refuse it otherwise.
func keepOwner(path string, like os.FileInfo) error {
	st, ok := like.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid() {
		return nil
	}
	return os.Chown(path, int(st.Uid), int(st.Gid))
}
