package filter

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bits-and-blooms/bloom/v3"
)

// Spec says which filter to build. The lab script writes it as
//
//	none
//	exact
//	bloom n=10000 p=0.01   sized by the library for n ids at rate p
//	bloom m=512 k=3        exactly m bits and k hash functions
//	rotating n=1000 p=0.01 two Bloom filters of n ids each, the older
//	                       dropped when the newer is full
//
// The zero Spec means none.
type Spec struct {
	Kind string  // KindNone, KindExact, KindBloom or KindRotating
	N    uint    // bloom by estimate, rotating: expected ids (a generation's), > 0
	P    float64 // bloom by estimate, rotating: wanted false-positive rate, 0 < P < 1
	M, K uint    // bloom by size: bits (> 0) and hash functions (1…64)
}

// Limits on a Bloom filter's size. MaxBits keeps a typo in a lab script
// (m=1e12) from allocating the machine's memory; MaxK is the most hash
// functions that make sense (k = 64 already gives p ≈ 2^-64 at best).
const (
	MaxBits = 1 << 30 // 128 MiB of bits
	MaxK    = 64
)

// ErrSpec is matched (errors.Is) by every error of ParseSpec, Validate and
// New: the spec is malformed. The message says what was expected.
var ErrSpec = errors.New("filter: bad spec")

type specError string

func (e specError) Error() string        { return "filter: " + string(e) }
func (e specError) Is(target error) bool { return target == ErrSpec }

func specErrorf(format string, args ...any) error {
	return specError(fmt.Sprintf(format, args...))
}

const expectedForms = "expected none, exact, bloom n=N p=P, bloom m=M k=K or rotating n=N p=P"

// ParseSpec reads a spec in the lab script form: words are the positional
// words after `set filter` (exactly one, the kind), params the name=value
// ones. For example ParseSpec([]string{"bloom"}, map[string]string{"n":
// "10000", "p": "0.01"}). The errors name the offending word and say what
// was expected: n > 0, 0 < p < 1, m > 0, 1 ≤ k ≤ 64, and n with p or m with
// k, never a mix.
func ParseSpec(words []string, params map[string]string) (Spec, error) {
	switch len(words) {
	case 0:
		return Spec{}, specErrorf("missing kind; %s", expectedForms)
	case 1:
	default:
		return Spec{}, specErrorf("unexpected %q after %q; %s", words[1], words[0], expectedForms)
	}
	kind := words[0]
	switch kind {
	case KindNone, KindExact:
		if len(params) > 0 {
			return Spec{}, specErrorf("%s takes no parameters, got %s; %s", kind, joinParams(params), expectedForms)
		}
		return Spec{Kind: kind}, nil
	case KindBloom:
	case KindRotating:
		return parseRotating(params)
	default:
		return Spec{}, specErrorf("unknown kind %q; %s", kind, expectedForms)
	}

	for _, name := range sortedNames(params) {
		if name != "n" && name != "p" && name != "m" && name != "k" {
			return Spec{}, specErrorf("bloom: unknown parameter %s=%s; expected n=N p=P or m=M k=K", name, params[name])
		}
	}
	_, hasN := params["n"]
	_, hasP := params["p"]
	_, hasM := params["m"]
	_, hasK := params["k"]
	s := Spec{Kind: KindBloom}
	var err error
	switch {
	case (hasN || hasP) && (hasM || hasK):
		return Spec{}, specErrorf("bloom: %s mixes the two forms; expected n=N p=P (sized for n ids at rate p) or m=M k=K (m bits, k hashes), not both", joinParams(params))
	case hasN || hasP:
		if !hasN || !hasP {
			missing := "n"
			if !hasP {
				missing = "p"
			}
			return Spec{}, specErrorf("bloom: %s missing; expected n=N p=P, e.g. bloom n=10000 p=0.01", missing)
		}
		if s.N, err = parseCount("n", params["n"]); err != nil {
			return Spec{}, err
		}
		if s.P, err = parseRate(params["p"]); err != nil {
			return Spec{}, err
		}
	case hasM || hasK:
		if !hasM || !hasK {
			missing := "m"
			if !hasK {
				missing = "k"
			}
			return Spec{}, specErrorf("bloom: %s missing; expected m=M k=K, e.g. bloom m=512 k=3", missing)
		}
		if s.M, err = parseCount("m", params["m"]); err != nil {
			return Spec{}, err
		}
		if s.K, err = parseCount("k", params["k"]); err != nil {
			return Spec{}, err
		}
	default:
		return Spec{}, specErrorf("bloom needs its size; expected n=N p=P, e.g. bloom n=10000 p=0.01, or m=M k=K, e.g. bloom m=512 k=3")
	}
	return s, s.Validate()
}

