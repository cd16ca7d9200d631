package submissions

import (
	"testing"
	"time"
)

// TestPackDate: every real day packs to AAAAMMJJ, in the order of the
// days, and comes back as it was stated; anything that is not the
// AAAA-MM-JJ of acces.Result.Date packs to 0, never to a day.
func TestPackDate(t *testing.T) {
	prev := int32(0)
	for d := time.Date(999, 9, 9, 0, 0, 0, 0, time.UTC); d.Year() < 2102; d = d.AddDate(0, 0, 3) {
		s := d.Format("2006-01-02")
		got := packDate(s)
		want := int32(d.Year()*10000 + int(d.Month())*100 + d.Day())
		if got != want || got <= prev || unpackDate(got) != s {
			t.Fatalf("packDate(%s) = %d (%s), want %d after %d", s, got, unpackDate(got), want, prev)
		}
		prev = got
	}
	for _, s := range []string{"", "2026-1-5", "2026-10-2", "20/10/2026", "2026-10-20 ", "2026_10_20", "2026-10-2x", "20261020", "٢٠٢٦-10-20", "2026/10/16", "12026-10-16"} {
		if got := packDate(s); got != 0 {
			t.Errorf("packDate(%q) = %d, want 0", s, got)
		}
	}
}
