package submissions

import "testing"

// TestPlaceSet: a place is new once, whichever way it is known (device
// and inode, or a path where the system gives none), and two places
// differing in any part of their id are two.
func TestPlaceSet(t *testing.T) {
	var s placeSet
	ids := []fileID{
		{dev: 1, ino: 2}, {dev: 2, ino: 1}, {dev: 1, ino: 3}, {dev: 0, ino: 0},
		{path: `C:\rendus`}, {path: `C:\rendus\etu1`}, {dev: 1, ino: 2, path: "x"},
		{dev: 1, ino: 2, entry: 1}, {dev: 1, ino: 2, entry: 2},
	}
	for round := range 2 {
		for _, id := range ids {
			if got := s.add(id); got != (round == 0) {
				t.Fatalf("round %d: add(%+v) = %v", round, id, got)
			}
		}
	}
	if len(s.inodes)+len(s.others) != len(ids) {
		t.Fatalf("%d places kept, want %d", len(s.inodes)+len(s.others), len(ids))
	}
}
