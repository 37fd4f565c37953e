package classroom

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui"
	"github.com/streamlab/streamlab/tui/bridge"
)

// patience bounds every wait for the screen; the waits end as soon as the
// text is there.
const patience = 30 * time.Second

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// testServer is a classroom server on a free loopback port whose labs run
// on manual clocks that goroutines advance as fast as the labs take them.
type testServer struct {
	*Server
	addr   string
	served chan error
}

func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	cfg.Lab = tui.Options{Theme: "mono", Speed: 1, Job: "clicks", Executor: "deterministic", Seed: 1}
	if cfg.NewClock == nil {
		cfg.NewClock = func(ctx context.Context) bridge.Clock {
			c := bridge.NewManualClock(t0)
			go func() {
				for c.AdvanceContext(ctx, 50*time.Millisecond) {
				}
			}()
			return c
		}
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, addr: ln.Addr().String(), served: make(chan error, 1)}
	go func() { ts.served <- s.Serve(ln) }()
	return ts
}

// stop shuts the server down and checks Serve returned ErrClosed.
func (ts *testServer) stop(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if err := <-ts.served; !errors.Is(err, ErrClosed) {
		t.Errorf("serve returned %v", err)
	}
}

// student is an SSH client with a terminal, and what it has seen.
type student struct {
	t      testing.TB
	name   string
	conn   *gossh.Client
	sess   *gossh.Session
	stdin  io.WriteCloser
	mu     sync.Mutex
	out    bytes.Buffer
	closed chan struct{}
}

func newKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dial(addr, user string, key gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User:            user,
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         10 * time.Second,
	})
}

// connect logs in as user with key and opens a w×h terminal with the lab.
func connect(t testing.TB, addr, user string, key gossh.Signer, w, h int) *student {
	t.Helper()
	conn, err := dial(addr, user, key)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	s := &student{t: t, name: user, conn: conn, sess: sess, closed: make(chan struct{})}
	if s.stdin, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stderr = s
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() {
		io.Copy(s, stdout)
		sess.Wait() // and stderr
		close(s.closed)
	}()
	t.Cleanup(func() { conn.Close() })
	return s
}

func (s *student) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

// screen is everything the student has been shown since mark, as text.
func (s *student) screen(mark int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.Strip(string(s.out.Bytes()[mark:]))
}

// mark is where the output stands now.
func (s *student) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Len()
}

