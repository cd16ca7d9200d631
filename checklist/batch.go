package checklist

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
	"syscall"

	"github.com/romeo-pret/pret/keys"
)

// IsAccessName reports whether a file name is acces.md or accès.md, in
// any case and either Unicode form.
func IsAccessName(name string) bool { return fold(name) == "acces.md" }

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
func ValidatePaths(paths []string, rules Rules, workers int) ([]FileResult, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		i int
		t Target
	}
	jobs := make(chan job, 64)
	var mu sync.Mutex
	var results []FileResult
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 8192)
			for j := range jobs {
				var r FileResult
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
		results = append(results, FileResult{})
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
// with the .pub beside it. buf is reused between calls.
func ValidateFile(t Target, rules Rules, buf []byte) (FileResult, []byte) {
	res := FileResult{Path: t.Path}
	data, err := readBounded(t.Path, MaxAccessSize, buf)
	switch {
	case errors.Is(err, errTooLarge):
		res.Problems = []Problem{{Code: "too-large", Severity: SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}}
		return res, buf
	case err != nil:
		res.Problems = []Problem{{Code: "unreadable", Severity: SevError, Message: "fichier illisible : " + describe(err)}}
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

var errTooLarge = errors.New("trop grand")

// ReadBounded reads a whole file of at most limit bytes; a larger one is
// not read and gives ErrTooLarge.
func ReadBounded(path string, limit int64) ([]byte, error) { return readBounded(path, limit, nil) }

// ErrTooLarge is returned by ReadBounded for a file over its limit.
var ErrTooLarge = errTooLarge

// readBounded reads a whole file with plain system calls: open, fstat,
// read, close. os.Open would add a poller registration per file, which
// costs more than the read itself on a page of text.
func readBounded(path string, limit int64, buf []byte) ([]byte, error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
		return nil, errors.New("c'est un dossier")
	}
	if st.Size > limit {
		return nil, errTooLarge
	}
	if want := int(st.Size) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, errTooLarge
		}
	}
}

func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			return fd, err
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
