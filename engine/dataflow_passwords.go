package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/streamlab/streamlab/assets"
	"github.com/streamlab/streamlab/engine/filter"
)

// PasswordListSeed and PasswordListSize make the compromised-password list
// shipped in assets: GeneratePasswords(PasswordListSeed, PasswordListSize).
// It is synthetic on purpose: a teaching lab never ships a real leaked list.
const (
	PasswordListSeed = 7
	PasswordListSize = 10_000
)

var syllables = []string{"ba", "ko", "ri", "mu", "ta", "ne", "lo", "vi", "sa", "de", "po", "xu", "fa", "gi", "ze", "ha"}

// GeneratePasswords makes n distinct password-like strings from a seed,
// shaped like the ones people pick: a pronounceable word, digits, and
// sometimes a symbol.
func GeneratePasswords(seed uint64, n int) []string {
	rng := rand.New(rand.NewPCG(seed, 0x9a55))
	seen := make(map[string]bool, n)
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		fmt.Fprintf(&b, "%d", rng.IntN(10000))
		if rng.IntN(4) == 0 {
			b.WriteByte("!@$?"[rng.IntN(4)])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// compromised is the shipped list, parsed once.
func compromised() []string {
	return strings.Fields(assets.Passwords)
}

// freshPassword is a clean password for a login: its '#' keeps it apart
// from every password on the list.
func freshPassword(id uint64) string { return fmt.Sprintf("u%x#", id&0xffffffffff) }

// breachCheck flags logins whose password is on the compromised list, as a
// service checking passwords against a breach corpus does: the list sits in
// a Bloom filter (a few bits per password instead of the list itself), so a
// clean password is sometimes flagged too — a false positive. Flagged
// logins go on to the sink; the list itself is the truth that tells a real
// hit from a false one.
type breachCheck struct {
	passive
	f                     filter.Filter
	list                  map[string]bool
	checked, hits, falses int64
	clean                 int64
}

// newBreachCheck loads the list into the filter spec names: a Bloom filter
// (by default n = the list's size, p = 1%), or an exact set, which never
// flags a clean password and costs the list's memory. A check cannot go
// without the list, and a rotating filter would forget its older half, so
// both are refused rather than quietly replaced.
func newBreachCheck(spec filter.Spec) (*breachCheck, error) {
	list := compromised()
	switch spec.Kind {
	case "":
		spec = filter.Spec{Kind: filter.KindBloom, N: uint(len(list)), P: 0.01}
	case filter.KindNone, filter.KindRotating:
		return nil, badConfig("filter %s: a breach check holds the whole compromised list, so it needs bloom (a few bits a password, some false alarms) or exact (none, at the list's memory)", spec.Kind)
	}
	f, err := filter.New(spec)
	if err != nil {
		return nil, badConfig("%v", err)
	}
	b := &breachCheck{f: f, list: make(map[string]bool, len(list))}
	for _, p := range list {
		b.list[p] = true
		f.TestAndAdd(passwordID(p))
	}
	return b, nil
}

// passwordID is the filter key of a password.
func passwordID(p string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(p); i++ {
		h ^= uint64(p[i])
		h *= 1099511628211
	}
	return mix(h)
}

func (b *breachCheck) record(r Record, out emitter) {
	b.checked++
	leaked := b.list[r.Key]
	if !leaked {
		b.clean++
	}
	if !b.f.Test(passwordID(r.Key)) {
		return
	}
	if leaked {
		b.hits++
	} else {
		b.falses++
	}
	r.Value = 1
	out.emit(r)
}

func (b *breachCheck) snapshot() any { c := *b; return &c }

func (b *breachCheck) restore(state any) {
	c := state.(*breachCheck)
	b.checked, b.hits, b.falses, b.clean = c.checked, c.hits, c.falses, c.clean
}

func (b *breachCheck) stateBytes() int64 { return 32 }

func (b *breachCheck) stats() FilterStats {
	s := FilterStats{Stats: b.f.Stats(), Spec: b.f.Spec().String(), FalseDrops: b.falses, Drops: b.hits + b.falses, Firsts: b.clean,
		ExpectedFalseDrops: float64(b.clean) * b.f.RateNow()}
	s.EstimatedFP = filter.TheoreticalFP(s.M, s.K, int64(len(b.list)))
	if b.clean > 0 {
		s.MeasuredFP = float64(b.falses) / float64(b.clean)
	}
	return s
}
