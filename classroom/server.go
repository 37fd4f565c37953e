// Package classroom serves the terminal lab over SSH to a class: each
// connection gets its own lab (its own engine, clock and bridge), sized to
// the student's terminal; a student is their public key, and their
// progress, lesson seed and graded answers are kept per student in a state
// directory that `streamlab class status` reads.
//
// A session is the lab and nothing else: no shell, no command, no
// subsystem (so no file transfer), no port, agent or X11 forwarding.
package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/tui"
	"github.com/streamlab/streamlab/tui/bridge"
)

// Defaults of the server's limits.
const (
	DefaultMaxSessions = 200
	DefaultIdleTimeout = 30 * time.Minute
)

// frameRate is how many frames a second a student's lab draws while time
// runs: a third of the terminal lab's 30. Drawing is the bulk of a
// server's work (about three quarters of its CPU with 60 labs playing),
// and ten frames a second still show every tenth of a second of the
// lab's clock at 1×. A key the screen answers by itself (a speed, a
// pane, the palette) is drawn at once; what the engine answers shows in
// its next frame, up to a tenth of a second later.
const frameRate = 10

// labMemoryBudget is the memory a student's run may hold in state (see
// engine.Config.MemoryBudget): a few times what the lessons and exercises
// need with the rows' lineage, and a class of a hundred all at the budget
// would still fit a small server. A setting that would pass it (a huge
// Bloom filter, windows nothing closes) is refused or stops the run with
// a message saying what holds the memory.
const labMemoryBudget = 64_000_000

// Terminal sizes beyond these are cut down to them: the lab draws no more
// than this, whatever the client claims.
const (
	maxWidth  = 400
	maxHeight = 200
)

// Config is what a server runs with.
type Config struct {
	// State is where host key and students' files are kept.
	State State
	// Roster, when not nil, admits only its keys; without it any key is
	// admitted.
	Roster *Roster
	// MaxSessions bounds the labs open at once; IdleTimeout closes a lab
	// whose student has pressed no key for that long. Zero takes the
	// defaults.
	MaxSessions int
	IdleTimeout time.Duration
	// Secret, when set, gives each student their own seed for each
	// exercise (grade.StudentSeed of the student's ID), in the lab and in
	// `streamlab class status` alike.
	Secret string
	// Lab is the template of each student's lab: theme, speed, job,
	// executor, mouse, seed. State, progress and hooks are set per student.
	Lab tui.Options
	// NewClock, when set, makes each lab's clock; ctx ends with the lab.
	// Tests drive the labs with manual clocks; the wall clock otherwise.
	NewClock func(ctx context.Context) bridge.Clock
	// Log receives one line per login, logout and refusal; nil discards.
	Log io.Writer
	// Now is the time of logins; time.Now when nil.
	Now func() time.Time
}

// Server is a classroom SSH server.
type Server struct {
	cfg  Config
	ssh  *ssh.Server
	stop context.Context
	halt context.CancelFunc

	mu     sync.Mutex
	open   map[string]*openLab // by student ID
	labs   sync.WaitGroup
	live   sync.WaitGroup // keepLive
	turns  *turns         // the labs' long runs' share of the cores
	logMu  sync.Mutex
	closed atomic.Bool
	// serving is set once Serve has handed a listener to the SSH server
	// (under mu); accepting is closed once that server is accepting on it,
	// or has given up. Shutdown waits for it: the SSH server counts its
	// listeners with a WaitGroup that its Shutdown waits on, and an Add
	// racing that Wait is a data race.
	serving   bool
	accepting chan struct{}
}

// openLab is a student's lab while it is open: takeOver closes it for a
// newer connection of the same student, and done is closed once it has
// saved and left.
type openLab struct {
	takeOver func()
	done     chan struct{}
	meter    labMeter
}

// takeOverWait bounds how long a new connection waits for the student's
// previous lab to close; the previous lab's context is cancelled, so it
// stops within a scheduler slice.
const takeOverWait = 10 * time.Second

// ErrClosed is what Serve returns once the server is shut down.
var ErrClosed = errors.New("classroom server closed")

