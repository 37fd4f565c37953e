package classroom

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// BenchmarkClassroom is a class on one server: it builds streamlab, starts
// `streamlab serve` on 127.0.0.1 as its own process, and connects N SSH
// students with 120×40 terminals. Each opens lesson 1 and plays it at 1×
// on the wall clock; every half second (an iteration) each presses a key
// that changes the speed (alternately + and -, between ×1 and ×2) at their
// own moment within it and waits for the frame that shows it. It reports
// the server process's CPU (its CPU time over the wall time, in cores),
// its resident memory (in all and per student), and the key-to-frame
// latency (p50, p95, p99): the server's own, since the clients run in
// this process, not the server's.
//
// Each N runs twice: hostile=0, and hostile=2 with two more students who
// try to take the server: one runs a window fan-out to the end (`set window
// 1s`, `set window.slide 1ms`, `run 10000000`, then >), one pastes 10 MB
// into the command line. The latencies are the others'. Once the rounds
// are over the hostile students drop their connections, and
// hostile-closed-ms is how long until the server logged both labs closed.
//
// N is 100; CLASSROOM_SESSIONS=1,10,50 picks others, and CLASSROOM_BIN
// serves another build of streamlab. `make bench-serve`
// runs it as
//
//	go test -run '^$' -bench Classroom -benchtime 60x -timeout 30m ./classroom/
func BenchmarkClassroom(b *testing.B) {
	ns := []int{100}
	if env := os.Getenv("CLASSROOM_SESSIONS"); env != "" {
		ns = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				b.Fatalf("CLASSROOM_SESSIONS=%q: want numbers", env)
			}
			ns = append(ns, n)
		}
	}
	bin := buildServer(b)
	for _, n := range ns {
		for _, hostile := range []int{0, 2} {
			b.Run(fmt.Sprintf("sessions=%d/hostile=%d", n, hostile), func(b *testing.B) {
				c := openClass(b, bin, n, hostile)
				defer c.close(b)
				cpu0, clients0, wall0 := c.srv.cpu(), clientsCPU(), time.Now()
				for i := 0; b.Loop(); i++ {
					c.round(b, i)
				}
				wall := time.Since(wall0)
				// The clients share the machine with the server.
				b.ReportMetric((clientsCPU()-clients0).Seconds()/wall.Seconds(), "clients-cores")
				c.report(b, c.srv.cpu()-cpu0, wall)
			})
		}
	}
}

// TestClassroomBench runs the benchmark's class small (3 students and the
// two hostile ones, a few rounds), so that `go test` keeps it working.
func TestClassroomBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and serves streamlab")
	}
	bin := buildServer(t)
	c := openClass(t, bin, 3, 2)
	defer c.close(t)
	cpu0, wall0 := c.srv.cpu(), time.Now()
	for i := range 4 {
		c.round(t, i)
	}
	if len(c.lat) != 4*3 {
		t.Fatalf("%d latencies measured, want 12", len(c.lat))
	}
	m := c.measure(c.srv.cpu()-cpu0, time.Since(wall0))
	t.Logf("%+v", m)
	if m.rssMB <= 0 || m.cpuCores <= 0 || m.p99 < m.p50 {
		t.Fatalf("implausible measurements %+v", m)
	}
	if m.closed <= 0 || m.closed > benchIdleTimeout {
		t.Fatalf("the hostile labs closed %v after their students left, want within %v", m.closed, benchIdleTimeout)
	}
}

// benchIdleTimeout is the served labs' --idle-timeout: longer than a
// class of 100 takes to log in on a loaded machine, when the first
// students have pressed no key for a while.
const benchIdleTimeout = time.Minute

