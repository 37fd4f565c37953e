package draw

import (
	"math"
	"strconv"
	"strings"
)

// Count writes n compactly: 999, 1.2k, 12k, 1.2M.
func Count(n int64) string {
	switch a := max(n, -n); {
	case a < 1000:
		return strconv.FormatInt(n, 10)
	case a < 10_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case a < 1_000_000:
		return strconv.FormatInt(n/1000, 10) + "k"
	case a < 10_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	default:
		return strconv.FormatInt(n/1_000_000, 10) + "M"
	}
}

// Rate writes a per-second rate: 0/s, 98/s, 1.2k/s.
func Rate(r float64) string {
	return Count(int64(r+0.5)) + "/s"
}

// Clock writes virtual milliseconds as m:ss.t (or h:mm:ss past an hour).
func Clock(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	s := ms / 1000
	if s >= 3600 {
		return strconv.FormatInt(s/3600, 10) + ":" + two(s/60%60) + ":" + two(s%60)
	}
	return strconv.FormatInt(s/60, 10) + ":" + two(s%60) + "." + strconv.FormatInt(ms/100%10, 10)
}

func two(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// Bar draws fill of total as a w-cell bar of ▰ and ▱.
func Bar(fill, total, w int) string {
	if w <= 0 {
		return ""
	}
	n := 0
	if total > 0 && fill > 0 {
		n = max(1, min(w, (fill*w+total-1)/total))
	}
	return strings.Repeat("▰", n) + strings.Repeat("▱", w-n)
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws the last w values scaled from zero (or their minimum,
// when negative) to their maximum, so a count that stays above zero shows
// as a bar, and an all-zero series sits on the floor.
func Sparkline(vals []int64, w int) string {
	if w <= 0 {
		return ""
	}
	if len(vals) > w {
		vals = vals[len(vals)-w:]
	}
	if len(vals) == 0 {
		return strings.Repeat(" ", w)
	}
	lo, hi := min(vals[0], 0), vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	var b strings.Builder
	b.Grow(w * 3)
	for range w - len(vals) {
		b.WriteByte(' ')
	}
	for _, v := range vals {
		i := 0
		if hi > lo {
			i = int((v - lo) * int64(len(sparks)-1) / (hi - lo))
		}
		b.WriteRune(sparks[i])
	}
	return b.String()
}

// Bytes writes a size compactly: 200 B, 1.2 kB, 12 kB, 1.2 MB.
func Bytes(n int64) string {
	c := Count(n)
	if last := c[len(c)-1]; last == 'k' || last == 'M' {
		return c[:len(c)-1] + " " + string(last) + "B"
	}
	return c + " B"
}

// Percent writes a rate in [0, 1] as a percentage with three significant
// digits (61.6%, 1.00%, 0.100%), so that rates a thousand times apart
// still read apart: a Bloom filter's false-positive rate spans that.
func Percent(p float64) string {
	switch x := p * 100; {
	case math.IsNaN(x) || x <= 0:
		return "0%"
	case x >= 99.95:
		return "100%"
	case x < 0.0001:
		return "<0.0001%"
	default:
		decimals := min(max(2-int(math.Floor(math.Log10(x))), 0), 4)
		return strconv.FormatFloat(x, 'f', decimals, 64) + "%"
	}
}