// New makes a server; the host key is made and kept in the state directory
// on first start.
func New(cfg Config) (*Server, error) {
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	hostKey, err := cfg.State.HostKey()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, open: map[string]*openLab{}, accepting: make(chan struct{}), turns: newTurns()}
	s.stop, s.halt = context.WithCancel(context.Background())
	srv, err := wish.NewServer(
		wish.WithHostKeyPEM(hostKey),
		wish.WithPublicKeyAuth(s.admit),
		wish.WithMiddleware(s.middleware),
	)
	if err != nil {
		return nil, err
	}
	// A session is the lab: a shell request only. exec and subsystem
	// (sftp, scp) are refused; port and X11 forwarding have no handler
	// and so are refused too. An agent request is acknowledged by the SSH
	// library, but the server never opens the agent channel, so no agent
	// is forwarded.
	srv.SessionRequestCallback = func(_ ssh.Session, kind string) bool { return kind == "shell" }
	srv.LocalPortForwardingCallback = func(ssh.Context, string, uint32) bool { return false }
	srv.ReversePortForwardingCallback = func(ssh.Context, string, uint32) bool { return false }
	srv.Version = "streamlab"
	// Connections that never become labs (a slow or abandoned login) are
	// bounded in number, and dropped once idle for longer than a lab may be.
	srv.IdleTimeout = cfg.IdleTimeout + time.Minute
	maxConns := int64(2*cfg.MaxSessions + 16)
	var conns atomic.Int64
	srv.ConnCallback = func(_ ssh.Context, c net.Conn) net.Conn {
		if conns.Add(1) > maxConns {
			conns.Add(-1)
			return nil
		}
		return &countedConn{Conn: c, n: &conns}
	}
	s.ssh = srv
	return s, nil
}

// Serve serves SSH on ln until Shutdown; it returns ErrClosed then, or
// at once when Shutdown came first.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed.Load() || s.serving {
		s.mu.Unlock()
		ln.Close()
		return ErrClosed
	}
	s.serving = true
	s.live.Add(1)
	go s.keepLive()
	s.mu.Unlock()
	fl := &firstAccept{Listener: ln, first: s.accepting}
	err := s.ssh.Serve(fl)
	fl.once.Do(func() { close(fl.first) })
	if s.closed.Load() {
		return ErrClosed
	}
	return err
}

// firstAccept closes first when the server first calls Accept: by then it
// has counted the listener as its own.
type firstAccept struct {
	net.Listener
	once  sync.Once
	first chan struct{}
}

func (l *firstAccept) Accept() (net.Conn, error) {
	l.once.Do(func() { close(l.first) })
	return l.Listener.Accept()
}

// Shutdown stops the server: it stops accepting connections, closes every
// lab (each student is told the lab is closing, and their progress is
// saved), and waits for them until ctx ends, when it closes the remaining
// connections.
func (s *Server) Shutdown(ctx context.Context) error {
	// Under the lock, so that no lab enters between the stop and the wait,
	// and Serve either has started or never will.
	s.mu.Lock()
	s.closed.Store(true)
	s.halt()
	serving := s.serving
	s.mu.Unlock()
	if serving {
		select {
		case <-s.accepting:
		case <-ctx.Done():
		}
	}
	done := make(chan struct{})
	go func() { s.labs.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	s.live.Wait()
	// The labs are closed; the connections end with them, or now.
	sctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := s.ssh.Shutdown(sctx); err != nil {
		return s.ssh.Close()
	}
	return nil
}

// Open is the number of labs open now.
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

// Online reports which students have a lab open now, by ID.
func (s *Server) Online() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]bool, len(s.open))
	for id := range s.open {
		out[id] = true
	}
	return out
}

// Usage reports what each open lab costs the server, by student ID.
func (s *Server) Usage() map[string]Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Usage, len(s.open))
	for id, lab := range s.open {
		out[id] = lab.meter.usage()
	}
	return out
}

// logf writes one line to the log.
func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "%s "+format+"\n", append([]any{s.cfg.Now().UTC().Format(time.RFC3339)}, args...)...)
}

type ctxKey struct{ name string }

var rosterNameKey = &ctxKey{"roster name"}

// admit decides whether key may log in: any key without a roster, the
// roster's keys with one.
func (s *Server) admit(ctx ssh.Context, key ssh.PublicKey) bool {
	if s.cfg.Roster == nil {
		return true
	}
	name, ok := s.cfg.Roster.Name(key)
	if !ok {
		s.logf("refused key %s (user %q): not on the roster", fingerprint(key), displayName(ctx.User()))
		return false
	}
	ctx.SetValue(rosterNameKey, name)
	return true
}

func (s *Server) middleware(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.serveLab(sess)
		next(sess)
	}
}

// refuse tells the client why there is no lab and ends the session.
func refuse(sess ssh.Session, msg string) {
	fmt.Fprintf(sess.Stderr(), "streamlab: %s\r\n", msg)
	_ = sess.Exit(1)
}