// buildServer builds streamlab into a temporary directory, once per test;
// CLASSROOM_BIN names a streamlab built already instead (another version,
// to compare with).
func buildServer(tb testing.TB) string {
	tb.Helper()
	if bin := os.Getenv("CLASSROOM_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(tb.TempDir(), "streamlab")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// servedProcess is `streamlab serve` running as a child process; its log
// lines are kept to see labs close.
type servedProcess struct {
	cmd  *exec.Cmd
	addr string

	mu   sync.Mutex
	logs []string
	seen chan struct{} // closed and remade on every log line
}

// startServeProcess starts bin serve on a free port of 127.0.0.1.
func startServeProcess(tb testing.TB, bin string, sessions int) *servedProcess {
	tb.Helper()
	dir := tb.TempDir()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(dir, "class"),
		"--max-sessions", strconv.Itoa(sessions), "--idle-timeout", benchIdleTimeout.String(),
		"--speed", "1")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	s := &servedProcess{cmd: cmd, seen: make(chan struct{})}
	go s.keepLog(stderr)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "serving the lab on "); ok {
				addr <- strings.Fields(a)[0]
			}
		}
	}()
	select {
	case s.addr = <-addr:
	case <-time.After(30 * time.Second):
		s.stop()
		tb.Fatal("streamlab serve did not say where it listens")
	}
	return s
}

func (s *servedProcess) keepLog(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		s.mu.Lock()
		s.logs = append(s.logs, sc.Text())
		close(s.seen)
		s.seen = make(chan struct{})
		s.mu.Unlock()
	}
}

// waitLog waits until every one of wants is in some log line.
func (s *servedProcess) waitLog(ctx context.Context, wants ...string) error {
	for {
		s.mu.Lock()
		missing := slices.DeleteFunc(slices.Clone(wants), func(w string) bool {
			return slices.ContainsFunc(s.logs, func(l string) bool { return strings.Contains(l, w) })
		})
		seen := s.seen
		s.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-seen:
		case <-ctx.Done():
			return fmt.Errorf("the server never logged %q", missing)
		}
	}
}

// stop ends the server with SIGTERM, as an instructor would, then waits.
func (s *servedProcess) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// cpu is the server's user and system CPU time so far.
func (s *servedProcess) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses:
	// utime and stime are the 12th and 13th of them, in clock ticks.
	_, rest, _ := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// memory is the server's resident set now and at its peak, in MiB.
func (s *servedProcess) memory() (rss, peak float64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, _ := strings.Cut(line, ":")
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		switch {
		case err != nil:
		case k == "VmRSS":
			rss = kb / 1024
		case k == "VmHWM":
			peak = kb / 1024
		}
	}
	return rss, peak
}

// class is a served class: n playing students and the hostile ones.
type class struct {
	srv     *servedProcess
	players []*player
	hostile []*player
	names   []string // the hostile students' names
	stopped context.CancelFunc

	mu  sync.Mutex
	lat []time.Duration
}

// openClass starts a server and logs in n students (each playing lesson
// 1) and hostile hostile students (0 or 2) at work.
func openClass(tb testing.TB, bin string, n, hostile int) *class {
	tb.Helper()
	c := &class{srv: startServeProcess(tb, bin, n+hostile)}
	ctx, cancel := context.WithCancel(context.Background())
	c.stopped = cancel
	c.players = make([]*player, n)
	var wg sync.WaitGroup
	errs := make(chan error, n+hostile)
	for i := range c.players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := login(ctx, c.srv.addr, fmt.Sprintf("s%d", i), newKey(tb))
			if err != nil {
				errs <- err
				return
			}
			c.players[i] = p
			// Home → Lessons → lesson 1 → play.
			errs <- p.steps([]step{{"", "Lessons 0/"}, {"\x1b[B\r", "1 Streams and jobs"}, {"\r", "Step 1 of 4"}, {" ", "▶ running"}})
		}()
	}
	wg.Wait()
	for range n {
		if err := <-errs; err != nil {
			c.close(tb)
			tb.Fatal(err)
		}
	}
	for i := range hostile {
		name := fmt.Sprintf("hostile%d", i)
		p, err := login(ctx, c.srv.addr, name, newKey(tb))
		if err == nil {
			err = p.steps([]step{{"", "Lessons 0/"}, {"\r\r", "⏸ ready"}})
		}
		if err != nil {
			c.close(tb)
			tb.Fatal(err)
		}
		c.hostile, c.names = append(c.hostile, p), append(c.names, name)
		if i == 0 {
			err = p.steps([]step{{":", paletteOpen}, {"set window 1s\r", ""}, {":", paletteOpen},
				{"set window.slide 1ms\r", ""}, {":", paletteOpen}, {"run 10000000\r", ""}, {">", ""}})
		} else {
			err = p.steps([]step{{":", paletteOpen}})
			go p.paste(10 << 20)
		}
		if err != nil {
			c.close(tb)
			tb.Fatal(err)
		}
	}
	return c
}

