package storage

import "os"

// checkPrivate checks nothing on Windows, which keeps permissions in
// ACLs that a file's mode does not show: there the operator keeps the
// data file's directory private.
func checkPrivate(*os.File) error { return nil }

// keepOwner does nothing on Windows: a new file inherits its directory's
// ACLs.
func keepOwner(string, os.FileInfo) error { return nil }