// serveLab runs one student's lab for the session.
func (s *Server) serveLab(sess ssh.Session) {
	if len(sess.Command()) > 0 || sess.Subsystem() != "" {
		refuse(sess, "this server opens the lab and runs nothing else; connect with plain `ssh -t`")
		return
	}
	_, winCh, ok := sess.Pty()
	if !ok {
		refuse(sess, "the lab needs a terminal; connect with `ssh -t`")
		return
	}
	key := sess.PublicKey()
	if key == nil {
		refuse(sess, "log in with a public key")
		return
	}
	name := displayName(sess.User())
	if n, ok := sess.Context().Value(rosterNameKey).(string); ok {
		name = n
	}
	id := StudentID(key)
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	var why atomic.Value // string: why the lab closed
	lab := &openLab{done: make(chan struct{}), takeOver: func() {
		why.Store("the lab was opened from another connection, which has it now")
		cancel()
	}}
	if msg := s.enter(id, lab); msg != "" {
		s.logf("refused %s (%s): %s", name, fingerprint(key), msg)
		refuse(sess, msg)
		return
	}
	// The lab is left before the session ends, so that a student who
	// quits can come straight back.
	leave := sync.OnceFunc(func() { s.leave(id, lab) })
	defer leave()
	student, err := s.cfg.State.Login(key, name, s.cfg.Now())
	if err != nil {
		s.logf("error: %s (%s): %v", name, fingerprint(key), err)
		refuse(sess, "the server cannot keep your progress now; tell your instructor")
		return
	}
	s.logf("login %s (%s)", name, student.Fingerprint)

	stopped := context.AfterFunc(s.stop, func() {
		why.Store("the lab is closing: the server is stopping")
		cancel()
	})
	defer stopped()

	// The idle timer counts keys, not output: a lab left playing is idle.
	var lastKey atomic.Int64
	lastKey.Store(time.Now().UnixNano())
	idle := s.cfg.IdleTimeout
	var timerMu sync.Mutex // the timer is set before its function reads it
	var timer *time.Timer
	timerMu.Lock()
	timer = time.AfterFunc(idle, func() {
		timerMu.Lock()
		defer timerMu.Unlock()
		if left := idle - time.Since(time.Unix(0, lastKey.Load())); left > 0 {
			timer.Reset(left)
			return
		}
		why.Store(fmt.Sprintf("the lab closed after %s without a key pressed", idle))
		cancel()
	})
	timerMu.Unlock()
	defer func() {
		timerMu.Lock()
		timer.Stop()
		timerMu.Unlock()
	}()

	unstall := closeStalled(ctx, sess)
	defer unstall()

	opts := s.labOptions(ctx, student)
	lab.meter.turn = turn{of: s.turns, ctx: ctx}
	opts.Meter = &lab.meter
	var forwarding sync.WaitGroup
	opts.Program = func(p *tea.Program) {
		forwarding.Add(1)
		go func() {
			defer forwarding.Done()
			forwardSizes(ctx, winCh, p)
		}()
	}
	err = tui.Run(ctx, opts, keyReader{ctx, sess, &lastKey, newPacer(keyRate, keyBurst)}, sess)
	cancel()
	forwarding.Wait()

	leave()
	reason, _ := why.Load().(string)
	switch {
	case err != nil && reason == "" && sess.Context().Err() == nil:
		s.logf("error: %s (%s): %v", name, student.Fingerprint, err)
		refuse(sess, "the lab stopped: "+err.Error())
		return
	case reason != "":
		fmt.Fprintf(sess, "\r\n%s. Your progress is saved; log in again with the same key to go on.\r\n", reason)
	}
	s.logf("logout %s (%s)", name, student.Fingerprint)
	_ = sess.Exit(0)
}

// stalledGrace is how long a lab told to close may take to draw its last
// frame before its session is closed under it (see closeStalled).
const stalledGrace = 2 * time.Second

// closeStalled closes sess once ctx has ended and the lab has not left
// within stalledGrace; the returned func says the lab has left. A client
// gone without a word (a dropped network) stops taking output: once its
// SSH window is full, the lab's next frame waits for ever, and the lab
// could not close, save or leave — its student refused on their return,
// and the idle timeout unable to end it. Closing the session fails that
// write, and the lab leaves as after any close.
func closeStalled(ctx context.Context, sess io.Closer) (left func()) {
	var done atomic.Bool
	stop := context.AfterFunc(ctx, func() {
		time.AfterFunc(stalledGrace, func() {
			if !done.Load() {
				sess.Close()
			}
		})
	})
	return func() {
		done.Store(true)
		stop()
	}
}

