// Package journal keeps the provider's create journal: a record, in
// Terraform's working directory, of every create sent to the service and
// of the object it made, so that a create whose answer never reached a
// state file (Terraform killed while it was in flight) can be finished
// with the same Idempotency-Key by the next run instead of made again.
//
// An entry is written before the create is sent, given the object's id
// when the service answers, and taken when Terraform shows the provider
// that id again (it is in state); the run's entries go when it ends
// cleanly, and any when the service no longer keeps its key (Retention).
// Only entries of runs that did not end cleanly, found when a process
// opens the journal, are ever offered for adoption, and each to one create
// at most: taking one creates its marker with O_EXCL, which one process
// wins. ARCHITECTURE.md records the
// design and its limits. The package imports nothing of Terraform nor of
// the service, and never holds a secret key: configurations and accounts
// are known by keyed digests only.
package journal

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Retention is how long the service keeps an Idempotency-Key and replays
// its answer. An entry older than it is of no use: its key would make a
// new object, so it is removed instead.
const Retention = 24 * time.Hour

// DirName is the journal's directory inside Terraform's data directory.
const DirName = "payments-create-journal"

// EnvDisable names the environment variable that turns the journal off
// when set to "off" (for measuring what it costs, or where the working
// directory must not be written).
const EnvDisable = "PAYMENTS_CREATE_JOURNAL"

const (
	logSuffix   = ".log"
	takenSuffix = ".taken"
)

// Entry is one create, as written to its run's log.
type Entry struct {
	// N numbers the entry in its run's log.
	N uint64 `json:"n"`
	// Type is the resource type, such as payments_customer.
	Type string `json:"type,omitempty"`
	// Config is the keyed digest of the planned configuration (Digest).
	Config string `json:"config,omitempty"`
	// Account is the keyed digest of the secret key the create was sent with.
	Account string `json:"account,omitempty"`
	// Seed is the create's idempotency seed: the Idempotency-Key of its
	// requests is derived from it.
	Seed string `json:"seed,omitempty"`
	// At is when the create was first sent.
	At time.Time `json:"at,omitzero"`
	// ID is the object's id once the service answered, written as a
	// line of its own (Answered).
	ID string `json:"id,omitempty"`
	// Done ends the entry: its create made nothing to adopt (Done).
	Done bool `json:"done,omitempty"`
	// Clean, alone on the last line, ends the run cleanly (CloseClean).
	Clean bool `json:"clean,omitempty"`

	run string
}

// Journal is one process's view of the journal directory. Its methods are
// safe for concurrent use; a nil *Journal is a journal turned off.
//
// Each process appends its entries to one log of its own, `<run>.log`,
// created once and locked for the process's life: creating a file per
// create cost milliseconds each on a busy disk, an append microseconds.
// An entry of a run that is gone is taken (claimed or settled) by creating
// its `<run>-<n>.taken` marker with O_EXCL, which one process wins; that
// happens only after a kill.
type Journal struct {
	dir string
	run string
	now func() time.Time

	// scanOnce reads the other runs' logs; logOnce creates this run's.
	scanOnce sync.Once
	logOnce  sync.Once
	logErr   error
	log      *os.File
	// ready is set once this run's log exists or failed to.
	ready atomic.Bool

	seq atomic.Uint64

	mu sync.Mutex
	// orphans are the entries of runs that ended without a clean exit,
	// by configuration digest, not yet taken.
	orphans map[string][]*Entry
	// byID indexes the orphans that have an id, for Settle.
	byID map[string]*Entry
	// unsettled counts byID, read without the lock on every Settle.
	unsettled atomic.Int64
	// cleaning is the background removal of spent logs.
	cleaning sync.WaitGroup
}

