//go:build !linux && !darwin

package surveyprompt

// dropTypedAhead: typeahead_linux.go. Windows' console reads a line only
// once its prompt is drawn: nothing typed before it is echoed.
func dropTypedAhead(uintptr) {}
