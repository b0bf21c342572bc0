package storage

// syncDir does nothing on Windows, as Go's own packages and bbolt do
// there: a directory opened read-only cannot be flushed ("Access is
// denied"), and NTFS journals the creation, rename and removal of files
// itself.
func syncDir(string) error { return nil }
