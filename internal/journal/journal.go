// Package journal keeps the provider's create journal: a record, in
// Terraform's working directory, of every create sent to the service and
// of the object it made, so that a create whose answer never reached a
// state file (Terraform killed while it was in flight) can be finished
// with the same Idempotency-Key by the next run instead of made again.
//
// An entry is written before the create is sent, given the object's id
// when the service answers, and removed when Terraform shows the provider
// that id again (it is in state), when the run that wrote it ends cleanly,
// or when the service no longer keeps its key (Retention). Only entries of
// runs that did not end cleanly, found when a process opens the journal,
// are ever offered for adoption, and each to one create at most: claiming
// one is a rename, which one process wins. ARCHITECTURE.md records the
// design and its limits. The package imports nothing of Terraform nor of
// the service, and never holds a secret key: configurations and accounts
// are known by keyed digests only.
package journal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
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
	entrySuffix = ".entry"
	runSuffix   = ".run"
)

// Entry is one create, as written to its file.
type Entry struct {
	// Type is the resource type, such as payments_customer.
	Type string `json:"type"`
	// Config is the keyed digest of the planned configuration (Digest).
	Config string `json:"config"`
	// Account is the keyed digest of the secret key the create was sent with.
	Account string `json:"account"`
	// Seed is the create's idempotency seed: the Idempotency-Key of its
	// requests is derived from it.
	Seed string `json:"seed"`
	// At is when the create was first sent.
	At time.Time `json:"at"`
	// ID is the object's id once the service answered.
	ID string `json:"id,omitempty"`

	path string
}

// Journal is one process's view of the journal directory. Its methods are
// safe for concurrent use; a nil *Journal is a journal turned off.
type Journal struct {
	dir string
	run string
	now func() time.Time

	openOnce sync.Once
	openErr  error
	opened   atomic.Bool
	lock     *os.File

	seq atomic.Uint64

	mu sync.Mutex
	// orphans are the entries of runs that ended without a clean exit,
	// by configuration digest, not yet claimed nor settled.
	orphans map[string][]*Entry
	// byID indexes the orphans that have an id, for Settle.
	byID map[string]*Entry
	// unsettled counts byID, read without the lock on every Settle.
	unsettled atomic.Int64
}

// Dir returns the journal's directory for a working directory: inside
// TF_DATA_DIR when it is set, or .terraform, as Terraform places it.
func Dir(workingDir string) string {
	data := os.Getenv("TF_DATA_DIR")
	if data == "" {
		data = ".terraform"
	}
	if !filepath.IsAbs(data) {
		data = filepath.Join(workingDir, data)
	}
	return filepath.Join(data, DirName)
}

// New returns the journal kept in dir. Nothing is read or written until
// it is first used; Open does that and says whether it can be.
func New(dir string) *Journal {
	return &Journal{dir: dir, run: newHex(8), now: time.Now}
}

// Open reads the journal directory once, creating it when it is missing,
// takes this process's run lock and gathers the entries that runs which
// did not end cleanly left. An error means the journal cannot be used in
// this process (a read-only working directory, say); every later call
// returns the same error.
func (j *Journal) Open() error {
	if j == nil {
		return errors.New("the create journal is off")
	}
	j.openOnce.Do(func() { j.openErr = j.open(); j.opened.Store(true) })
	return j.openErr
}

func (j *Journal) open() error {
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(j.dir, j.run+runSuffix), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := lockFile(lock); err != nil {
		lock.Close()
		os.Remove(lock.Name())
		return err
	}
	j.lock = lock
	j.orphans = map[string][]*Entry{}
	j.byID = map[string]*Entry{}

	names, err := os.ReadDir(j.dir)
	if err != nil {
		return err
	}
	dead := map[string]bool{}
	alive := func(run string) bool {
		if run == j.run {
			return true
		}
		d, ok := dead[run]
		if !ok {
			d = !runAlive(filepath.Join(j.dir, run+runSuffix))
			dead[run] = d
		}
		return !d
	}
	now := j.now()
	live := map[string]bool{}
	for _, de := range names {
		name := de.Name()
		if !strings.HasSuffix(name, entrySuffix) {
			continue
		}
		run, _, _ := strings.Cut(name, "-")
		if alive(run) {
			live[run] = true
			continue
		}
		path := filepath.Join(j.dir, name)
		e, err := readEntry(path)
		if err != nil || now.Sub(e.At) >= Retention || e.At.After(now.Add(time.Hour)) {
			os.Remove(path)
			continue
		}
		live[run] = true // its entries outlive it; so does its lock file
		j.orphans[e.Config] = append(j.orphans[e.Config], e)
		if e.ID != "" {
			j.byID[e.ID] = e
		}
	}
	for run, isDead := range dead {
		if isDead && !live[run] {
			os.Remove(filepath.Join(j.dir, run+runSuffix))
		}
	}
	// Temporary files of a rewrite a kill interrupted.
	for _, de := range names {
		if strings.HasPrefix(de.Name(), "tmp-") {
			run, _, _ := strings.Cut(strings.TrimPrefix(de.Name(), "tmp-"), "-")
			if !alive(run) {
				os.Remove(filepath.Join(j.dir, de.Name()))
			}
		}
	}
	j.unsettled.Store(int64(len(j.byID)))
	return nil
}

