package classroom

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	gossh "golang.org/x/crypto/ssh"

	"github.com/streamlab/streamlab/tui"
)

// BenchmarkClassroom drives N students at once over loopback SSH, each
// with a 120×40 terminal, each playing the clicks sandbox at 1× on the wall
// clock (the lab as a class uses it). Each iteration, every student presses
// a key that changes the speed (alternately + and -, between ×1 and ×2)
// and waits for the frame that shows it; each presses at their own moment
// within a quarter second, as a class does, not all at once. It reports the key-to-frame latency (p50, p95), the CPU
// time per session (the clients' SSH work included: it is an upper bound)
// and the heap per session after playing through the run (the clients'
// buffers included, at most 1 MiB each).
//
// N is 1 and 10; CLASSROOM_SESSIONS=1,10,50 picks others. Run it as
//
//	go test -run '^$' -bench Classroom -benchtime 20x ./classroom/
func BenchmarkClassroom(b *testing.B) {
	ns := []int{1, 10}
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
	for _, n := range ns {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) { benchClassroom(b, n) })
	}
}

func benchClassroom(b *testing.B, n int) {
	// Colors, as `streamlab serve` draws them (styling is much of a frame).
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	lipgloss.SetColorProfile(termenv.ANSI256)
	state := State{Dir: b.TempDir()}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	s, err := New(Config{State: state, MaxSessions: n,
		Lab: tui.Options{Theme: "default", Speed: 1, Job: "clicks", Executor: "deterministic", Seed: 1}})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		<-served
	}()

	clients := make([]*player, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := newPlayer(ln.Addr().String(), fmt.Sprintf("s%d", i), newKey(b))
			if err != nil {
				errs <- err
				return
			}
			clients[i] = p
			// Home → the sandbox's job list → clicks → play.
			for _, step := range []struct{ keys, want string }{
				{"", "Lessons 0/"}, {"\r\r", "⏸ ready"}, {" ", "▶ running"},
			} {
				if _, err := p.press(step.keys, step.want, 30*time.Second); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	defer func() {
		for _, p := range clients {
			p.conn.Close()
		}
	}()
	var mu sync.Mutex
	var lat []time.Duration
	cpu0, wall0 := cpuTime(), time.Now()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		key, want := "+", "×2 "
		if i%2 == 1 {
			key, want = "-", "×1 "
		}
		var wg sync.WaitGroup
		for j, p := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Students press keys at their own moments, not in step.
				time.Sleep(time.Duration((i*7919+j*104729)%250) * time.Millisecond)
				d, err := p.press(key, want, 10*time.Second)
				if err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	wall := time.Since(wall0)
	cpu := cpuTime() - cpu0
	// The heap the labs hold after playing for the whole run.
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
	}
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds()/float64(n), "cpu%/session")
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "cpu%-total")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/float64(n)/(1<<20), "heapMB/session")
	b.ReportMetric(0, "ns/op") // an iteration's time is mostly the pause
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// player is a benchmark's SSH client: it keeps only the output since its
// last key press, to find the frame that answers it.
type player struct {
	conn  *gossh.Client
	stdin io.Writer

	mu   sync.Mutex
	seen []byte
	want string
	hit  chan struct{}
}

func newPlayer(addr, user string, key gossh.Signer) (*player, error) {
	conn, err := dial(addr, user, key)
	if err != nil {
		return nil, err
	}
	sess, err := conn.NewSession()
	if err != nil {
		return nil, err
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		return nil, err
	}
	p := &player{conn: conn}
	if p.stdin, err = sess.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := sess.Shell(); err != nil {
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
	select {
	case <-hit:
		return time.Since(start), nil
	case <-time.After(patience):
		p.mu.Lock()
		defer p.mu.Unlock()
		return 0, fmt.Errorf("%q never showed after %q; the screen since:\n%s", want, keys, ansi.Strip(string(p.seen)))
	}
}
