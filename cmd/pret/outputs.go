package main

import (
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// keyFiles is the file system keys reads and writes key files through:
// safefile's bounded reader and never-replacing writer. keys imports no
// other package of pret; this is where the two meet.
var keyFiles keys.Files = safefile.KeyFiles{}

// checkOutput refuses (exit 2, nothing written) an output path that lands
// on the key, its .pub, in the key folder or below it, once links, ".."
// and "~" are resolved; setting names the flag or setting that gave it.
// Every command that writes a file calls it first: only `pret cle`
// writes there, through keys, and only names that are absent.
func checkOutput(store keys.Store, path, setting string) error {
	return onboarding.CheckOutputs(store, onboarding.Output{Path: path, Setting: setting})
}

// guardStore is the key to protect for a command that does not need the
// configuration (pret man): the configured one when it loads, else the
// default place. With neither (no HOME and a broken configuration) there
// is no telling where the key is, and nothing is written.
func (a *app) guardStore() (keys.Store, error) {
	if a.cfg != nil {
		return a.cfg.Key, nil
	}
	cfg, _, cfgErr := loadConfig(a.v, a.configFlag)
	if cfgErr == nil {
		return cfg.Key, nil
	}
	home, err := expandHome("~/.ssh")
	if err != nil {
		return keys.Store{}, cfgErr
	}
	return keys.Store{Dir: home, Name: "id_ed25519_romeo", Files: keyFiles}, nil
}
