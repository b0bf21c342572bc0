package build

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRoot_RepositoryRoot(t *testing.T) {
	// The tests run in tools/internal/build: the root is three levels up,
	// past tools/go.mod, which declares another module.
	want, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Root()
	if err != nil || got != want {
		t.Fatalf("Root() = %q, %v; want %q", got, err, want)
	}

	t.Chdir(t.TempDir())
	if _, err := Root(); err == nil {
		t.Error("Root() outside the repository: want an error")
	}
}

func TestDeclares_ModuleLine(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		gomod string
		want  bool
	}{
		{"module " + ModulePath + "\n\ngo 1.26\n", true},
		{"// comment\nmodule \"" + ModulePath + "\"\n", true},
		{"module " + ModulePath + "/tools\n", false},
		{"go 1.26\n", false},
	} {
		path := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(path, []byte(tc.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := declares(path, ModulePath); got != tc.want {
			t.Errorf("declares(%q) = %v, want %v", tc.gomod, got, tc.want)
		}
	}
	if declares(filepath.Join(dir, "missing"), ModulePath) {
		t.Error("a missing go.mod declares nothing")
	}
}
