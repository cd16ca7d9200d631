package submissions

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

func TestZZMem(t *testing.T) {
	z := os.Getenv("ZZ_ZIP")
	if z == "" {
		t.Skip()
	}
	rules := testRules
	rules.KeyName = "id_ed25519_romeo.pub"
	run := Read([]string{z}, Options{Rules: rules})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("len %d heapalloc %d KiB = %d B/row", run.Len(), ms.HeapAlloc>>10, ms.HeapAlloc/uint64(run.Len()))
	f, _ := os.Create("/tmp/walkdata/heap.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	runtime.KeepAlive(run)
}
