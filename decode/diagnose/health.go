package diagnose

import "fmt"

// Health is the ring's state in one word.
type Health uint8

// The health values, in the order the page's strip colours them.
const (
	// Idle: nothing queued and nothing completed in the interval.
	Idle Health = iota
	// Progressing: work completes and no cause is active.
	Progressing
	// Degraded: work completes (or has not yet stopped for the watchdog's
	// intervals) but a cause is active.
	Degraded
	// Stalled: work is queued and none completed for the watchdog's
	// intervals.
	Stalled
	// Lost: the device is lost and not yet recovered.
	Lost
	healthCount
)

var healthNames = [healthCount]string{"idle", "progressing", "degraded", "stalled", "lost"}

// String is the health's name in the JS API ("stalled").
func (h Health) String() string {
	if h < healthCount {
		return healthNames[h]
	}
	return fmt.Sprintf("health(%d)", uint8(h))
}

// MarshalText writes the name, so JSON and the JS API carry the word.
func (h Health) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// Healths lists every health value, in order (metrics' StateSet).
func Healths() []Health { return []Health{Idle, Progressing, Degraded, Stalled, Lost} }

// ParseHealth is String's inverse.
func ParseHealth(s string) (Health, bool) {
	for h, name := range healthNames {
		if name == s {
			return Health(h), true
		}
	}
	return 0, false
}