// enter registers student id's lab; it returns why not when the class is
// full or the server is stopping. A lab the student still has open — a
// connection that dropped without the server noticing, or another
// terminal — is closed first, its progress saved, and this connection
// takes over: a student who reconnects is never locked out by their own
// dead connection.
func (s *Server) enter(id string, lab *openLab) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for old := s.open[id]; old != nil; old = s.open[id] {
		old.takeOver()
		s.mu.Unlock()
		closed := false
		select {
		case <-old.done:
			closed = true
		case <-time.After(takeOverWait):
		}
		s.mu.Lock()
		if !closed {
			return "your lab in another connection did not close in time; try again in a moment"
		}
	}
	switch {
	case s.stop.Err() != nil:
		return "the lab is closing; try again later"
	case len(s.open) >= s.cfg.MaxSessions:
		return fmt.Sprintf("the lab is full (%d students); try again in a while", s.cfg.MaxSessions)
	}
	s.open[id] = lab
	s.labs.Add(1)
	return ""
}

func (s *Server) leave(id string, lab *openLab) {
	s.mu.Lock()
	if s.open[id] == lab {
		delete(s.open, id)
	}
	s.mu.Unlock()
	close(lab.done)
	s.labs.Done()
}

// labOptions is student's lab: the template with their state directory,
// their seeds and a place for their answers.
func (s *Server) labOptions(ctx context.Context, student *Student) tui.Options {
	opts := s.cfg.Lab
	st := s.cfg.State
	opts.StateDir = st.StudentDir(student.ID)
	// Saved sessions and a prediction form's answers go beside the graded
	// answers (the form saves DIR/ID/answers.yaml, as the grader reads).
	opts.SaveDir = st.AnswersDir(student.ID)
	// Every path the lab names is in the student's own directory: it is
	// shown as ~, never as where the server keeps it.
	opts.Home = st.StudentDir(student.ID)
	// A prediction is answered before its scenario plays: each attempt is
	// kept, and none past the exercise's attempts is graded.
	opts.CountAttempts = true
	opts.Progress, opts.ProgressWarning = nil, ""
	opts.DB = "" // a shared database file would mix the students' runs
	opts.ConfigFile = ""
	opts.ProgramOptions = []tea.ProgramOption{tea.WithoutSignalHandler()}
	opts.FrameRate = frameRate
	opts.MemoryBudget = labMemoryBudget
	opts.Executor = engine.ExecDeterministic // see checkExecutorLine
	opts.Guard = jobGuard()
	if s.cfg.NewClock != nil {
		opts.Clock = s.cfg.NewClock(ctx)
	}
	if secret := s.cfg.Secret; secret != "" {
		opts.ExerciseSeed = func(ex string) int64 { return grade.StudentSeed(secret, student.ID, ex) }
	}
	opts.Graded = func(exID string, answer []byte) {
		ex, err := exercises.Lookup(exID)
		if err != nil {
			return
		}
		if err := st.SaveAnswer(student.ID, ex.ID, ex.Answer, answer); err != nil {
			s.logf("error: keeping %s's answer to %s: %v", student.Name, ex.ID, err)
		}
	}
	return opts
}

// forwardSizes hands the session's terminal sizes to the program until ctx
// ends.
func forwardSizes(ctx context.Context, winCh <-chan ssh.Window, p *tea.Program) {
	for {
		select {
		case <-ctx.Done():
			return
		case w, ok := <-winCh:
			if !ok {
				return
			}
			p.Send(tea.WindowSizeMsg{Width: min(max(w.Width, 1), maxWidth), Height: min(max(w.Height, 1), maxHeight)})
		}
	}
}

// countedConn is a connection counted while it is open.
type countedConn struct {
	net.Conn
	n    *atomic.Int64
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.n.Add(-1) })
	return c.Conn.Close()
}

// displayName makes an SSH user name fit to show: printable, at most 32
// characters.
func displayName(user string) string {
	var b strings.Builder
	n := 0
	for _, r := range user {
		if n == 32 {
			break
		}
		if unicode.IsPrint(r) && r != ' ' {
			b.WriteRune(r)
			n++
		}
	}
	if b.Len() == 0 {
		return "student"
	}
	return b.String()
}

func fingerprint(key ssh.PublicKey) string {
	if key == nil {
		return "(no key)"
	}
	return gossh.FingerprintSHA256(key)
}
