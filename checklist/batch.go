package checklist

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/keys"
)

// IsAccessName reports whether a file name is acces.md or accès.md, in
// any case and either Unicode form.
func IsAccessName(name string) bool { return fold(name) == "acces.md" }

// FindAccessFiles expands the command line: folders are walked for
// acces.md files, files are taken whatever their name. Paths come back
// sorted and without duplicates.
func FindAccessFiles(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				// An unreadable folder deep inside must not hide the rest.
				return nil
			}
			if !d.IsDir() && IsAccessName(d.Name()) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// ValidateFiles validates files in parallel, then marks the fingerprints
// that two or more files share. Results are in the order of paths.
func ValidateFiles(paths []string, rules Rules, workers int) []FileResult {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]FileResult, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 4096)
			for i := range next {
				results[i], buf = ValidateFile(paths[i], rules, buf)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	markDuplicates(results)
	return results
}

func markDuplicates(results []FileResult) {
	count := map[string]int{}
	for _, r := range results {
		if r.Fingerprint != "" {
			count[r.Fingerprint]++
		}
	}
	for i := range results {
		if n := count[results[i].Fingerprint]; n > 1 {
			results[i].Problems = append(results[i].Problems, Problem{
				Code: "duplicate-fingerprint", Severity: SevError,
				Message: fmt.Sprintf("la même empreinte figure dans %d fichiers : deux personnes ne partagent pas une clé", n),
			})
			results[i].Valid = false
		}
	}
}

// ValidateFile reads one file within the size bound and validates it,
// with the .pub found beside it. buf is reused between calls.
func ValidateFile(path string, rules Rules, buf []byte) (FileResult, []byte) {
	res := FileResult{Path: path}
	data, err := readBounded(path, MaxAccessSize, buf)
	switch {
	case errors.Is(err, errTooLarge):
		res.Problems = []Problem{{Code: "too-large", Severity: SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}}
		return res, buf
	case err != nil:
		res.Problems = []Problem{{Code: "unreadable", Severity: SevError, Message: "fichier illisible : " + describe(err)}}
		return res, buf
	}
	rules.Beside = besidePub(filepath.Dir(path), rules.KeyName)
	r := Validate(data, rules)
	res.Problems, res.Fingerprint, res.Valid = r.Problems, r.Fingerprint, r.Valid()
	return res, data[:0]
}

var errTooLarge = errors.New("trop grand")

func readBounded(path string, limit int64, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, errors.New("c'est un dossier")
		}
		if st.Size() > limit {
			return nil, errTooLarge
		}
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, errTooLarge
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func describe(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission refusée"
	case errors.Is(err, fs.ErrNotExist):
		return "fichier introuvable"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// besidePub finds the .pub in dir, preferring the configured name.
func besidePub(dir, keyName string) *PubFile {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var name string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".pub") {
			if e.Name() == keyName || name == "" {
				name = e.Name()
			}
		}
	}
	if name == "" {
		return nil
	}
	data, err := keys.ReadFile(filepath.Join(dir, name))
	if err != nil {
		data = nil // unreadable or too large: reported as a bad public key
	}
	return &PubFile{Name: name, Data: data}
}