// round is one half second of class: every student presses a key at their
// own moment within it and waits for the frame that answers it.
func (c *class) round(tb testing.TB, i int) {
	start := time.Now()
	key, want := "+", "×2 "
	if i%2 == 1 {
		key, want = "-", "×1 "
	}
	var wg sync.WaitGroup
	for j, p := range c.players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration((i*7919+j*104729)%500) * time.Millisecond)
			d, err := p.press(key, want, 10*time.Second)
			if err != nil {
				tb.Error(err)
				return
			}
			c.mu.Lock()
			c.lat = append(c.lat, d)
			c.mu.Unlock()
		}()
	}
	wg.Wait()
	time.Sleep(time.Until(start.Add(500 * time.Millisecond)))
}

// measurement is what a class's rounds measured.
type measurement struct {
	p50, p95, p99   time.Duration
	cpuCores        float64
	rssMB, peakMB   float64
	rssPerStudentMB float64
	closed          time.Duration
}

// measure reads the server's memory, then lets the hostile students go
// and times their labs' closing.
func (c *class) measure(cpu, wall time.Duration) measurement {
	var m measurement
	slices.Sort(c.lat)
	if n := len(c.lat); n > 0 {
		m.p50, m.p95, m.p99 = c.lat[n/2], c.lat[n*95/100], c.lat[n*99/100]
	}
	m.cpuCores = cpu.Seconds() / wall.Seconds()
	m.rssMB, m.peakMB = c.srv.memory()
	m.rssPerStudentMB = m.rssMB / float64(len(c.players)+len(c.hostile))
	if len(c.hostile) > 0 {
		left := time.Now()
		for _, p := range c.hostile {
			p.conn.Close()
		}
		var wants []string
		for _, name := range c.names {
			wants = append(wants, "logout "+name+" ")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*benchIdleTimeout)
		defer cancel()
		if err := c.srv.waitLog(ctx, wants...); err == nil {
			m.closed = time.Since(left)
		}
	}
	return m
}

// report reports the measurements as the benchmark's metrics.
func (c *class) report(b *testing.B, cpu, wall time.Duration) {
	m := c.measure(cpu, wall)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(m.p50), "p50-ms")
	b.ReportMetric(ms(m.p95), "p95-ms")
	b.ReportMetric(ms(m.p99), "p99-ms")
	b.ReportMetric(m.cpuCores, "cpu-cores")
	b.ReportMetric(m.rssMB, "rss-MB")
	b.ReportMetric(m.peakMB, "rss-peak-MB")
	b.ReportMetric(m.rssPerStudentMB, "rssMB/student")
	if len(c.hostile) > 0 {
		b.ReportMetric(ms(m.closed), "hostile-closed-ms")
	}
	b.ReportMetric(loadAverage(), "load-avg")
	b.ReportMetric(0, "ns/op") // an iteration is a half second of class
}

// clientsCPU is this process's CPU time so far: the SSH clients'.
func clientsCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage is the machine's one-minute load average (the machine may be
// shared, and the latencies depend on it).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(data))[0], 64)
	return f
}

