package classroom

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/streamlab/streamlab/internal/untrusted"
)

// A running server writes DIR/live.json every liveEvery: who has a lab
// open and what each lab costs, for `streamlab class status --watch` in
// another terminal. A file older than liveStale is from a server that is
// no longer running.
const (
	liveFile  = "live.json"
	liveEvery = time.Second
	liveStale = 5 * time.Second
)

// Live is the open labs and their cost at At, by student ID.
type Live struct {
	At   time.Time        `json:"at"`
	Labs map[string]Usage `json:"labs"`
}

// WriteLive replaces the live file with l.
func (s State) WriteLive(l Live) error {
	data, err := json.Marshal(l)
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(s.Dir, liveFile), data, 0o600)
}

// ReadLive reads the live file; with no file, or one written more than
// liveStale before now, no lab is open.
func (s State) ReadLive(now time.Time) (Live, error) {
	data, err := untrusted.ReadPath(filepath.Join(s.Dir, liveFile), maxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Live{At: now}, nil
	}
	if err != nil {
		return Live{At: now}, err
	}
	var l Live
	if err := json.Unmarshal(data, &l); err != nil {
		return Live{At: now}, err
	}
	if now.Sub(l.At) > liveStale {
		return Live{At: now}, nil
	}
	return l, nil
}

// Online is the IDs of the students with a lab open.
func (l Live) Online() map[string]bool {
	out := make(map[string]bool, len(l.Labs))
	for id := range l.Labs {
		out[id] = true
	}
	return out
}

// keepLive writes the live file every liveEvery until the server stops,
// and once more then, with no lab open: the labs are closing.
func (s *Server) keepLive() {
	defer s.live.Done()
	t := time.NewTicker(liveEvery)
	defer t.Stop()
	for {
		if err := s.cfg.State.WriteLive(Live{At: time.Now(), Labs: s.Usage()}); err != nil {
			s.logf("error: writing %s: %v", liveFile, err)
		}
		select {
		case <-s.stop.Done():
			_ = s.cfg.State.WriteLive(Live{At: time.Now(), Labs: map[string]Usage{}})
			return
		case <-t.C:
		}
	}
}
