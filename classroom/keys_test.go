package classroom

import (
	"bytes"
	"context"
	"io"
	"math"
	"sync/atomic"
	"testing"
	"time"
)

// A stream of input passes its burst at once and then at the rate: the
// reader waits, in virtual time, for what the rate has not paid for, and
// every byte arrives.
func TestKeysArePacedAfterABurst(t *testing.T) {
	now := time.Unix(0, 0)
	var slept time.Duration
	p := newPacer(keyRate, keyBurst)
	p.now = func() time.Time { return now }
	p.sleep = func(_ context.Context, d time.Duration) error {
		slept += d
		now = now.Add(d)
		return nil
	}
	const size = 100 << 10
	var last atomic.Int64
	k := keyReader{context.Background(), bytes.NewReader(bytes.Repeat([]byte("k"), size)), &last, p}
	got, err := io.ReadAll(k)
	if err != nil || len(got) != size {
		t.Fatalf("read %d bytes, %v; want %d", len(got), err, size)
	}
	want := time.Duration(float64(size-keyBurst) / keyRate * float64(time.Second))
	if math.Abs(float64(slept-want)) > float64(time.Second) {
		t.Errorf("100 KiB took %v of waiting, want about %v", slept, want)
	}
	if last.Load() == 0 {
		t.Error("the last key's time was not noted")
	}
}

// Keys typed at a person's pace never wait: the bucket refills faster
// than they spend it.
func TestTypingIsNeverPaced(t *testing.T) {
	now := time.Unix(0, 0)
	p := newPacer(keyRate, keyBurst)
	p.now = func() time.Time { return now }
	p.sleep = func(context.Context, time.Duration) error {
		t.Fatal("a typist was made to wait")
		return nil
	}
	for range 10_000 { // 20 keys a second, each an escape sequence
		now = now.Add(50 * time.Millisecond)
		if err := p.take(context.Background(), 6); err != nil {
			t.Fatal(err)
		}
	}
}

// A lab that closes while its input waits stops waiting.
func TestPacedInputStopsWithTheLab(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := newPacer(keyRate, keyBurst)
	start := time.Now()
	if err := p.take(ctx, keyBurst+60*keyRate); err == nil {
		t.Error("a wait of a minute did not end with the lab")
	}
	if time.Since(start) > 5*time.Second {
		t.Error("the wait outlived the lab")
	}
}
