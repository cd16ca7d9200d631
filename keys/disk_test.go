package keys

import "github.com/romeo-pret/pret/internal/safefile"

// disk is the Files pret gives keys; the tests of this package use it
// too, so they test the key rules over the real reader and writer.
var disk Files = safefile.KeyFiles{}
