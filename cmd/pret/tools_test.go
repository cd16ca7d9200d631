package main

import (
	"os"
	"os/exec"
	"testing"
)

// needTool returns the path of a real tool a test compares against. In CI
// a missing tool fails the test instead of skipping it.
func needTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI (.ci/test installs it): %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}
