//go:build !unix

package main

import "testing"

func makeFIFO(t *testing.T, path string) { t.Helper(); t.Skip("pas de FIFO sur ce système") }
