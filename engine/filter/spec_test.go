package filter_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
	"pgregory.net/rapid"
)

// parseLine splits `bloom n=10000 p=0.01` the way the lab script does:
// positional words, and name=value params.
func parseLine(line string) ([]string, map[string]string) {
	var words []string
	params := map[string]string{}
	for _, f := range strings.Fields(line) {
		if name, value, ok := strings.Cut(f, "="); ok {
			params[name] = value
		} else {
			words = append(words, f)
		}
	}
	return words, params
}

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		line string
		want filter.Spec
	}{
		{"none", filter.Spec{Kind: filter.KindNone}},
		{"exact", filter.Spec{Kind: filter.KindExact}},
		{"bloom n=10000 p=0.01", bloomNP(10_000, 0.01)},
		{"bloom p=0.05 n=100", bloomNP(100, 0.05)},
		{"bloom m=512 k=3", bloomMK(512, 3)},
		{"bloom m=1 k=64", bloomMK(1, 64)},
		{"bloom n=1 p=1e-05", bloomNP(1, 1e-5)},
	} {
		words, params := parseLine(c.line)
		got, err := filter.ParseSpec(words, params)
		if err != nil || got != c.want {
			t.Errorf("ParseSpec(%q) = %#v, %v; want %#v", c.line, got, err, c.want)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // in the message
	}{
		{"", "missing kind; expected none, exact, bloom n=N p=P, bloom m=M k=K or rotating n=N p=P"},
		{"blom", `unknown kind "blom"; expected none, exact`},
		{"bloom exact", `unexpected "exact" after "bloom"`},
		{"exact n=10", "exact takes no parameters, got n=10"},
		{"none m=1 k=1", "none takes no parameters, got k=1 m=1"},
		{"bloom", "bloom needs its size; expected n=N p=P"},
		{"bloom n=100", "p missing; expected n=N p=P"},
		{"bloom p=0.1", "n missing; expected n=N p=P"},
		{"bloom m=100", "k missing; expected m=M k=K"},
		{"bloom k=3", "m missing; expected m=M k=K"},
		{"bloom n=100 p=0.01 m=5", "mixes the two forms"},
		{"bloom n=100 k=3", "mixes the two forms"},
		{"bloom n=100 p=0.01 q=2", "unknown parameter q=2"},
		{"bloom n=0 p=0.01", "n=0; expected a whole number n > 0"},
		{"bloom n=-5 p=0.01", "n=-5; expected a whole number n > 0"},
		{"bloom n=1e4 p=0.01", "n=1e4; expected a whole number n > 0"},
		{"bloom n=100 p=0", "p=0; expected a false-positive rate 0 < p < 1"},
		{"bloom n=100 p=1", "p=1; expected a false-positive rate 0 < p < 1"},
		{"bloom n=100 p=1%", "p=1%; expected"},
		{"bloom n=100 p=NaN", "p=NaN; expected"},
		{"bloom n=100 p=-0.5", "p=-0.5; expected"},
		{"bloom m=0 k=3", "m=0; expected a whole number 0 < m ≤ 1073741824"},
		{"bloom m=64 k=0", "k=0; expected a whole number 1 ≤ k ≤ 64"},
		{"bloom m=64 k=65", "k=65; expected a whole number 1 ≤ k ≤ 64"},
		{"bloom m=2000000000 k=3", "m=2000000000; expected a whole number 0 < m ≤ 1073741824"},
		{"bloom n=1000000000 p=0.01", "needs m=9585058378 bits; expected at most 1073741824"},
		{"bloom n=10 p=1e-30", "needs k=100 hash functions; expected k ≤ 64"},
	} {
		words, params := parseLine(c.line)
		_, err := filter.ParseSpec(words, params)
		if !errors.Is(err, filter.ErrSpec) {
			t.Errorf("ParseSpec(%q) err = %v, want ErrSpec", c.line, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "filter: ") {
			t.Errorf("ParseSpec(%q) err = %q, want it to contain %q", c.line, err, c.want)
		}
	}
}

func TestSpecString(t *testing.T) {
	for _, c := range []struct {
		spec filter.Spec
		want string
	}{
		{filter.Spec{}, "none"},
		{filter.Spec{Kind: filter.KindNone}, "none"},
		{exactSpec, "exact"},
		{bloomNP(10_000, 0.01), "bloom n=10000 p=0.01"},
		{bloomNP(1, 1e-5), "bloom n=1 p=1e-05"},
		{bloomMK(512, 3), "bloom m=512 k=3"},
	} {
		if got := c.spec.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.spec, got, c.want)
		}
	}
}

// TestSpecStringRoundTrip: whatever valid spec the lab holds, writing it
// out and reading it back gives the same spec.
func TestSpecStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s filter.Spec
		switch rapid.IntRange(0, 3).Draw(t, "form") {
		case 0:
			s.Kind = filter.KindNone
		case 1:
			s.Kind = filter.KindExact
		case 2:
			s = bloomNP(rapid.UintRange(1, 10_000_000).Draw(t, "n"),
				rapid.Float64Range(1e-6, 0.999).Draw(t, "p"))
		case 3:
			s = bloomMK(rapid.UintRange(1, filter.MaxBits).Draw(t, "m"), rapid.UintRange(1, filter.MaxK).Draw(t, "k"))
		}
		if err := s.Validate(); err != nil {
			t.Skip(err) // e.g. n and p needing more than MaxBits
		}
		words, params := parseLine(s.String())
		got, err := filter.ParseSpec(words, params)
		if err != nil || got != s {
			t.Fatalf("ParseSpec(%q) = %#v, %v; want %#v", s.String(), got, err, s)
		}
	})
}

func TestValidate(t *testing.T) {
	for _, s := range []filter.Spec{
		{Kind: "bitmap"},
		{Kind: filter.KindExact, M: 3},
		{Kind: filter.KindBloom},
		{Kind: filter.KindBloom, N: 10, P: 0.01, K: 3},
		{Kind: filter.KindBloom, P: 0.01},
		{Kind: filter.KindBloom, N: 10, P: 1.5},
		{Kind: filter.KindBloom, M: 10},
	} {
		if err := s.Validate(); !errors.Is(err, filter.ErrSpec) {
			t.Errorf("%#v.Validate() = %v, want ErrSpec", s, err)
		}
		if f, err := filter.New(s); f != nil || err == nil {
			t.Errorf("New(%#v) = %v, %v; want an error", s, f, err)
		}
	}
}

// FuzzParseSpec: no line makes ParseSpec panic, and what it accepts prints
// back to a line it reads the same way.
func FuzzParseSpec(f *testing.F) {
	for _, line := range []string{"exact", "none", "bloom n=10000 p=0.01", "bloom m=512 k=3",
		"bloom n=10 p=1e-30", "bloom m=99999999999999999999 k=3", "bloom n=1 p=0.999999"} {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, params := parseLine(line)
		s, err := filter.ParseSpec(words, params)
		if err != nil {
			if !errors.Is(err, filter.ErrSpec) {
				t.Fatalf("ParseSpec(%q): %v is not ErrSpec", line, err)
			}
			return
		}
		w2, p2 := parseLine(s.String())
		if s2, err := filter.ParseSpec(w2, p2); err != nil || s2 != s {
			t.Fatalf("ParseSpec(%q) = %v; reparsed %#v, %v", line, s, s2, err)
		}
	})
}