// close ends the class; when tb failed, it shows how the server ended
// and its last log lines.
func (c *class) close(tb testing.TB) {
	c.stopped()
	defer func() {
		if !tb.Failed() {
			return
		}
		c.srv.mu.Lock()
		defer c.srv.mu.Unlock()
		tb.Logf("the server: %v; its last log lines:\n%s", c.srv.cmd.ProcessState, strings.Join(c.srv.logs[max(len(c.srv.logs)-20, 0):], "\n"))
	}()
	for _, p := range append(c.players, c.hostile...) {
		if p != nil {
			p.conn.Close()
		}
	}
	c.srv.stop()
}

// player is a benchmark's SSH client: it keeps only the output since its
// last key press, to find the frame that answers it.
type player struct {
	ctx   context.Context
	conn  *gossh.Client
	stdin io.Writer

	mu   sync.Mutex
	seen []byte
	want string
	hit  chan struct{}
}

// login connects as user with key and opens a 120×40 terminal with the
// lab; ctx bounds the login and, later, a paste.
func login(ctx context.Context, addr, user string, key gossh.Signer) (*player, error) {
	dctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	raw, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(dctx, func() { raw.SetDeadline(time.Now()) })
	cc, chans, reqs, err := gossh.NewClientConn(raw, addr, &gossh.ClientConfig{
		User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
	})
	if !stop() && err == nil {
		err = dctx.Err()
	}
	if err != nil {
		raw.Close()
		return nil, err
	}
	raw.SetDeadline(time.Time{})
	conn := gossh.NewClient(cc, chans, reqs)
	sess, err := conn.NewSession()
	if err == nil {
		err = sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{})
	}
	p := &player{ctx: ctx, conn: conn}
	var out io.Reader
	if err == nil {
		p.stdin, err = sess.StdinPipe()
	}
	if err == nil {
		out, err = sess.StdoutPipe()
	}
	if err == nil {
		err = sess.Shell()
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	go p.read(out)
	return p, nil
}

func (p *player) read(r io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		p.mu.Lock()
		p.seen = append(p.seen, buf[:n]...)
		if p.want != "" && strings.Contains(ansi.Strip(string(p.seen)), p.want) {
			p.want = ""
			close(p.hit)
		}
		if len(p.seen) > 1<<20 {
			p.seen = slices.Clone(p.seen[len(p.seen)-64<<10:])
		}
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// paletteOpen shows once the command line is open.
const paletteOpen = "tab complete"

// step is keys to press and what shows once they took effect ("" for
// nothing to wait for).
type step struct{ keys, want string }

func (p *player) steps(steps []step) error {
	for _, s := range steps {
		if s.want == "" {
			if _, err := io.WriteString(p.stdin, s.keys); err != nil {
				return err
			}
			continue
		}
		if _, err := p.press(s.keys, s.want, 60*time.Second); err != nil {
			return err
		}
	}
	return nil
}

// paste writes n bytes of text to the lab as fast as the server takes
// them, until they are written or the connection closes.
func (p *player) paste(n int) {
	chunk := []byte(strings.Repeat("x", 32<<10))
	for n > 0 && p.ctx.Err() == nil {
		w, err := p.stdin.Write(chunk[:min(n, len(chunk))])
		if err != nil {
			return
		}
		n -= w
	}
}

// press sends keys and returns how long until want showed.
func (p *player) press(keys, want string, patience time.Duration) (time.Duration, error) {
	hit := make(chan struct{})
	p.mu.Lock()
	if keys != "" {
		p.seen = p.seen[:0]
	}
	p.want, p.hit = want, hit
	if strings.Contains(ansi.Strip(string(p.seen)), want) {
		p.want = ""
		close(hit)
	}
	p.mu.Unlock()
	start := time.Now()
	if keys != "" {
		if _, err := io.WriteString(p.stdin, keys); err != nil {
			return 0, err
		}
	}
	t := time.NewTimer(patience)
	defer t.Stop()
	select {
	case <-hit:
		return time.Since(start), nil
	case <-p.ctx.Done():
		return 0, p.ctx.Err()
	case <-t.C:
		p.mu.Lock()
		defer p.mu.Unlock()
		return 0, fmt.Errorf("%q never showed after %q; the screen since:\n%s", want, keys, ansi.Strip(string(p.seen)))
	}
}
