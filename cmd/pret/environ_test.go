package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// environ puts pret in home: HOME, every XDG base folder inside it (so no
// test reads or writes the real user's), and the fixed date. It holds no
// PATH and no terminal settings: each test adds what it means to test.
func environ(home string) []string {
	env := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"PRET_AUJOURDHUI=" + testenv.Today,
	}
	// The private test Slurm of .ci/slurm, never the machine's own.
	if conf := os.Getenv("SLURM_CONF"); conf != "" {
		env = append(env, "SLURM_CONF="+conf)
	}
	return env
}

// setenv applies environ(home) one variable at a time (testscript's
// Env.Setenv, testing.T.Setenv).
func setenv(set func(name, value string), home string) {
	for _, kv := range environ(home) {
		name, value, _ := strings.Cut(kv, "=")
		set(name, value)
	}
}

// TestEnvironStaysInHome: every folder variable points inside home, so no
// test can touch the real user's files.
func TestEnvironStaysInHome(t *testing.T) {
	home := t.TempDir()
	seen := map[string]string{}
	setenv(func(k, v string) { seen[k] = v }, home)
	for _, name := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		v, ok := seen[name]
		if !ok {
			t.Errorf("%s not set", name)
			continue
		}
		if rel, err := filepath.Rel(home, v); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s=%s is outside %s", name, v, home)
		}
	}
	if seen["PRET_AUJOURDHUI"] != testenv.Today {
		t.Errorf("PRET_AUJOURDHUI=%q, want %s", seen["PRET_AUJOURDHUI"], testenv.Today)
	}
}