// Dir returns the journal's directory for a working directory and its
// current workspace: inside TF_DATA_DIR when it is set, or .terraform, as
// Terraform places it. Workspaces share that directory but not their
// state, so each has a journal of its own.
func Dir(workingDir string) string {
	data := os.Getenv("TF_DATA_DIR")
	if data == "" {
		data = ".terraform"
	}
	if !filepath.IsAbs(data) {
		data = filepath.Join(workingDir, data)
	}
	return filepath.Join(data, DirName, workspace(data))
}

// workspace is Terraform's current workspace: TF_WORKSPACE, else the one
// `terraform workspace select` wrote into the data directory.
func workspace(data string) string {
	ws := os.Getenv("TF_WORKSPACE")
	if ws == "" {
		if b, err := os.ReadFile(filepath.Join(data, "environment")); err == nil {
			ws = strings.TrimSpace(string(b))
		}
	}
	if ws == "" {
		return "default"
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, ws)
}

// New returns the journal kept in dir. Nothing is read or written until
// it is first used; Open does that and says whether it can be.
func New(dir string) *Journal {
	return &Journal{dir: dir, run: newHex(8), now: time.Now}
}

// Open creates and locks this process's log, once, after reading the
// entries that runs which did not end cleanly left. An error means the
// journal cannot be written in this process (a read-only working
// directory, say); every later call returns the same error.
func (j *Journal) Open() error {
	if j == nil {
		return errors.New("the create journal is off")
	}
	j.scan()
	j.logOnce.Do(func() { j.logErr = j.createLog(); j.ready.Store(true) })
	return j.logErr
}

// Prepare opens the journal in the background, so that the first create
// does not wait for its log to be made: a file made on a busy disk can
// wait for the filesystem's own journal, and every create in flight would
// wait with it.
func (j *Journal) Prepare() {
	if j != nil {
		go func() { _ = j.Open() }()
	}
}

func (j *Journal) createLog() error {
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(j.dir, j.run+logSuffix), os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := lockFile(log); err != nil {
		log.Close()
		os.Remove(log.Name())
		return err
	}
	j.log = log
	return nil
}

// Orphans says how many entries left by runs that did not end cleanly
// are still untaken.
func (j *Journal) Orphans() int {
	if j == nil {
		return 0
	}
	j.scan()
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for _, es := range j.orphans {
		n += len(es)
	}
	return n
}

// WantsSettle reports, cheaply, whether Settle could find anything: only
// then is an id worth decoding from Terraform's state.
func (j *Journal) WantsSettle() bool {
	if j == nil {
		return false
	}
	j.scan()
	return j.unsettled.Load() > 0
}

// Settle takes the orphaned entry of the object id, if any: Terraform
// has shown the object to the provider again, so it is in state and no
// create may adopt it. It reports whether an entry was taken.
func (j *Journal) Settle(id string) bool {
	if !j.WantsSettle() {
		return false
	}
	j.mu.Lock()
	e, ok := j.byID[id]
	if ok {
		j.forget(e)
	}
	j.mu.Unlock()
	return ok && j.take(e)
}

