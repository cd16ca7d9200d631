package safefile

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"
)

// Error is a failed file operation, with the reason in French; Err keeps
// the system error for errors.Is, never shown.
type Error struct {
	Path, Reason string
	Err          error
}

func (e *Error) Error() string { return e.Path + " : " + e.Reason }
func (e *Error) Unwrap() error { return e.Err }

// PathError says in French what went wrong with path; *Error and nil pass.
func PathError(path string, err error) error {
	var fe *Error
	if err == nil || errors.As(err, &fe) {
		return err
	}
	return &Error{Path: path, Reason: Reason(err), Err: err}
}

// Reason is the French for a system or file error; an unknown one
// becomes its number, never its English.
func Reason(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Reason
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if r := cmp.Or(osReasons[errno], errnoReasons[errno]); r != "" {
			return r
		}
	}
	for _, e := range []error{ErrTooLarge, ErrNotRegular, ErrSymlink} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	switch {
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
	case errno != 0:
		return fmt.Sprintf("erreur système n° %d", uintptr(errno))
	}
	return "erreur inattendue du système"
}

// errnoReasons covers the errors a file operation can give (osReasons
// adds Windows' own numbers); those errors.Is knows are said in Reason.
var errnoReasons = map[syscall.Errno]string{
	syscall.ELOOP:        "trop de liens symboliques à suivre (une boucle ?), ou un lien symbolique que pret ne suit pas ici",
	syscall.EAGAIN:       "ressource momentanément indisponible : ce n'est pas un fichier ordinaire prêt à lire",
	syscall.EISDIR:       "c'est un dossier",
	syscall.ENOTDIR:      "un élément du chemin n'est pas un dossier",
	syscall.ENAMETOOLONG: "chemin ou nom de fichier trop long",
	syscall.ENOSPC:       diskFull,
	syscall.EDQUOT:       diskFull,
	syscall.EROFS:        "le système de fichiers est en lecture seule",
	syscall.EIO:          "erreur d'entrée-sortie",
	syscall.ENXIO:        noDevice,
	syscall.ENODEV:       noDevice,
	syscall.EMFILE:       "trop de fichiers ouverts",
	syscall.ENFILE:       "trop de fichiers ouverts",
	syscall.ENOMEM:       "mémoire insuffisante",
	syscall.EFBIG:        "fichier trop grand pour le système",
	syscall.EBUSY:        "fichier occupé",
	syscall.ETXTBSY:      "fichier occupé",
	syscall.EXDEV:        "déplacement impossible d'un disque à un autre",
	syscall.EINVAL:       "opération refusée par le système pour ce fichier",
	syscall.ENOTEMPTY:    "le dossier n'est pas vide",
	syscall.EINTR:        "opération interrompue",
}

const diskFull, noDevice = "plus de place sur le disque", "aucun périphérique ne répond à ce chemin"

// DiskFull reports an error that says the disk, or the quota, is full:
// another folder will not do, room will.
func DiskFull(err error) bool { return strings.HasPrefix(Reason(err), diskFull) }
