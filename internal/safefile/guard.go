package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrProtected is an output path that lands on the key, its .pub or in
// the key folder: only the key code writes there, and only new names.
var ErrProtected = errors.New("ce chemin mène à la clé SSH ou à son dossier ; pret n'y écrit jamais")

// Protected is the key folders and the key files, as they are on disk.
type Protected struct {
	dirs  []string
	files []string
}

// Protect names the key folders and the key files no output may touch.
func Protect(dirs []string, files ...string) Protected {
	return Protected{dirs: dirs, files: files}
}

// CheckTree refuses target when, once links and ".." are resolved, it is
// a key folder or below it, or the same file as a protected one or one in a
// key folder (a hard link, another spelling on a case-insensitive disk, the
// key as a folder).
func (p Protected) CheckTree(target string) error {
	t, refused := resolve(target), false
	for _, dir := range p.dirs {
		if dir == "" {
			continue
		}
		dir = resolve(dir)
		dirInfo, dirErr := os.Stat(dir)
		for d := t; !refused; d = filepath.Dir(d) {
			st, err := os.Stat(d)
			refused = d == dir || dirErr == nil && err == nil && os.SameFile(st, dirInfo)
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, c := range []string{t, filepath.Dir(t)} {
		st, err := os.Stat(c)
		for _, f := range p.files {
			fst, ferr := os.Stat(f)
			refused = refused || err == nil && ferr == nil && os.SameFile(st, fst)
		}
	}
	// A hard link elsewhere to any file of a key folder (another key, known_hosts).
	if st, err := os.Stat(t); err == nil && st.Mode().IsRegular() {
		for _, dir := range p.dirs {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				fi, err := os.Stat(filepath.Join(dir, e.Name()))
				refused = refused || err == nil && os.SameFile(st, fi)
			}
		}
	}
	if refused {
		return &Error{Path: target, Reason: ErrProtected.Error(), Err: ErrProtected}
	}
	return nil
}

// resolve makes path absolute and resolves its links as open will: ".."
// after a link goes up from its target, so nothing is cleaned lexically
// first. Names not there yet stay as written; a dangling link is
// followed, since writing through it creates its target.
func resolve(path string) string {
	p, rest := path, ""
	if !filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			p = wd + string(filepath.Separator) + p
		}
	}
	isSep := func(r rune) bool { return r < 128 && os.IsPathSeparator(uint8(r)) }
	seen := map[string]bool{} // a link seen twice is a loop: following it again only costs
	for range 40 {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		// Cut p at its last separator, without cleaning it.
		q := strings.TrimRightFunc(p, isSep)
		i, vol := strings.LastIndexFunc(q, isSep), len(filepath.VolumeName(q))
		if i < vol {
			break
		}
		parent := q[:max(i, vol+1)] // a root keeps its separator
		if link, err := os.Readlink(p); err == nil {
			if !filepath.IsAbs(link) {
				link = parent + string(filepath.Separator) + link
			}
			if seen[link] {
				break
			}
			seen[link], p = true, link
			continue
		}
		p, rest = parent, filepath.Join(q[i+1:], rest)
	}
	return filepath.Join(p, rest)
}
