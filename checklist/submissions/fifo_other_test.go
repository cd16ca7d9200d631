//go:build !unix

package submissions

import "errors"

// haveFIFO: no named pipes in a folder here.
const haveFIFO = false

func mkfifo(string) error { return errors.New("pas de tube nommé sur ce système") }
