package filter

// CurveBuckets is the most buckets a Curve holds. When the first sightings
// outgrow them, neighbouring buckets are merged in pairs and each bucket
// then stands for twice as many: the memory stays fixed however long the
// job runs, and the buckets always cover every first sighting so far.
const CurveBuckets = 32

// curveFirstSize is the first sightings a bucket stands for at first.
const curveFirstSize = 16

// CurveBucket counts the first sightings of one range of n (the number of
// distinct ids offered to the filter before them): how many there were,
// how many the filter wrongly took for seen, and how many the formula
// predicted, its rate at the n each one met, summed.
type CurveBucket struct {
	Firsts     int64
	FalseDrops int64
	Expected   float64
}

// Rate is the bucket's measured false-positive rate: false drops over
// first sightings, 0 for an empty bucket.
func (b CurveBucket) Rate() float64 { return ratio(float64(b.FalseDrops), float64(b.Firsts)) }

// ExpectedRate is the formula's average rate over the bucket's first
// sightings.
func (b CurveBucket) ExpectedRate() float64 { return ratio(b.Expected, float64(b.Firsts)) }

// Curve records a dedup stage's false positives against the number of
// distinct ids offered, in buckets of first sightings: bucket i holds the
// first sightings that met n in [i·Size, (i+1)·Size). Its rate is the
// measured counterpart of the formula's (1 − e^(−kn/m))^k at that n, the
// same quantity at the same fill — unlike false drops over every first
// sighting since the filter was empty, an average over all fills. It is a
// value: copying it copies the counts, so a checkpoint can keep one.
type Curve struct {
	// Size is the first sightings one bucket stands for (16, 32, 64, …).
	Size int64
	// Buckets are the buckets so far, the last one possibly not full.
	Buckets [CurveBuckets]CurveBucket
	// N is every first sighting recorded: n for the next one.
	N int64
}

// Add records a first sighting that met n = c.N distinct ids before it:
// whether the filter took it for seen, and the rate the formula predicted
// for it.
func (c *Curve) Add(falseDrop bool, expected float64) {
	if c.Size == 0 {
		c.Size = curveFirstSize
	}
	i := c.N / c.Size
	if i >= CurveBuckets {
		c.halve()
		i = c.N / c.Size
	}
	b := &c.Buckets[i]
	b.Firsts++
	b.Expected += expected
	if falseDrop {
		b.FalseDrops++
	}
	c.N++
}

// halve merges the buckets in pairs and doubles their size.
func (c *Curve) halve() {
	for i := range CurveBuckets / 2 {
		a, b := c.Buckets[2*i], c.Buckets[2*i+1]
		c.Buckets[i] = CurveBucket{Firsts: a.Firsts + b.Firsts, FalseDrops: a.FalseDrops + b.FalseDrops, Expected: a.Expected + b.Expected}
	}
	clear(c.Buckets[CurveBuckets/2:])
	c.Size *= 2
}

// Used returns the buckets that hold first sightings, in order of n (a
// copy of them: c is a value).
func (c Curve) Used() []CurveBucket {
	if c.Size == 0 || c.N == 0 {
		return nil
	}
	n := min((c.N+c.Size-1)/c.Size, CurveBuckets)
	return c.Buckets[:n:n]
}
