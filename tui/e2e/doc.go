// Package e2e holds the terminal lab's end-to-end tests: a teatest flow
// through the whole program (root model, bridge and engine), and a test
// that drives the real binary in tmux. They live apart from package tui
// because teatest brings its own -update flag, and package tui defines the
// one its goldens use.
package e2e
