package main

import (
	"fmt"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// keyFiles is the file system keys reads and writes key files through:
// safefile's bounded reader and never-replacing writer. keys imports no
// other package of pret; this is where the two meet.
var keyFiles keys.Files = safefile.KeyFiles{}

// checkOutput refuses (exit 2, nothing written) an output path that lands
// on the key, its .pub or in the key folder, after links, ".." and "~"
// are resolved. Every command that writes a file calls it first, with
// the name of the flag or setting that gave the path; `pret cle` alone
// writes there, through keys, and only names that are absent.
func checkOutput(store keys.Store, path, setting string) error {
	if err := onboarding.Protected(store).Check(path); err != nil {
		return usageError(fmt.Sprintf("choisissez pour %s un chemin hors du dossier %s", setting, checklist.Escape(store.Dir)),
			"%s (%s) mène à la clé SSH %s ou à son dossier : pret n'y écrit jamais ; rien n'a été écrit",
			setting, checklist.Escape(path), checklist.Escape(store.PrivatePath()))
	}
	return nil
}

// guardStore is the key to protect for a command that does not need the
// configuration (pret man): the configured one when it loads, else the
// default place.
func (a *app) guardStore() keys.Store {
	if a.cfg != nil {
		return a.cfg.Key
	}
	if cfg, _, err := loadConfig(a.v, a.configFlag); err == nil {
		return cfg.Key
	}
	home, _ := expandHome("~/.ssh")
	return keys.Store{Dir: home, Name: "id_ed25519_romeo", Files: keyFiles}
}