// take creates e's marker: false when another process took it first.
// It also fails when e's log is gone after the marker is made: a process
// that found the log spent removes the log before its markers, so an
// entry read before that, whose marker was then removed, is never taken
// a second time. The marker left then is removed as a stray.
func (j *Journal) take(e *Entry) bool {
	f, err := os.OpenFile(filepath.Join(j.dir, fmt.Sprintf("%s-%d%s", e.run, e.N, takenSuffix)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false
	}
	f.Close()
	_, err = os.Stat(filepath.Join(j.dir, e.run+logSuffix))
	return err == nil
}

// forget drops e from the indexes; j.mu is held.
func (j *Journal) forget(e *Entry) {
	if e.ID != "" && j.byID[e.ID] == e {
		delete(j.byID, e.ID)
		j.unsettled.Add(-1)
	}
	es := j.orphans[e.Config]
	for i, o := range es {
		if o == e {
			es = append(es[:i:i], es[i+1:]...)
			break
		}
	}
	if len(es) == 0 {
		delete(j.orphans, e.Config)
	} else {
		j.orphans[e.Config] = es
	}
}

// Claim takes, for this run, an orphaned entry of the same resource type,
// configuration digest and account, still within Retention: the create it
// records was sent by a run that did not end cleanly and Terraform has not
// shown its object since. The entry is written again into this run's log,
// with its seed and time, so that a kill of this run leaves it for the
// next; nil means there is none.
func (j *Journal) Claim(typ, config, account string) *Entry {
	if j == nil {
		return nil
	}
	j.scan()
	now := j.now()
	for {
		j.mu.Lock()
		var found *Entry
		for _, e := range j.orphans[config] {
			if e.Type == typ && e.Account == account && now.Sub(e.At) < Retention {
				found = e
				break
			}
		}
		if found != nil {
			j.forget(found)
		}
		j.mu.Unlock()
		if found == nil {
			return nil
		}
		if !j.take(found) {
			continue // another process took it first
		}
		claimed := *found
		claimed.N, claimed.run = j.seq.Add(1), j.run
		if err := j.Open(); err != nil {
			claimed.N = 0
		} else if err := j.append(&claimed); err != nil {
			// Not recorded again: a kill now would lose it, as without
			// the journal, but it is still this create's to replay.
			claimed.N = 0
		}
		return &claimed
	}
}

// Discard forgets a claimed orphan without using it, because its object
// is gone or its answer was an error: that configuration is then created
// afresh. It is Done on e.
func (j *Journal) Discard(e *Entry) { j.Done(e) }

// Begin records a new entry before a create is sent, with a fresh seed.
func (j *Journal) Begin(typ, config, account string) (*Entry, error) {
	if err := j.Open(); err != nil {
		return nil, err
	}
	e := &Entry{N: j.seq.Add(1), Type: typ, Config: config, Account: account, Seed: newHex(16), At: j.now().UTC(), run: j.run}
	if err := j.append(e); err != nil {
		return nil, err
	}
	return e, nil
}

// append writes one line to this run's log, in one write: lines of
// concurrent creates never interleave. It is not synced: once written it
// is the kernel's, which is all a kill of Terraform or of the plugin
// needs; a power loss is not covered (ARCHITECTURE.md says why).
func (j *Journal) append(line *Entry) error {
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	_, err = j.log.Write(append(b, '\n'))
	return err
}

// Answered records the id of the object the create of e made, so that a
// later read of that id settles it.
func (j *Journal) Answered(e *Entry, id string) error {
	if e == nil || e.N == 0 || id == "" || e.ID == id {
		return nil
	}
	if err := j.append(&Entry{N: e.N, ID: id}); err != nil {
		return err
	}
	e.ID = id
	return nil
}

// Done ends e: its create failed and made nothing, or its object is
// known to be gone.
func (j *Journal) Done(e *Entry) {
	if e != nil && e.N != 0 {
		_ = j.append(&Entry{N: e.N, Done: true})
	}
}

// CloseClean ends the run cleanly: Terraform closed the provider, which
// it does only after it has every answer of the run, so none of this
// run's entries will ever be adopted. Its log says so in its last line
// and is removed by the next process that reads the journal: removing it
// here would add a directory change to the end of every run.
func (j *Journal) CloseClean() {
	// A log still being made holds no entry: nothing waits for it, and
	// the next process removes it as a dead run's with nothing to take.
	if j == nil || !j.ready.Load() || j.log == nil {
		return
	}
	_ = j.append(&Entry{Clean: true})
	j.log.Close()
}

func newHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// runAlive reports whether a run's process still holds its lock file. A
// lock file that is missing or cannot be opened is a run that is gone.
func runAlive(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		// Gone when missing; otherwise unknown, so taken as alive and
		// its entries left alone.
		return !errors.Is(err, fs.ErrNotExist)
	}
	defer f.Close()
	if err := tryLock(f); err != nil {
		return true
	}
	unlockFile(f)
	return false
}
