package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"
)

// Error is a file operation that failed, with the reason in French. Err
// keeps the system error for errors.Is; Error() never shows its English.
type Error struct {
	Path, Reason string
	Err          error
}

func (e *Error) Error() string { return e.Path + " : " + e.Reason }
func (e *Error) Unwrap() error { return e.Err }

// PathError says in French what went wrong with path. An *Error passes
// through unchanged.
func PathError(path string, err error) error {
	var fe *Error
	if errors.As(err, &fe) {
		return err
	}
	return &Error{Path: path, Reason: Reason(err), Err: err}
}

// Reason is the French for a system or file error: what the person reads
// instead of "permission denied" or "too many levels of symbolic links".
// An error it does not know becomes its number, never its English.
func Reason(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Reason
	}
	if r, ok := osReason(err); ok {
		return r
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if r, ok := errnoReason(errno); ok {
			return r
		}
	}
	switch {
	case errors.Is(err, ErrTooLarge):
		return "fichier trop grand"
	case errors.Is(err, ErrNotRegular):
		return ErrNotRegular.Error()
	case errors.Is(err, ErrSymlink):
		return ErrSymlink.Error()
	case errors.Is(err, fs.ErrPermission):
		return "permission refusée"
	case errors.Is(err, fs.ErrNotExist):
		return "fichier ou dossier introuvable"
	case errors.Is(err, fs.ErrExist):
		return "le fichier existe déjà"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "fin de fichier inattendue"
	case errors.Is(err, fs.ErrClosed):
		return "fichier déjà fermé"
	}
	if errno != 0 {
		return fmt.Sprintf("erreur système n° %d", uintptr(errno))
	}
	return "erreur inattendue du système"
}

// errnoReason covers the errors a file operation can give on the
// systems pret runs on. Windows has its own numbers for some; the
// syscall package maps the common ones to these names.
func errnoReason(e syscall.Errno) (string, bool) {
	switch e {
	case syscall.ENOENT:
		return "fichier ou dossier introuvable", true
	case syscall.EACCES, syscall.EPERM:
		return "permission refusée", true
	case syscall.ELOOP:
		return "trop de liens symboliques à suivre (une boucle ?), ou un lien symbolique que pret ne suit pas ici", true
	case syscall.EAGAIN:
		return "ressource momentanément indisponible : ce n'est pas un fichier ordinaire prêt à lire", true
	case syscall.EISDIR:
		return "c'est un dossier", true
	case syscall.ENOTDIR:
		return "un élément du chemin n'est pas un dossier", true
	case syscall.ENAMETOOLONG:
		return "chemin ou nom de fichier trop long", true
	case syscall.ENOSPC, syscall.EDQUOT:
		return "plus de place sur le disque", true
	case syscall.EROFS:
		return "le système de fichiers est en lecture seule", true
	case syscall.EIO:
		return "erreur d'entrée-sortie", true
	case syscall.EEXIST:
		return "le fichier existe déjà", true
	case syscall.ENXIO, syscall.ENODEV:
		return "aucun périphérique ne répond à ce chemin", true
	case syscall.EMFILE, syscall.ENFILE:
		return "trop de fichiers ouverts", true
	case syscall.ENOMEM:
		return "mémoire insuffisante", true
	case syscall.EFBIG:
		return "fichier trop grand pour le système", true
	case syscall.EBUSY, syscall.ETXTBSY:
		return "fichier occupé", true
	case syscall.EXDEV:
		return "déplacement impossible d'un disque à un autre", true
	case syscall.EINVAL:
		return "opération refusée par le système pour ce fichier", true
	case syscall.ENOTEMPTY:
		return "le dossier n'est pas vide", true
	case syscall.EINTR:
		return "opération interrompue", true
	}
	return "", false
}

func isSymlinkErr(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && (errno == syscall.ELOOP || errno == symlinkErrno)
}
