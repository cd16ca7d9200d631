//go:build !race

package acces

const raceEnabled = false
