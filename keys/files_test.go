package keys

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestMain lets the test binary play a second pret process that holds
// the key folder's lock (TestLockDirTwoProcesses).
func TestMain(m *testing.M) {
	if dir := os.Getenv("PRET_TEST_HOLD_LOCK"); dir != "" {
		os.Exit(holdLock(dir))
	}
	os.Exit(m.Run())
}

// holdLock takes the folder lock, says so on stdout, and keeps it until
// stdin closes.
func holdLock(dir string) int {
	unlock, err := disk.LockDir(dir)
	if err != nil {
		fmt.Println("erreur", err)
		return 1
	}
	fmt.Println("verrouillé")
	bufio.NewReader(os.Stdin).ReadString('\n')
	unlock()
	return 0
}

// TestLockDirTwoProcesses: while another process holds the key folder's
// lock (flock on Unix, LockFileEx on Windows), lockDir waits; it gets the
// lock once the other lets go.
func TestLockDirTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PRET_TEST_HOLD_LOCK="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "verrouillé\n" {
		stdin.Close()
		t.Fatalf("the other process did not take the lock: %q", line)
	}
	var mu sync.Mutex
	released := false
	got := make(chan bool, 1)
	go func() {
		unlock, err := disk.LockDir(dir)
		if err != nil {
			t.Error(err)
			got <- false
			return
		}
		mu.Lock()
		got <- released
		mu.Unlock()
		unlock()
	}()
	// Long enough for a lock that does not exclude to be taken at once.
	select {
	case <-got:
		t.Fatal("lock taken while the other process held it")
	case <-time.After(500 * time.Millisecond):
	}
	mu.Lock()
	released = true
	mu.Unlock()
	stdin.Close()
	if ok := <-got; !ok {
		t.Fatal("lock not taken after the other process let go")
	}
}

// TestWriteNewRace: many writers, one name; exactly one wins, every
// other gets ErrExists and never replaces the file, which holds the
// winner's bytes whole.
func TestWriteNewRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "id")
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = WriteNew(disk, path, []byte(fmt.Sprintf("auteur %02d\n", i)), 0o600)
		}()
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("writers %d and %d both succeeded", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, ErrExists):
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no writer succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != fmt.Sprintf("auteur %02d\n", winner) {
		t.Fatalf("file holds %q, writer %d won", b, winner)
	}
	assertNoTemp(t, filepath.Dir(path))
}
