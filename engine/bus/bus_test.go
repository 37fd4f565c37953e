package bus

import "testing"

// A subscriber that falls behind keeps the newest events, in order, and is
// told how many it missed.
func TestSlowSubscriberKeepsTheNewest(t *testing.T) {
	b := &Bus{}
	s := b.Subscribe(3)
	for i := range int64(1000) {
		b.Publish(Event{N: i})
		if i == 500 {
			if evs, missed := s.Drain(); len(evs) != 3 || evs[0].N != 498 || evs[2].N != 500 || missed != 498 {
				t.Fatalf("at 500: %v, missed %d", evs, missed)
			}
		}
	}
	evs, missed := s.Drain()
	if len(evs) != 3 || evs[0].N != 997 || evs[1].N != 998 || evs[2].N != 999 || missed != 496 {
		t.Fatalf("got %v, missed %d; want 997–999 and 496 missed", evs, missed)
	}
	if evs[2].Seq != 1000 {
		t.Fatalf("seq %d, want 1000", evs[2].Seq)
	}
}