// waitFor waits until the output since mark shows re.
func (s *student) waitFor(mark int, re string) {
	s.t.Helper()
	pat := regexp.MustCompile(re)
	deadline := time.Now().Add(patience)
	for !pat.MatchString(s.screen(mark)) {
		if time.Now().After(deadline) {
			tail := s.screen(mark)
			if d := os.Getenv("CLASSROOM_DUMP"); d != "" {
				os.WriteFile(d, []byte(s.screen(0)), 0o644)
				f, _ := os.Create(d + ".stacks")
				pprof.Lookup("goroutine").WriteTo(f, 2)
				f.Close()
			}
			s.t.Fatalf("%s: %q never showed; the screen ends with:\n%s", s.name, re, tail[max(0, len(tail)-3000):])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// press sends keys and waits for re to show after them.
func (s *student) press(keys, re string) {
	s.t.Helper()
	m := s.mark()
	if _, err := io.WriteString(s.stdin, keys); err != nil {
		s.t.Fatalf("%s: %v", s.name, err)
	}
	if re != "" {
		s.waitFor(m, re)
	}
}

// line types a lab-script line into the command palette.
func (s *student) line(text string) {
	s.t.Helper()
	s.press(":", `a lab-script line`)
	// The next key waits for the palette to close (the help bar comes
	// back), or it could close and open again within one frame, and the
	// screen would not change.
	s.press(text+"\r", `: command •`)
}

const (
	keyDown  = "\x1b[B"
	keyEnter = "\r"
)

// openLesson4 goes from the home screen to lesson 4.
func (s *student) openLesson4() {
	s.t.Helper()
	s.press(keyDown+keyEnter, `Rollback recovery`)
	s.press(keyDown+keyDown+keyDown, "")
	s.press(keyEnter, `step \d/4`)
}

// doSteps types the solutions of lesson 4's steps from..to-1, each time
// waiting for the step to be ticked off (once its run has ended) and going
// on with n to the step after it.
func (s *student) doSteps(l *lessons.Lesson, from, to int) {
	s.t.Helper()
	for i, st := range l.Steps[from:to] {
		m := s.mark()
		for _, line := range st.Solution {
			s.line(line)
		}
		s.waitFor(m, fmt.Sprintf(`step %d/4 ✓`, from+i+1))
		s.press("n", fmt.Sprintf(`step %d/4`, from+i+2))
	}
}

func TestClassroom(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	l, err := lessons.Find("4")
	if err != nil {
		t.Fatal(err)
	}
	state := State{Dir: t.TempDir()}
	alice, bob, eve := newKey(t), newKey(t), newKey(t)
	roster := fmt.Sprintf("# a class of two\nalice %s\nbob %s\n",
		gossh.MarshalAuthorizedKey(alice.PublicKey()), gossh.MarshalAuthorizedKey(bob.PublicKey()))
	r, err := ParseRoster("roster", []byte(roster))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	var logMu sync.Mutex
	ts := startServer(t, Config{State: state, Roster: r, Log: lockedWriter{&logMu, &log}})

	// A key not on the roster is refused before any session.
	if c, err := dial(ts.addr, "eve", eve); err == nil {
		c.Close()
		t.Fatal("eve's key was admitted")
	}
	// A command is refused: the session is the lab and nothing else.
	if c, err := dial(ts.addr, "alice", alice); err != nil {
		t.Fatal(err)
	} else {
		sess, _ := c.NewSession()
		if out, err := sess.CombinedOutput("cat /etc/passwd"); err == nil || bytes.Contains(out, []byte("root:")) {
			t.Errorf("exec ran: %v %q", err, out)
		}
		c.Close()
	}

	// Two students, two terminals, two labs: each at their own step.
	a := connect(t, ts.addr, "ann", alice, 120, 40)
	b := connect(t, ts.addr, "bob", bob, 100, 30)
	a.waitFor(0, `Lessons 0/\d+`)
	b.waitFor(0, `Lessons 0/\d+`)
	a.openLesson4()
	b.openLesson4()
	a.doSteps(l, 0, 1)
	b.doSteps(l, 0, 2)
	// The server's files are not the lab's to open.
	m := a.mark()
	a.press(":", `a lab-script line`)
	a.press("job /etc/passwd\r", `only built-in jobs \(.*\) and a lesson's own files open here`)
	if strings.Contains(a.screen(m), "root:") {
		t.Error("the lab showed a server file")
	}
	if strings.Contains(a.screen(0), "step 3/4") {
		t.Error("alice's screen shows bob's step")
	}
	if ts.Open() != 2 {
		t.Errorf("%d labs open, want 2", ts.Open())
	}

	// A second connection with the same key takes the lab over: the first
	// is told and closed, her progress kept, and the class still has two
	// labs open, not three.
	dup := connect(t, ts.addr, "alice", alice, 80, 24)
	<-a.closed
	if !strings.Contains(a.screen(0), "opened from another connection") {
		t.Errorf("alice's first connection was not told why it closed:\n%s", tail(a.screen(0)))
	}
	a.conn.Close()
	a = dup
	a.waitFor(0, `Lessons 0/\d+`)
	if ts.Open() != 2 {
		t.Errorf("%d labs open after alice reconnected, want 2", ts.Open())
	}
	a.openLesson4()

	// Alice drops her connection while her lab plays: the lab goes, and
	// what it held with it. (10 s of the 30 s that step 2 asks for, so
	// her progress stays at step 1.)
	a.line("run 10s")
	a.conn.Close()
	<-a.closed
	waitUntil(t, func() bool { return ts.Open() == 1 }, "alice's lab to close")

	// The server stops while bob is in his lab: he is told.
	ts.stop(t)
	<-b.closed
	if !strings.Contains(b.screen(0), "the lab is closing") {
		t.Errorf("bob was not told the lab is closing:\n%s", tail(b.screen(0)))
	}
	b.conn.Close()
	logMu.Lock()
	for _, want := range []string{"refused key", "login alice", "login bob", "logout alice", "logout bob"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log.String())
		}
	}
	logMu.Unlock()

	// Their progress is kept, per student, and found after a restart.
	for _, c := range []struct {
		key   gossh.Signer
		name  string
		steps int
	}{{alice, "alice", 1}, {bob, "bob", 2}} {
		id := StudentID(c.key.PublicKey())
		p, err := state.Progress(id).Load()
		if err != nil || p.Seed == 0 || p.Lessons[l.ID] == nil || p.Lessons[l.ID].Steps != c.steps {
			t.Errorf("%s's progress: %+v %v", c.name, p, err)
		}
		st, err := state.Student(id)
		if err != nil || st.Name != c.name || st.Fingerprint != gossh.FingerprintSHA256(c.key.PublicKey()) {
			t.Errorf("%s's record: %+v %v", c.name, st, err)
		}
	}
	const secret = "s3cret"
	ts = startServer(t, Config{State: state, Roster: r, Secret: secret})
	a = connect(t, ts.addr, "alice", alice, 120, 40)
	a.waitFor(0, `Lessons 0/\d+`)
	a.press(keyDown+keyEnter, `step 2 of 4`)
	b = connect(t, ts.addr, "bob", bob, 100, 30)
	b.waitFor(0, `Lessons 0/\d+`)
	b.press(keyDown+keyEnter, `step 3 of 4`)
	a.press("q", "")
	<-a.closed

	// Bob grades an exercise in the lab: his answer is kept, and the
	// instructor's view grades it again, under his own seed.
	b.press("q", "")
	<-b.closed
	b = connect(t, ts.addr, "bob", bob, 100, 30)
	b.waitFor(0, `Lessons 0/\d+`)
	ex := firstConfiguration(t)
	b.press(keyDown+keyDown+keyEnter, regexp.QuoteMeta(ex.Title))
	b.press(strings.Repeat(keyDown, ex.index)+keyEnter, regexp.QuoteMeta("exercise "+ex.Title))
	b.line("set filter exact")
	b.press("g", `graded: see the points`)
	ts.stop(t)
	<-b.closed

	class, err := Status(context.Background(), state, secret)
	if err != nil {
		t.Fatal(err)
	}
	if len(class.Students) != 2 || !class.PersonalSeeds {
		t.Fatalf("class: %+v", class)
	}
	for _, s := range class.Students {
		want := map[string]string{"alice": "step 2 of 4", "bob": "step 3 of 4"}[s.Name]
		if s.Lesson != l.ID || s.Step != want || s.LessonsDone != 0 {
			t.Errorf("%s: lesson %q %q, %d done; want %q", s.Name, s.Lesson, s.Step, s.LessonsDone, want)
		}
		g := gradeOf(s, ex.ID)
		answered := g.Answered && g.MaxScore > 0
		if answered != (s.Name == "bob") {
			t.Errorf("%s's grades: %+v", s.Name, s.Grades)
		}
	}
	var out bytes.Buffer
	if err := WriteStatus(&out, class, "csv"); err != nil || !regexp.MustCompile(`(?m)^bob,SHA256:\S+,[0-9a-f]{64},0,rollback,step 3 of 4,.*\d`).MatchString(out.String()) {
		t.Errorf("csv: %v\n%s", err, out.String())
	}
}

// listedExercise is an exercise and its place in the lab's list.
type listedExercise struct {
	*pack.Exercise
	index int
}

// firstConfiguration is the first configuration exercise the lab lists
// (its answer is the set lines typed in the lab).
func firstConfiguration(t *testing.T) listedExercise {
	t.Helper()
	for i, ex := range exercises.List() {
		if ex.Kind == pack.KindConfiguration {
			return listedExercise{ex, i}
		}
	}
	t.Fatal("no configuration exercise")
	return listedExercise{}
}

// gradeOf is a student's grade on exercise id.
func gradeOf(s StudentSummary, id string) Grade {
	for _, g := range s.Grades {
		if g.Exercise == id {
			return g
		}
	}
	return Grade{}
}

func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func tail(s string) string { return s[max(0, len(s)-2000):] }

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

// TestClassroomLimits checks what a session may not do: run without a
// terminal, forward a port, exceed the class size, or idle for ever.
func TestClassroomLimits(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	state := State{Dir: t.TempDir()}
	ts := startServer(t, Config{State: state, MaxSessions: 1, IdleTimeout: 3 * time.Second})
	defer ts.stop(t)
	k1, k2 := newKey(t), newKey(t)

	// The host key is made once and kept.
	hk1, err := state.HostKey()
	if err != nil {
		t.Fatal(err)
	}
	if hk2, err := state.HostKey(); err != nil || !bytes.Equal(hk1, hk2) {
		t.Error("the host key changed")
	}

	c, err := dial(ts.addr, "ann", k1)
	if err != nil {
		t.Fatal(err)
	}
	if fwd, err := c.Dial("tcp", ts.addr); err == nil {
		fwd.Close()
		t.Error("a port was forwarded")
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var outMu sync.Mutex
	sess.Stdout, sess.Stderr = lockedWriter{&outMu, &out}, lockedWriter{&outMu, &out}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Wait(); err == nil || !strings.Contains(out.String(), "needs a terminal") {
		t.Errorf("no terminal: %v %q", err, out.String())
	}
	c.Close()

	a := connect(t, ts.addr, "ann", k1, 80, 24)
	a.waitFor(0, `Lessons 0/\d+`)
	full := connect(t, ts.addr, "bob", k2, 80, 24)
	<-full.closed
	if !strings.Contains(full.screen(0), "the lab is full") {
		t.Errorf("a second student in a class of one: %q", full.screen(0))
	}
	// In the sandbox too, the server's files are not the lab's to open.
	a.press(keyEnter+keyEnter, `⏸ ready`)
	a.press(":", `a lab-script line`)
	a.press("job /etc/passwd\r", `only built-in jobs \(clicks`) // cut at 80 columns
	// Then Ann presses nothing: her lab closes, and she is told why.
	<-a.closed
	if !strings.Contains(a.screen(0), "without a key pressed") {
		t.Errorf("idle: %q", tail(a.screen(0)))
	}
	waitUntil(t, func() bool { return ts.Open() == 0 }, "the idle lab to close")
}

// TestServedLabCountsAttemptsAndHidesSeeds: a student's lab records each
// prediction attempt (and refuses one past the exercise's attempts), and
// with a secret runs exercises under the student's own seed, which its
// report then does not show (tui's ExerciseSeed).
func TestServedLabCountsAttemptsAndHidesSeeds(t *testing.T) {
	s, err := New(Config{State: State{Dir: t.TempDir()}, Secret: "k",
		Lab: tui.Options{Theme: "default", Speed: 1, Job: "clicks", Executor: "deterministic", Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	opts := s.labOptions(context.Background(), &Student{ID: "s1", Name: "ada"})
	if !opts.CountAttempts || opts.SaveDir != s.cfg.State.AnswersDir("s1") {
		t.Errorf("attempts not counted in the answers: %v %q", opts.CountAttempts, opts.SaveDir)
	}
	if opts.Home != s.cfg.State.StudentDir("s1") {
		t.Errorf("the lab shows paths under %q as they are on the server, not as ~", s.cfg.State.StudentDir("s1"))
	}
	if opts.ExerciseSeed == nil || opts.ExerciseSeed("gap-recovery") != grade.StudentSeed("k", "s1", "gap-recovery") {
		t.Error("the exercises do not run under the student's seed")
	}
}
