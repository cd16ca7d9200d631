//go:build race

package acces

// raceEnabled: the race detector keeps shadow memory for every
// allocation, so resident memory says nothing about pret's own.
const raceEnabled = true
