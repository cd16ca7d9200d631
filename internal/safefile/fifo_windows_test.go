//go:build windows

package safefile

import "testing"

func mkfifo(t *testing.T) string { t.Fatal("pas de FIFO sous Windows"); return "" }
