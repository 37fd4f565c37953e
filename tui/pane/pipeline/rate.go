package pipeline

// rateWindow is how much virtual time a node's rate is averaged over.
const rateWindow = 3000 // ms

type sample struct{ t, n int64 }

// rate keeps a node's recent (virtual time, records in) samples and
// averages over them. Virtual time, not wall time: at ×4 a node that keeps
// up with a 100/s source still shows 100/s, which is the rate the job's
// spec talks about, and tests see the same numbers on every machine.
type rate struct{ s []sample }

func (r *rate) add(t, n int64) {
	if k := len(r.s); k > 0 && t <= r.s[k-1].t {
		r.s[k-1].n = n
		return
	}
	r.s = append(r.s, sample{t, n})
	drop := 0
	for drop < len(r.s)-2 && r.s[drop+1].t <= t-rateWindow {
		drop++
	}
	r.s = r.s[drop:]
}

// perSecond is the average rate over the window; 0 until there are two
// samples.
func (r *rate) perSecond() float64 {
	if len(r.s) < 2 {
		return 0
	}
	a, b := r.s[0], r.s[len(r.s)-1]
	if b.t <= a.t {
		return 0
	}
	return float64(b.n-a.n) * 1000 / float64(b.t-a.t)
}