func readEntry(path string) (*Entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	e := new(Entry)
	if err := json.Unmarshal(b, e); err != nil {
		return nil, err
	}
	if e.Type == "" || e.Config == "" || e.Seed == "" || e.Account == "" {
		return nil, errors.New("incomplete entry")
	}
	e.path = path
	return e, nil
}

// Orphans says how many entries left by runs that did not end cleanly
// are still unclaimed and unsettled.
func (j *Journal) Orphans() int {
	if j.Open() != nil {
		return 0
	}
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
	if !j.opened.Load() {
		// No directory, no orphan: a plan or refresh of a working
		// directory that never had a killed run writes nothing.
		if _, err := os.Stat(j.dir); err != nil {
			return false
		}
	}
	return j.Open() == nil && j.unsettled.Load() > 0
}

// Settle removes the orphaned entry of the object id, if any: Terraform
// has shown the object to the provider again, so it is in state and no
// create may adopt it. It reports whether an entry was removed.
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
	if ok {
		os.Remove(e.path)
	}
	return ok
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
// shown its object since. The entry becomes this run's (the file is
// renamed, so one create in one process wins it); nil means there is none.
func (j *Journal) Claim(typ, config, account string) *Entry {
	if j.Open() != nil {
		return nil
	}
	now := j.now()
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.orphans[config] {
		if e.Type != typ || e.Account != account || now.Sub(e.At) >= Retention {
			continue
		}
		j.forget(e)
		path := j.entryPath()
		if err := os.Rename(e.path, path); err != nil {
			// Another process claimed or settled it first.
			continue
		}
		claimed := *e
		claimed.path = path
		return &claimed
	}
	return nil
}

// Discard forgets a claimed orphan without using it, because its object
// is gone or its answer was an error: that configuration is then created
// afresh. It is Done on e.
func (j *Journal) Discard(e *Entry) { j.Done(e) }

// Begin writes a new entry before a create is sent, with a fresh seed.
func (j *Journal) Begin(typ, config, account string) (*Entry, error) {
	if err := j.Open(); err != nil {
		return nil, err
	}
	e := &Entry{Type: typ, Config: config, Account: account, Seed: newHex(16), At: j.now().UTC(), path: j.entryPath()}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(e.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(e.path)
		return nil, err
	}
	return e, nil
}

// Answered records the id of the object the create of e made, so that a
// later read of that id settles it.
func (j *Journal) Answered(e *Entry, id string) error {
	if e == nil || id == "" || e.ID == id {
		return nil
	}
	e.ID = id
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	// A rename replaces the entry whole: a kill never leaves half of it.
	tmp := filepath.Join(j.dir, "tmp-"+filepath.Base(e.path))
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, e.path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Done removes e: its create failed and made nothing, or its object is
// known to be elsewhere.
func (j *Journal) Done(e *Entry) {
	if e != nil {
		os.Remove(e.path)
	}
}

// CloseClean ends the run cleanly: Terraform closed the provider, which
// it does only after it has every answer of the run, so this run's
// entries are removed and none will ever be adopted.
func (j *Journal) CloseClean() {
	if j == nil || j.lock == nil {
		return
	}
	names, _ := os.ReadDir(j.dir)
	for _, de := range names {
		n := de.Name()
		if strings.HasPrefix(n, j.run+"-") || strings.HasPrefix(n, "tmp-"+j.run+"-") {
			os.Remove(filepath.Join(j.dir, n))
		}
	}
	j.lock.Close()
	os.Remove(filepath.Join(j.dir, j.run+runSuffix))
	// The directory goes when nothing else is in it; an error just
	// means something is.
	os.Remove(j.dir)
}

func (j *Journal) entryPath() string {
	return filepath.Join(j.dir, fmt.Sprintf("%s-%d%s", j.run, j.seq.Add(1), entrySuffix))
}

// Keys are the digests of one secret key: the account it names and the
// key of configuration digests. Neither reveals the secret key.
type Keys struct {
	Account string
	mac     []byte
}

// KeysFor derives the digests of a secret key.
func KeysFor(secretKey string) Keys {
	sum := sha256.Sum256([]byte("payments create journal\x00" + secretKey))
	acct := hmac.New(sha256.New, sum[:])
	acct.Write([]byte("account"))
	return Keys{Account: hex.EncodeToString(acct.Sum(nil)[:16]), mac: sum[:]}
}

// Digest is the keyed digest of a resource type's planned configuration:
// equal configurations under one key give equal digests, and a digest
// tells nothing of the configuration (a card's number, say) to whoever
// reads the journal without the key.
func (k Keys) Digest(typ string, planned []byte) string {
	h := hmac.New(sha256.New, k.mac)
	h.Write([]byte(typ))
	h.Write([]byte{0})
	h.Write(planned)
	return hex.EncodeToString(h.Sum(nil))
}

// Valid reports whether k came from KeysFor.
func (k Keys) Valid() bool { return len(k.mac) > 0 }

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
