//go:build !unix

package onboarding

import "errors"

func mkfifo(string) error { return errors.New("pas de FIFO sur ce système") }