// parseRotating reads `rotating n=N p=P`.
func parseRotating(params map[string]string) (Spec, error) {
	for _, name := range sortedNames(params) {
		if name != "n" && name != "p" {
			return Spec{}, specErrorf("rotating: unknown parameter %s=%s; expected n=N p=P, e.g. rotating n=1000 p=0.01", name, params[name])
		}
	}
	for _, name := range []string{"n", "p"} {
		if _, ok := params[name]; !ok {
			return Spec{}, specErrorf("rotating: %s missing; expected n=N p=P, e.g. rotating n=1000 p=0.01", name)
		}
	}
	s := Spec{Kind: KindRotating}
	var err error
	if s.N, err = parseCount("n", params["n"]); err != nil {
		return Spec{}, err
	}
	if s.P, err = parseRate(params["p"]); err != nil {
		return Spec{}, err
	}
	return s, s.Validate()
}

// parseCount reads n, m or k as a whole number in its range.
func parseCount(name, v string) (uint, error) {
	limit, want := uint64(math.MaxUint), "n > 0"
	switch name {
	case "m":
		limit, want = MaxBits, fmt.Sprintf("0 < m ≤ %d", MaxBits)
	case "k":
		limit, want = MaxK, fmt.Sprintf("1 ≤ k ≤ %d", MaxK)
	}
	u, err := strconv.ParseUint(v, 10, 64)
	if err != nil || u == 0 || u > limit {
		return 0, specErrorf("bloom: %s=%s; expected a whole number %s", name, v, want)
	}
	return uint(u), nil
}

func parseRate(v string) (float64, error) {
	p, err := strconv.ParseFloat(v, 64)
	if err != nil || !(p > 0 && p < 1) {
		return 0, specErrorf("bloom: p=%s; expected a false-positive rate 0 < p < 1, e.g. p=0.01", v)
	}
	return p, nil
}

func sortedNames(params map[string]string) []string {
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func joinParams(params map[string]string) string {
	var b strings.Builder
	for i, name := range sortedNames(params) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(name + "=" + params[name])
	}
	return b.String()
}

