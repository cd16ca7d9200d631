package main

import (
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// keyFiles is where keys (which imports no other package of pret) meets
// safefile's bounded reader and never-replacing writer.
var keyFiles keys.Files = safefile.KeyFiles{}

// checkOutput refuses (exit 2) an output on the key, its .pub, or in or
// below its folder; every command that writes a file calls it first.
func checkOutput(store keys.Store, path, setting string) error {
	return onboarding.CheckOutputs(store, onboarding.Output{Path: path, Setting: setting})
}

// guardStore is the key pret man protects: the configured one, else the
// default place; with neither, nothing is written.
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
