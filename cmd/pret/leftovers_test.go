//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCleRemovesLeftovers: the temporary copies of a key that a killed
// `pret cle` left (Stage's names beside the key and its .pub) are
// reported by pret verifier, then removed by the next pret cle, which
// says so; a file named like them but a link, a folder or another
// pattern is never touched, nor what the link points to.
func TestCleRemovesLeftovers(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	ssh := h.path(".ssh")
	os.Mkdir(ssh, 0o700)
	ours := []string{".id_ed25519_romeo.tmp-1234567", ".id_ed25519_romeo.pub.tmp-42"}
	for _, n := range ours {
		os.WriteFile(filepath.Join(ssh, n), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn"), 0o600)
	}
	outside := h.path("ailleurs")
	os.WriteFile(outside, []byte("à garder\n"), 0o600)
	os.Symlink(outside, filepath.Join(ssh, ".id_ed25519_romeo.tmp-999"))
	os.Mkdir(filepath.Join(ssh, ".id_ed25519_romeo.tmp-777"), 0o700)
	for _, n := range []string{".id_ed25519_romeo.tmp-abc", ".notes.tmp-1", "id_ed25519_romeo.tmp-5"} {
		os.WriteFile(filepath.Join(ssh, n), []byte("à moi\n"), 0o600)
	}
	others := []string{".id_ed25519_romeo.tmp-999", ".id_ed25519_romeo.tmp-777", ".id_ed25519_romeo.tmp-abc", ".notes.tmp-1", "id_ed25519_romeo.tmp-5"}

	v := h.pret("", "verifier")
	line := regexp.MustCompile(`(?m)^ATTENTION  key-leftovers +2 fichiers laissés par un pret interrompu.*$`).FindString(v.stdout)
	if v.code != 1 || line == "" || !strings.Contains(v.stdout, "« pret cle » les retire") {
		t.Fatalf("pret verifier: exit %d\n%s", v.code, v.stdout)
	}
	for _, n := range others {
		if strings.Contains(line, n+",") || strings.HasSuffix(line, n) {
			t.Errorf("pret verifier counts %s", n)
		}
	}
	c := h.must(0, secretPass+"\n", "cle", "--passphrase-file", "-")
	for _, n := range ours {
		if !strings.Contains(c.stdout, "Fichier temporaire laissé par un pret interrompu, retiré : "+filepath.Join(ssh, n)+"\n") {
			t.Errorf("pret cle does not say it removed %s:\n%s", n, c.stdout)
		}
		if _, err := os.Lstat(filepath.Join(ssh, n)); err == nil {
			t.Errorf("%s still there", n)
		}
	}
	for _, n := range others {
		if _, err := os.Lstat(filepath.Join(ssh, n)); err != nil || strings.Contains(c.stdout, n) {
			t.Errorf("%s touched or named", n)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "à garder\n" {
		t.Error("the link's target changed")
	}
	// The key exists now: a later leftover is removed too, the key kept.
	os.WriteFile(filepath.Join(ssh, ours[0]), []byte("-----BEGIN"), 0o600)
	key, _ := os.ReadFile(filepath.Join(ssh, "id_ed25519_romeo"))
	if c := h.pret("", "cle"); c.code != 0 || !strings.Contains(c.stdout, "retiré : "+filepath.Join(ssh, ours[0])) {
		t.Fatalf("pret cle, key kept: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(ssh, "id_ed25519_romeo")); string(now) != string(key) {
		t.Fatal("the key changed")
	}
	if v := h.pret("", "verifier"); !regexp.MustCompile(`(?m)^OK         key-leftovers `).MatchString(v.stdout) {
		t.Fatalf("pret verifier after:\n%s", v.stdout)
	}
}