// Validate reports whether New can build the spec: a known kind, no
// parameters for none and exact, and for bloom either N and P or M and K in
// range, with the estimated size within MaxBits and MaxK.
func (s Spec) Validate() error {
	switch s.Kind {
	case "", KindNone, KindExact:
		if s.N != 0 || s.P != 0 || s.M != 0 || s.K != 0 {
			return specErrorf("%s takes no parameters, got %s", s.kindName(), s.paramString())
		}
		return nil
	case KindRotating:
		if s.M != 0 || s.K != 0 || s.N == 0 {
			return specErrorf("rotating: %s; expected n=N p=P, e.g. rotating n=1000 p=0.01", s.paramString())
		}
		// Each generation is a Bloom filter of N ids at rate P, and both
		// count against the limit.
		if err := s.genSpec().Validate(); err != nil {
			return err
		}
		if m, _ := s.genSpec().BloomParams(); uint64(m)*Generations > MaxBits {
			return specErrorf("rotating: %d generations of m=%d bits; expected at most %d bits in all", Generations, m, MaxBits)
		}
		return nil
	case KindBloom:
	default:
		return specErrorf("unknown kind %q; %s", s.Kind, expectedForms)
	}
	byEstimate := s.N != 0 || s.P != 0
	bySize := s.M != 0 || s.K != 0
	switch {
	case byEstimate && bySize:
		return specErrorf("bloom: %s mixes the two forms; expected n=N p=P or m=M k=K, not both", s.paramString())
	case byEstimate:
		if s.N == 0 {
			return specErrorf("bloom: n=0; expected n > 0")
		}
		if !(s.P > 0 && s.P < 1) {
			return specErrorf("bloom: p=%s; expected 0 < p < 1", formatRate(s.P))
		}
		// Check the size in floating point first: the library converts
		// it to uint, which would wrap for absurd n.
		if bits := math.Ceil(-float64(s.N) * math.Log(s.P) / (math.Ln2 * math.Ln2)); bits > MaxBits {
			return specErrorf("bloom: n=%d p=%s needs m=%.0f bits; expected at most %d (%d MiB)",
				s.N, formatRate(s.P), bits, MaxBits, MaxBits/8/1024/1024)
		}
		if _, k := bloom.EstimateParameters(s.N, s.P); k > MaxK {
			return specErrorf("bloom: p=%s needs k=%d hash functions; expected k ≤ %d, so p ≥ 2^-64 ≈ 5.4e-20", formatRate(s.P), k, MaxK)
		}
	case bySize:
		if s.M == 0 || s.M > MaxBits {
			return specErrorf("bloom: m=%d; expected 0 < m ≤ %d bits", s.M, MaxBits)
		}
		if s.K == 0 || s.K > MaxK {
			return specErrorf("bloom: k=%d; expected 1 ≤ k ≤ %d", s.K, MaxK)
		}
	default:
		return specErrorf("bloom needs its size; expected n=N p=P or m=M k=K")
	}
	return nil
}

// BloomParams returns the bits m and hash functions k a Bloom filter of this
// spec has: M and K as given, or the library's EstimateParameters(N, P),
// which rounds both up (n=10 000, p=0.01 → m=95 851, k=7). It returns 0, 0
// for other kinds.
func (s Spec) BloomParams() (m, k uint) {
	switch {
	case s.Kind == KindRotating:
		return bloom.EstimateParameters(s.N, s.P)
	case s.Kind != KindBloom:
		return 0, 0
	case s.N != 0:
		return bloom.EstimateParameters(s.N, s.P)
	}
	return s.M, s.K
}

// String returns the spec in its canonical lab script form, which ParseSpec
// reads back to the same Spec: "none", "exact", "bloom n=10000 p=0.01",
// "bloom m=512 k=3".
func (s Spec) String() string {
	if s.Kind == KindRotating {
		return "rotating " + s.paramString()
	}
	if s.Kind != KindBloom {
		if p := s.paramString(); p != "" {
			return s.kindName() + " " + p
		}
		return s.kindName()
	}
	return "bloom " + s.paramString()
}

func (s Spec) kindName() string {
	if s.Kind == "" {
		return KindNone
	}
	return s.Kind
}

// paramString writes the nonzero parameters: n and p first, then m and k.
func (s Spec) paramString() string {
	var parts []string
	if s.N != 0 || s.P != 0 {
		parts = append(parts, "n="+strconv.FormatUint(uint64(s.N), 10), "p="+formatRate(s.P))
	}
	if s.M != 0 || s.K != 0 {
		parts = append(parts, "m="+strconv.FormatUint(uint64(s.M), 10), "k="+strconv.FormatUint(uint64(s.K), 10))
	}
	return strings.Join(parts, " ")
}

// formatRate writes p in the shortest form that parses back to the same
// float64: 0.01, 1e-05.
func formatRate(p float64) string {
	return strconv.FormatFloat(p, 'g', -1, 64)
}
