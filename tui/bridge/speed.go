package bridge

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Max is the speed "as fast as the engine goes".
var Max = math.Inf(1)

// Speeds are the playback speeds `+` and `-` step through: virtual seconds
// per wall second.
var Speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, Max}

// IsMax reports whether s is the unbounded speed.
func IsMax(s float64) bool { return math.IsInf(s, 1) }

// SnapSpeed returns the speed level nearest to s (a configured speed of 3
// becomes 4); zero or negative becomes 1.
func SnapSpeed(s float64) float64 {
	if s <= 0 || math.IsNaN(s) {
		return 1
	}
	for _, v := range Speeds {
		if v >= s {
			return v
		}
	}
	return Max
}

// Faster returns the next speed level above s; Slower the one below.
func Faster(s float64) float64 {
	for _, v := range Speeds {
		if v > s {
			return v
		}
	}
	return Max
}

// Slower returns the next speed level below s.
func Slower(s float64) float64 {
	for i := len(Speeds) - 1; i >= 0; i-- {
		if Speeds[i] < s {
			return Speeds[i]
		}
	}
	return Speeds[0]
}

// FormatSpeed renders a speed as the status bar shows it: ×0.25, ×1, ×max.
func FormatSpeed(s float64) string {
	if IsMax(s) {
		return "×max"
	}
	return "×" + strconv.FormatFloat(s, 'f', -1, 64)
}

// maxQuantum is what one tick admits at maximum speed.
const maxQuantum = 60 * time.Second

// quantum is how much virtual time one recorded admission covers at speed
// s. It is one second up to ×1 and grows with the speed above that, so a
// saved session has about one `run` line per wall second, whatever the
// speed: short enough to read, and far below the script's line limit.
func quantum(s float64) time.Duration {
	if IsMax(s) {
		return maxQuantum
	}
	return time.Duration(max(1, math.Round(s))) * time.Second
}

// formatDuration writes d the way a lab script reads it back: whole
// seconds as "5s", anything else in milliseconds.
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%dms", d/time.Millisecond)
}
