package submissions

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"syscall"

	"github.com/romeo-pret/pret/internal/safefile"
)

// ownErrors are said as they are: they are French already.
var ownErrors = []error{errTooLarge, errIsDir, errNestedArchive, errBudget, errFolderMoved, errEncrypted, errNULName, errSymlink}

var (
	errTooLarge      = errors.New("trop grand")
	errIsDir         = errors.New("c'est un dossier")
	errNestedArchive = errors.New("archive dans une archive : extrayez-la d'abord, puis nommez-la sur la ligne de commande")
	errBudget        = errors.New("l'archive se décompresse en bien plus qu'elle ne pèse (bombe zip probable) : entrée non lue")
	errFolderMoved   = errors.New("le dossier a été déplacé ou remplacé par un lien pendant la lecture : il n'a pas été lu ; relancez pret valider")
	errEncrypted     = errors.New("entrée chiffrée (protégée par un mot de passe) : elle n'est pas lue ; demandez une archive sans mot de passe")
	errNULName       = errors.New("le nom de l'entrée contient un caractère nul : aucun outil ne la nomme de la même façon, elle n'est pas lue ; demandez une archive refaite")
	errSymlink       = errors.New("c'est un lien symbolique : un lien trouvé dans un dossier n'est jamais suivi ; nommez sa cible sur la ligne de commande si elle doit être lue")
)

// regularFile keeps an opened file only when it is a regular file.
func regularFile(f *os.File, id fileID, st fs.FileInfo, err error) (*os.File, fileID, int64, error) {
	if err == nil && !st.Mode().IsRegular() {
		f.Close()
		err = notRegular(st.Mode())
	}
	if err != nil {
		return nil, id, 0, err
	}
	return f, id, st.Size(), nil
}

func notRegular(mode fs.FileMode) error {
	switch {
	case mode.IsDir():
		return errIsDir
	case mode&fs.ModeSymlink != 0:
		return errSymlink
	case mode&fs.ModeNamedPipe != 0:
		return errors.New("c'est un tube nommé (FIFO), pas un fichier ordinaire : il n'est pas lu")
	case mode&fs.ModeSocket != 0:
		return errors.New("c'est une socket, pas un fichier ordinaire : elle n'est pas lue")
	case mode&fs.ModeDevice != 0:
		return errors.New("c'est un périphérique, pas un fichier ordinaire : il n'est pas lu")
	}
	return errors.New("ce n'est pas un fichier ordinaire : il n'est pas lu")
}

// describe says in French why a file or folder could not be read: no
// system or library string reaches the organiser untranslated.
func describe(err error) string {
	var errno syscall.Errno
	switch {
	case err == nil:
		return ""
	case slices.ContainsFunc(ownErrors, func(e error) bool { return errors.Is(err, e) }):
		return err.Error()
	case errors.Is(err, safefile.ErrSymlink):
		return errSymlink.Error()
	case errors.As(err, new(*safefile.Error)):
		return safefile.Reason(err)
	case errors.Is(err, zip.ErrFormat):
		return "archive corrompue : ce n'est pas un zip lisible ; téléchargez-la de nouveau"
	case errors.Is(err, zip.ErrAlgorithm):
		return "méthode de compression inconnue ou entrée chiffrée : l'archive doit être un zip ordinaire, sans mot de passe"
	case errors.Is(err, zip.ErrChecksum):
		return "somme de contrôle fausse : l'archive est abîmée ; téléchargez-la de nouveau"
	case errors.As(err, &errno):
		if s, ok := errnoText[errno]; ok {
			return s
		}
		return fmt.Sprintf("erreur système n° %d", int(errno))
	case errors.Is(err, fs.ErrPermission):
		return "permission refusée"
	case errors.Is(err, fs.ErrNotExist):
		return "introuvable"
	}
	return "erreur de lecture"
}

var errnoText = map[syscall.Errno]string{
	syscall.EACCES: "permission refusée", syscall.EPERM: "permission refusée",
	syscall.ENOENT:       "introuvable (lien symbolique cassé ?)",
	syscall.ELOOP:        "lien symbolique qui boucle, ou lien trouvé dans un dossier (jamais suivi)",
	syscall.ENAMETOOLONG: "chemin trop long pour le système",
	syscall.ENOTDIR:      "un élément du chemin n'est pas un dossier",
	syscall.EISDIR:       "c'est un dossier",
	syscall.EAGAIN:       "ressource temporairement indisponible",
	syscall.EIO:          "erreur d'entrée-sortie du disque",
	syscall.EMFILE:       "trop de fichiers ouverts", syscall.ENFILE: "trop de fichiers ouverts",
	syscall.ENOMEM: "mémoire insuffisante",
	syscall.ENXIO:  "périphérique absent : ce n'est pas un fichier ordinaire", syscall.ENODEV: "périphérique absent : ce n'est pas un fichier ordinaire",
}
