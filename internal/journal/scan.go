package journal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// scan reads, once, the logs of the runs that are gone: the entries of
// those that did not end cleanly are the orphans. It writes nothing on
// the caller's path: a plan or refresh pays a directory read, and the
// logs left with nothing to take are removed in the background.
func (j *Journal) scan() {
	j.scanOnce.Do(func() {
		j.mu.Lock()
		defer j.mu.Unlock()
		j.orphans = map[string][]*Entry{}
		j.byID = map[string]*Entry{}
		names, err := os.ReadDir(j.dir)
		if err != nil {
			return
		}
		taken := map[string]bool{}
		logs := map[string]bool{}
		for _, de := range names {
			if n, ok := strings.CutSuffix(de.Name(), takenSuffix); ok {
				taken[n] = true
			} else if run, ok := strings.CutSuffix(de.Name(), logSuffix); ok {
				logs[run] = true
			}
		}
		now := j.now()
		var spent []string
		// A marker whose log is gone is a stray: its remover was killed
		// between the two, or take lost a race with it.
		for key := range taken {
			if i := strings.LastIndexByte(key, '-'); i < 0 || !logs[key[:i]] {
				spent = append(spent, filepath.Join(j.dir, key+takenSuffix))
			}
		}
		for _, de := range names {
			run, ok := strings.CutSuffix(de.Name(), logSuffix)
			if !ok || run == j.run {
				continue
			}
			path := filepath.Join(j.dir, de.Name())
			if runAlive(path) {
				continue
			}
			entries, clean := readLog(path, run)
			live := 0
			for _, e := range entries {
				key := fmt.Sprintf("%s-%d", run, e.N)
				if clean || taken[key] || e.Done || now.Sub(e.At) >= Retention || e.At.After(now.Add(time.Hour)) {
					continue
				}
				live++
				j.orphans[e.Config] = append(j.orphans[e.Config], e)
				if e.ID != "" {
					j.byID[e.ID] = e
				}
			}
			if live == 0 {
				spent = append(spent, path)
				for key := range taken {
					if strings.HasPrefix(key, run+"-") {
						spent = append(spent, filepath.Join(j.dir, key+takenSuffix))
					}
				}
			}
		}
		j.unsettled.Store(int64(len(j.byID)))
		if len(spent) > 0 {
			j.cleaning.Add(1)
			go func() {
				defer j.cleaning.Done()
				for _, p := range spent {
					os.Remove(p)
				}
			}()
		}
	})
}

// readLog reads a run's log: each entry with the lines that followed it.
// A line a kill cut short is not JSON and is skipped.
func readLog(path, run string) (entries []*Entry, clean bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var order []*Entry
	byN := map[uint64]*Entry{}
	for line := range strings.Lines(string(b)) {
		if !strings.HasSuffix(line, "\n") {
			break
		}
		var l Entry
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		if l.Clean {
			clean = true
			continue
		}
		if l.Type != "" {
			if l.Config == "" || l.Seed == "" || l.Account == "" {
				continue
			}
			e := l
			e.run = run
			byN[e.N] = &e
			order = append(order, &e)
			continue
		}
		if e, ok := byN[l.N]; ok {
			if l.ID != "" {
				e.ID = l.ID
			}
			if l.Done {
				e.Done = true
			}
		}
	}
	return order, clean
}
