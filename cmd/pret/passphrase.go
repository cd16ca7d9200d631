package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/onboarding"
)

// maxPassphraseLine: longer is refused, never cut.
const maxPassphraseLine = 4096

// passphraseFromFile returns the first line of path (stdin for "-"),
// refusing untypable characters; no error ever shows the content.
func passphraseFromFile(path string, stdin io.Reader) ([]byte, error) {
	// Refusals of what the file holds, or that it cannot be read, are 1
	// (cli.md), as for pret empreinte; only a path that is not there is 2.
	tooLong := refusedError("écrivez la passphrase seule sur la première ligne du fichier",
		"première ligne du fichier de passphrase trop longue (plus de %d octets) : elle n'est pas coupée, elle est refusée", maxPassphraseLine)
	src := stdin
	if path != "-" {
		data, err := safefile.Read(path, safefile.Passphrase, safefile.FollowLink)
		switch {
		case errors.Is(err, safefile.ErrTooLarge):
			return nil, refusedError("la passphrase est la première ligne d'un petit fichier (4 Kio au plus)",
				"fichier de passphrase trop grand (plus de 4 098 octets : une ligne de 4 096 et sa fin) : %s", path)
		case errors.Is(err, fs.ErrNotExist):
			return nil, usageError("vérifiez le chemin", "fichier de passphrase illisible : %s", err)
		case err != nil:
			return nil, refusedError("vérifiez le chemin et les droits du fichier", "fichier de passphrase illisible : %s", err)
		}
		defer clear(data)
		src = bytes.NewReader(data)
	}
	// Only the first line: a writer keeping the pipe open is no wait.
	first, err := bufio.NewReaderSize(io.LimitReader(src, maxPassphraseLine+2), maxPassphraseLine+2).ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, tooLong
	case err != nil && !errors.Is(err, io.EOF):
		return nil, refusedError("", "lecture de la passphrase sur l'entrée standard impossible : %s", safefile.Reason(err))
	}
	defer clear(first)
	line, hadNewline := bytes.CutSuffix(first, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > maxPassphraseLine || !hadNewline && len(first) > maxPassphraseLine {
		return nil, tooLong
	}
	if err := onboarding.Untypable(string(line)); err != nil {
		// An editor's mark: a key made with it would need this file forever.
		return nil, refusedError(onboarding.UntypableHint(string(line)), "fichier de passphrase refusé : %v", err)
	}
	return bytes.Clone(line), nil
}

// newPassphraseFromArg reads the passphrase of a key about to be made: no
// confirmation is possible off a terminal, so a space trap is refused.
func newPassphraseFromArg(path string, ios *iostreams) ([]byte, error) {
	pass, err := passphraseFromArg(path, ios)
	if err != nil {
		return nil, err
	}
	// A passphrase refused anyway is said by EnsureKey, with its own reason.
	if trap := onboarding.SpaceTrap(string(pass)); trap != "" && onboarding.CheckPassphrase(string(pass)) == nil {
		clear(pass)
		return nil, refusedError("écrivez la passphrase sans ce caractère dans le fichier, ou tapez-la dans le terminal (pret vous la fait confirmer)",
			"fichier de passphrase refusé : %s ; il faudrait la retaper exactement ainsi à chaque usage", trap)
	}
	return pass, nil
}

// passphraseFromArg reads --passphrase-file, never from a terminal.
func passphraseFromArg(path string, ios *iostreams) ([]byte, error) {
	if path == "-" && ios.inTTY {
		return nil, usageError("sans --passphrase-file, pret la demande sans écho dans le terminal ; ou redirigez un fichier : --passphrase-file - < FICHIER",
			"l'entrée standard est un terminal : la passphrase s'afficherait pendant la saisie")
	}
	return passphraseFromFile(path, ios.In)
}
