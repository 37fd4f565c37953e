package classroom

import (
	"context"
	"io"
	"sync/atomic"
	"time"
)

// Input pacing: a student's keys reach their lab at most keyRate bytes a
// second once a burst of keyBurst bytes is spent. A typist sends some 60
// bytes a second (escape sequences included), a spun mouse wheel a few
// hundred for a moment, and a pasted script fits in the burst; but every
// byte is a key the lab acts on, and a stream of them (a 10 MB paste
// outside bracketed paste mode, or a script writing to the connection)
// took about 90 µs of CPU a byte: without pacing, a core from the class;
// paced, about 5 % of one. Paced input waits in the SSH channel, so
// nothing the student sent is dropped.
const (
	keyRate  = 512
	keyBurst = 16 << 10
)

// keyReader reads the student's keys, notes when the last one came, and
// paces them (see keyRate).
type keyReader struct {
	ctx  context.Context
	r    io.Reader
	last *atomic.Int64
	pace *pacer
}

func (k keyReader) Read(p []byte) (int, error) {
	if len(p) > keyBurst {
		p = p[:keyBurst]
	}
	n, err := k.r.Read(p)
	if n > 0 {
		k.last.Store(time.Now().UnixNano())
		if werr := k.pace.take(k.ctx, n); werr != nil && err == nil {
			err = werr
		}
	}
	return n, err
}

// pacer is a token bucket of bytes: take spends n and, once the bucket is
// empty, waits until the rate has paid for them.
type pacer struct {
	rate, burst float64
	tokens      float64
	at          time.Time
	now         func() time.Time
	sleep       func(ctx context.Context, d time.Duration) error
}

func newPacer(rate, burst int) *pacer {
	return &pacer{rate: float64(rate), burst: float64(burst), tokens: float64(burst),
		now: time.Now, sleep: sleepContext}
}

func (p *pacer) take(ctx context.Context, n int) error {
	now := p.now()
	if !p.at.IsZero() {
		p.tokens = min(p.burst, p.tokens+now.Sub(p.at).Seconds()*p.rate)
	}
	p.at = now
	p.tokens -= float64(n)
	if p.tokens >= 0 {
		return nil
	}
	return p.sleep(ctx, time.Duration(-p.tokens/p.rate*float64(time.Second)))
}

// sleepContext waits for d, or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
