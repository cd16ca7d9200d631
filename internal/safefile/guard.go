package safefile

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrProtected is an output path that lands on the key, its .pub or in
// the key folder: only the key code writes there, and only new names.
var ErrProtected = errors.New("ce chemin mène à la clé SSH ou à son dossier ; pret n'y écrit jamais")

// Protected is the key folder and the key files, as they are on disk.
type Protected struct {
	dir   string
	files []string
}

// Protect names the key folder and the files in it that no output may
// touch.
func Protect(dir string, files ...string) Protected {
	return Protected{dir: dir, files: files}
}

// Check refuses target when, once symbolic links and ".." are resolved,
// it is the key folder, a file directly in it, or the same file as one of
// the protected ones (a hard link, another spelling on a case-insensitive
// disk). It reads the file system but changes nothing.
func (p Protected) Check(target string) error { return p.check(target, false) }

// CheckTree is Check, and also refuses target anywhere below the key
// folder: for pret's own files (the state file), which have no business
// in ~/.ssh or its subfolders, where a mistaken XDG_STATE_HOME would put
// them.
func (p Protected) CheckTree(target string) error { return p.check(target, true) }

func (p Protected) check(target string, tree bool) error {
	if p.dir == "" {
		return nil
	}
	t, dir := resolve(target, 0), resolve(p.dir, 0)
	dirInfo, dirErr := os.Stat(dir)
	isDir := func(path string) bool {
		st, err := os.Stat(path)
		return path == dir || dirErr == nil && err == nil && os.SameFile(st, dirInfo)
	}
	refused := isDir(t)
	for d := filepath.Dir(t); !refused; d = filepath.Dir(d) {
		refused = isDir(d)
		if !tree || filepath.Dir(d) == d {
			break
		}
	}
	// The target, or the folder it would be in, is one of the files (or
	// the key used as a folder).
	for _, c := range []string{t, filepath.Dir(t)} {
		st, err := os.Stat(c)
		for _, f := range p.files {
			fst, ferr := os.Stat(f)
			refused = refused || err == nil && ferr == nil && os.SameFile(st, fst)
		}
	}
	if refused {
		return &Error{Path: target, Reason: ErrProtected.Error(), Err: ErrProtected}
	}
	return nil
}

// resolve makes path absolute and resolves its symbolic links the way
// the system will when the file is opened: ".." after a link goes up from
// the link's target, so nothing is cleaned before links are read. A
// dangling last link is followed (writing through it would create its
// target) and parents that do not exist yet are kept as written.
func resolve(path string, depth int) string {
	p := path
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return filepath.Clean(p)
		}
		p = wd + string(filepath.Separator) + p
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	vol := filepath.VolumeName(p)
	root := vol + string(filepath.Separator)
	for len(p) > len(root) && os.IsPathSeparator(p[len(p)-1]) {
		p = p[:len(p)-1]
	}
	if depth > 40 || len(p) <= len(root) {
		return filepath.Clean(p)
	}
	i := len(p) - 1
	for i >= len(vol) && !os.IsPathSeparator(p[i]) {
		i--
	}
	parent, base := p[:i], p[i+1:]
	if len(parent) <= len(vol) {
		parent = root
	}
	switch base {
	case "..":
		return filepath.Dir(resolve(parent, depth+1))
	case ".":
		return resolve(parent, depth+1)
	}
	if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if link, err := os.Readlink(p); err == nil {
			if !filepath.IsAbs(link) {
				link = parent + string(filepath.Separator) + link
			}
			return resolve(link, depth+1)
		}
	}
	return filepath.Join(resolve(parent, depth+1), base)
}
