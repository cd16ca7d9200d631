//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/testenv"
)

// TestBashCompletion sources `pret completion bash` in a real bash and
// completes as the shell does at Tab: `pret val` gives valider, and
// `pret verifier --for` gives --format.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	bash := testenv.NeedTool(t, "bash")
	// cobra's script builds on the bash-completion package, as every
	// distribution's interactive bash does.
	const library = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(library); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("bash-completion is required in CI (.ci/test installs it): %v", err)
		}
		t.Skip("bash-completion not installed")
	}
	h := newHome(t)
	script := h.must(0, "", "completion", "bash")
	os.WriteFile(h.path("pret.bash"), []byte(script.stdout), 0o644)
	// compType is bash's COMP_TYPE: 9 is a first Tab, 63 the listing of
	// a second Tab, where the descriptions show.
	compType := "9"
	complete := func(line string) []string {
		t.Helper()
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := `source ` + library + `
source ./pret.bash
complete -p pret || exit 3
COMP_WORDS=(` + strings.Join(quoted, " ") + `)
COMP_CWORD=` + itoa(len(words)-1) + `
COMP_LINE='` + line + `'
COMP_POINT=${#COMP_LINE}
COMP_TYPE=` + compType + `
COLUMNS=120
__start_pret
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
		cmd.Dir = h.dir
		// The script asks `pret __complete …`: pret must be on PATH.
		cmd.Env = append(h.env, "PATH="+filepath.Dir(binary(t))+":"+os.Getenv("PATH"))
		// compopt complains on stderr outside a real Tab press; the
		// answers are on stdout.
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v\n%s%s", err, out, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if !strings.HasPrefix(lines[0], "complete ") || !strings.Contains(lines[0], "__start_pret") {
			t.Fatalf("complete -p: %q", lines[0])
		}
		return lines[1:]
	}
	if got := complete("pret val"); len(got) != 1 || strings.TrimSpace(got[0]) != "valider" {
		t.Fatalf("pret val<Tab>: %q", got)
	}
	if got := complete("pret verifier --for"); len(got) != 1 || strings.TrimSpace(got[0]) != "--format" {
		t.Fatalf("pret verifier --for<Tab>: %q", got)
	}
	// Several answers: bash lists them with their French description.
	compType = "63"
	got := strings.Join(complete("pret v"), "\n")
	for _, want := range []string{"valider", "verifier", "version", "Organisateurs : valider des fichiers acces.md"} {
		if !strings.Contains(got, want) {
			t.Fatalf("pret v<Tab>: no %q in\n%s", want, got)
		}
	}
}

// TestManPages writes the manual pages in a temporary folder with the
// built binary and has man-db read each one: one page per command, French
// section titles, each command's description.
func TestManPages(t *testing.T) {
	notShort(t)
	man := testenv.NeedTool(t, "man")
	h := newHome(t)
	dir := t.TempDir()
	h.must(0, "", "man", dir)
	_, all := pretCommands(t)
	want := map[string]*cobra.Command{}
	for _, c := range all {
		shown := true // a page for it and each parent
		for p := c; p.HasParent(); p = p.Parent() {
			shown = shown && p.IsAvailableCommand()
		}
		if shown {
			want[strings.ReplaceAll(c.CommandPath(), " ", "-")+".1"] = c
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(want) {
		t.Errorf("%d pages for %d commands", len(entries), len(want))
	}
	for name, c := range want {
		cmd := exec.Command(man, "-l", filepath.Join(dir, name))
		cmd.Env = append(os.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100", "LANG=C.UTF-8")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("man -l %s: %v", name, err)
		}
		page := string(out)
		flat := strings.Join(strings.Fields(page), " ")
		for _, s := range []string{"NOM", "SYNOPSIS", "DESCRIPTION", strings.Join(strings.Fields(c.Short), " ")} {
			if !strings.Contains(flat, s) {
				t.Errorf("%s: no %q in what man shows:\n%s", name, s, page)
			}
		}
		for _, english := range []string{"NAME", "SEE ALSO", "EXAMPLE\n", "INHERITED", "Auto generated"} {
			if strings.Contains(page, english) {
				t.Errorf("%s: English %q in what man shows", name, english)
			}
		}
	}
}

// TestFishAndZshCompletion: fish completes from `pret completion fish`
// with the French descriptions, without the help's markup; zsh loads
// `pret completion zsh` and registers it for pret.
func TestFishAndZshCompletion(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	path := "PATH=" + filepath.Dir(binary(t)) + ":" + os.Getenv("PATH")
	t.Run("fish", func(t *testing.T) {
		fish := testenv.NeedTool(t, "fish")
		script := h.pret("", "completion", "fish")
		os.WriteFile(h.path("pret.fish"), []byte(script.stdout), 0o644)
		cmd := exec.Command(fish, "--no-config", "-c", `source ./pret.fish; complete -C "pret val"; complete -C "pret verifier --for"`)
		cmd.Dir, cmd.Env = h.dir, append(h.env, path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		want := "valider\tOrganisateurs : valider des fichiers acces.md\n--format\tFORMAT de sortie : texte, json ou junit\n"
		if string(out) != want {
			t.Fatalf("fish completions:\n%q\nwant\n%q", out, want)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		zsh := testenv.NeedTool(t, "zsh")
		script := h.pret("", "completion", "zsh")
		os.WriteFile(h.path("_pret"), []byte(script.stdout), 0o644)
		if out, err := exec.Command(zsh, "-n", h.path("_pret")).CombinedOutput(); err != nil {
			t.Fatalf("zsh -n: %v\n%s", err, out)
		}
		cmd := exec.Command(zsh, "-f", "-c", `autoload -U compinit && compinit -u -d ./zcompdump && source ./_pret && print -r -- ${_comps[pret]}`)
		cmd.Dir, cmd.Env = h.dir, append(h.env, path)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "_pret" {
			t.Fatalf("zsh: %v\n%s", err, out)
		}
	})
}
