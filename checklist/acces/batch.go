package acces

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// IsAccessName reports whether a file name is acces.md or accès.md, in
// any case and either Unicode form.
func IsAccessName(name string) bool { return checklist.Fold(name) == "acces.md" }

// Target is one acces.md to validate, with the .pub found beside it.
type Target struct {
	Path string
	// Pub is the public key file in the same folder ("" when none): the
	// configured name when present, else the first in name order.
	Pub string
}

// walk expands the command line and hands out targets as it finds them:
// folders are walked for acces.md files, files are taken whatever their
// name. Each folder is listed once, which also finds the .pub beside its
// files.
func walk(paths []string, keyName string, emit func(Target)) error {
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return err
		}
		if st.IsDir() {
			walkDir(root, keyName, emit)
			continue
		}
		// A file named on the command line: list its folder for a .pub.
		t := Target{Path: root}
		if entries, err := os.ReadDir(filepath.Dir(root)); err == nil {
			if pub := choosePub(entries, keyName); pub != "" {
				t.Pub = filepath.Join(filepath.Dir(root), pub)
			}
		}
		emit(t)
	}
	return nil
}

func walkDir(dir, keyName string, emit func(Target)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // an unreadable folder deep inside must not hide the rest
	}
	pub := choosePub(entries, keyName)
	if pub != "" {
		pub = filepath.Join(dir, pub)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			walkDir(p, keyName, emit)
		case IsAccessName(e.Name()):
			emit(Target{Path: p, Pub: pub})
		}
	}
}

// choosePub picks the public key file of a folder: the configured name
// when present, else the first in name order.
func choosePub(entries []fs.DirEntry, keyName string) string {
	name := ""
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".pub") && e.Type().IsRegular() {
			if e.Name() == keyName {
				return keyName
			}
			if name == "" {
				name = e.Name()
			}
		}
	}
	return name
}

// FindAccessFiles lists the targets of the command line, sorted by path
// and without duplicates.
func FindAccessFiles(paths []string, keyName string) ([]Target, error) {
	var out []Target
	err := walk(paths, keyName, func(t Target) { out = append(out, t) })
	if err != nil {
		return nil, err
	}
	return dedupe(out), nil
}

func dedupe(ts []Target) []Target {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Path < ts[j].Path })
	out := ts[:0]
	for i, t := range ts {
		if i == 0 || t.Path != ts[i-1].Path {
			out = append(out, t)
		}
	}
	return out
}

// ValidatePaths walks the command line and validates what it finds at the
// same time, then marks the fingerprints two or more files share. Results
// are sorted by path whatever the parallelism.
func ValidatePaths(paths []string, rules Rules, workers int) ([]checklist.FileResult, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		i int
		t Target
	}
	jobs := make(chan job, 64)
	var mu sync.Mutex
	var results []checklist.FileResult
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 8192)
			for j := range jobs {
				var r checklist.FileResult
				r, buf = ValidateFile(j.t, rules, buf)
				mu.Lock()
				results[j.i] = r
				mu.Unlock()
			}
		}()
	}
	seen := map[string]bool{}
	err := walk(paths, rules.KeyName, func(t Target) {
		if seen[t.Path] {
			return
		}
		seen[t.Path] = true
		mu.Lock()
		results = append(results, checklist.FileResult{})
		i := len(results) - 1
		mu.Unlock()
		jobs <- job{i, t}
	})
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Path < results[j].Path })
	markDuplicates(results)
	return results, nil
}

func markDuplicates(results []checklist.FileResult) {
	count := map[string]int{}
	for _, r := range results {
		if r.Fingerprint != "" {
			count[r.Fingerprint]++
		}
	}
	for i := range results {
		if n := count[results[i].Fingerprint]; n > 1 {
			results[i].Problems = append(results[i].Problems, checklist.Problem{
				Code: "duplicate-fingerprint", Severity: checklist.SevError,
				Message: fmt.Sprintf("la même empreinte figure dans %d fichiers : deux personnes ne partagent pas une clé", n),
			})
			results[i].Valid = false
		}
	}
}

// ValidateFile reads one file within the size bound and validates it,
// with the .pub beside it. buf is reused between calls.
func ValidateFile(t Target, rules Rules, buf []byte) (checklist.FileResult, []byte) {
	res := checklist.FileResult{Path: t.Path}
	data, err := checklist.ReadInto(t.Path, MaxAccessSize, buf)
	switch {
	case errors.Is(err, checklist.ErrTooLarge):
		res.Problems = []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}}
		return res, buf
	case err != nil:
		res.Problems = []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: "fichier illisible : " + checklist.Describe(err)}}
		return res, buf
	}
	if t.Pub != "" {
		pub, err := keys.ReadFile(t.Pub)
		if err != nil {
			pub = nil // unreadable or too large: reported as a bad public key
		}
		rules.Beside = &PubFile{Name: filepath.Base(t.Pub), Data: pub}
	}
	r := Validate(data, rules)
	res.Problems, res.Fingerprint, res.Valid = r.Problems, r.Fingerprint, r.Valid()
	return res, data[:0]
}
